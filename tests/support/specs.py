"""The built-in metrics' declarations, for tests that build score tables by hand: the
human labels a metric is compared with are declared on its spec (`MetricSpec.labels`),
so a hand-made spec takes them from the declaration."""

from __future__ import annotations

from ragassay.metrics import all_specs, suite_names
from ragassay.types import LinkedLabel, MetricSpec

DECLARED: dict[str, MetricSpec] = dict(all_specs(suite_names()))


def linked(name: str) -> tuple[LinkedLabel, ...]:
    """The labels the built-in metric `name` declares it is compared with."""
    return DECLARED[name].labels


def declared(*names: str) -> list[MetricSpec]:
    """The built-in metrics' specs, in the order given."""
    return [DECLARED[n] for n in names]
