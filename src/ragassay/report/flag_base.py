"""What a whole-run warning's figure rests on, said beside it (trial 83: "rate 0.458:
above the warning line" gave no denominator, and a reader could not tell that the
declines the judge set aside were not in it): `of 24 scored answers; 6 read as declines
set aside`, and the samples left unscored."""

from __future__ import annotations

from collections.abc import Iterable

from ragassay.report.facts import Report
from ragassay.stats.describe import MetricAggregate
from ragassay.terminal import counted


def base_text(agg: MetricAggregate) -> str:
    """The samples a figure is of: `of 24 scored answers; 6 read as declines set aside;
    1 unscored` (answers where some declined: a decline has no value, so it is not in the
    figure), `of 24 scored samples` where none declined."""
    declines = agg.abstained or 0
    parts = [f"of {counted(agg.count, 'scored answer' if declines else 'scored sample')}"]
    if declines:
        parts.append(f"{declines} read as {'a decline' if declines == 1 else 'declines'} "
                     "set aside")
    if agg.unscored:
        parts.append(f"{agg.unscored} unscored")
    return "; ".join(parts)


def bases_of(report: Report, metrics: Iterable[str]) -> dict[str, str]:
    """`base_text` of each of `metrics` the report has a figure of."""
    return {m: base_text(agg) for m in metrics
            if (agg := report.aggregate(m)) is not None and agg.mean is not None}
