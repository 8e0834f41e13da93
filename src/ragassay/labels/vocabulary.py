"""The label vocabulary: the human labels ragassay knows, what each asks, its scale and
its direction; the metrics each is compared with are declared by the metrics
(`MetricSpec.labels`) and read here (`linked_metrics`).

One place for every reader: calibration links labels to metrics with it, corrected
estimates read a label's scale and direction from it, the annotation page asks its
question, and label files are checked against it. A label outside the vocabulary is
still accepted: it links to metrics of the same short name, and its scale is read from
its values; one close to a vocabulary name (`nearest`) is taken for a typo on import.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ragassay.types import MetricSpec


@dataclass(frozen=True)
class LabelKind:
    """One label of the vocabulary."""

    name: str
    kind: Literal["bool", "grade"]
    question: str  # what the annotation page asks
    aliases: frozenset[str] = frozenset()
    higher_is_better: bool = True
    low: float = 0.0
    high: float = 1.0
    gate: float | None = None  # default threshold of a corrected gate check, label's scale
    choices: tuple[tuple[str, float], ...] = ()  # a grade's named values, low to high

    @property
    def names(self) -> frozenset[str]:
        return self.aliases | {self.name}

    def check(self, value: Any) -> float | str:
        """The value as a number on the label's scale, or a one-line problem."""
        return check_value(value, self.kind, self.low, self.high)


VOCABULARY: tuple[LabelKind, ...] = (
    LabelKind(
        name="hallucinated", kind="bool", higher_is_better=False, gate=0.1,
        question="Does the answer say anything the contexts do not support?",
        aliases=frozenset({"hallucination", "has_hallucination"}),
    ),
    LabelKind(
        name="faithful", kind="bool", gate=0.9,
        question="Is everything the answer says supported by the contexts?",
        aliases=frozenset({"faithfulness", "consistent", "supported", "grounded"}),
    ),
    LabelKind(
        name="correct", kind="bool", gate=0.8,
        question="Is the answer correct (it agrees with the reference, if there is one)?",
        aliases=frozenset({"correctness", "is_correct"}),
    ),
    LabelKind(
        name="relevance", kind="grade", low=0, high=3,
        question="How relevant are the contexts to the question?",
        aliases=frozenset({"relevant", "context_relevance"}),
        choices=(("irrelevant", 0), ("related", 1), ("highly relevant", 2),
                 ("perfectly relevant", 3)),
    ),
)

_BY_NAME = {n: k for k in VOCABULARY for n in k.names}


def lookup(name: str) -> LabelKind | None:
    """The vocabulary entry a label name (or alias; a "labels." prefix is accepted)
    belongs to, or None for a label of the user's own."""
    return _BY_NAME.get(name.removeprefix("labels."))


def nearest(name: str) -> str | None:
    """The vocabulary label a name outside it is close to (a typo: `halucinated` ->
    `hallucinated`), or None for a name of the user's own or one the vocabulary knows."""
    if lookup(name) is not None:
        return None
    close = difflib.get_close_matches(name.removeprefix("labels."), list(_BY_NAME), n=1,
                                      cutoff=0.8)
    return _BY_NAME[close[0]].name if close else None


def unlinked_reason(name: str) -> str:
    """Why a label that no metric of a run is compared with gives no figure, as one line
    without the name: a vocabulary label whose metrics are not in the run, a near-miss
    of a vocabulary name (`nearest`: a typo), or a label of the user's own. Every reader says
    it in these words (the run plan's note, the report's skipped entries)."""
    key = name.removeprefix("labels.")
    if lookup(key) is not None:
        return ("compared with no metric of this run (the metrics that declare it are in "
                "other suites)")
    close = nearest(key)
    if close is not None:
        return (f"no label ragassay knows: did you mean {close!r}? (rename the key in the "
                "data; as it is, it is a label of your own that no metric is compared with)")
    return ("not linked to any metric (a label of your own is compared with a metric of "
            f"its name; link it with ragassay calibrate RUN --link {key}=METRIC)")


def canonical(name: str) -> str:
    """The vocabulary's name for a label (`hallucination` -> `hallucinated`); any other
    name as given, without a "labels." prefix."""
    kind = lookup(name)
    return kind.name if kind else name.removeprefix("labels.")


def problem_value(name: str) -> bool:
    """The value of a yes/no label that marks a problem, the side a judge's verdict is
    there to catch: False of a vocabulary label whose True is the good one (`faithful`,
    `correct`: `higher_is_better`), True of `hallucinated` and of a label of the user's
    own."""
    kind = lookup(name)
    return kind is None or not kind.higher_is_better


def check_value(value: Any, kind: str, low: float, high: float) -> float | str:
    """A label value as a number (a bool as 1/0), or a one-line problem: a bool label
    takes true/false or 1/0; a grade a finite number within its range."""
    if isinstance(value, bool):
        return float(value) if kind == "bool" else f"{value} is not a grade {low:g}-{high:g}"
    if not isinstance(value, int | float) or not math.isfinite(value):
        want = "true/false or 1/0" if kind == "bool" else f"a number {low:g}-{high:g}"
        return f"{value!r} is not {want}"
    if kind == "bool" and value not in (0, 1):
        return f"{value:g} is not true/false or 1/0"
    if not low <= value <= high:
        return f"{value:g} is outside {low:g}-{high:g}"
    return float(value)


MAX_MAGNITUDE = 1e6
"""The largest magnitude a label of the user's own may take: any survey scale or score
fits, and every statistic over such values stays finite (a mean of +-1e308 is not)."""


def own_value(value: Any) -> float | str:
    """A value of a label outside the vocabulary as a number (a bool as 1/0), or a
    one-line problem: true/false, or a finite number within +-MAX_MAGNITUDE."""
    if isinstance(value, bool):
        return float(value)
    if not isinstance(value, int | float) or not math.isfinite(value):
        return f"{value!r} is not true/false or a number"
    if abs(value) > MAX_MAGNITUDE:
        return (f"{value:g} is beyond +-{MAX_MAGNITUDE:,.0f} (the values a label of your "
                "own may take)")
    return float(value)


def linked_metrics(name: str, specs: Iterable[MetricSpec]) -> list[tuple[str, bool]]:
    """(metric, inverted) for each of `specs` (a run's metrics, in their order) a label is
    compared with: a metric of the label's own short name first, then the metrics that
    declare the label (`MetricSpec.labels`, by its vocabulary name), those of one
    direction before the inverted ones."""
    key = name.removeprefix("labels.")
    wanted = canonical(key)
    listed = list(specs)
    out: list[tuple[str, bool]] = []
    seen: set[str] = set()

    def add(metric: str, inverted: bool) -> None:
        if metric not in seen:
            seen.add(metric)
            out.append((metric, inverted))

    for spec in listed:
        if spec.short == key:
            add(spec.name, False)
    for inverted in (False, True):
        for spec in listed:
            if any(link.label == wanted and link.inverted == inverted for link in spec.labels):
                add(spec.name, inverted)
    return out
