"""What the headline reads of a report: a protocol `report.model.Report` meets, so that
the report can hold its headline (`Report.headline`) while the import points one way
(model -> headline -> facts)."""

from __future__ import annotations

from typing import Protocol

from ragassay.stats import MetricAggregate
from ragassay.stats.calibration import Calibration
from ragassay.stats.corrected import Corrected
from ragassay.types.reliability import RunReliability
from ragassay.types.spec import MetricSpec


class _RunFacts(Protocol):
    """What the headline reads of a run (`RunInfo`)."""

    @property
    def run_id(self) -> str: ...

    @property
    def judge_reliability(self) -> RunReliability | None: ...

    @property
    def scored_samples(self) -> int: ...


class Report(Protocol):
    """What the headline reads of a report (`report.model.Report`, which holds its
    headline: a protocol here keeps the import one way)."""

    @property
    def run(self) -> _RunFacts: ...

    @property
    def calibration(self) -> Calibration | None: ...

    @property
    def corrected(self) -> Corrected | None: ...

    @property
    def metrics(self) -> list[str]: ...

    def spec(self, metric: str) -> MetricSpec | None: ...

    def aggregate(self, metric: str) -> MetricAggregate | None: ...
