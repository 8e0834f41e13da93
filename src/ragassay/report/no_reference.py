"""The metrics a run could not score at all because its data has no reference answers
(trial 78: `--metrics judge` on data without references showed a
`METRIC` row of `-` and 0/144 and "144 metric values unscored; top
reasons: no reference answer", which made a clean run look partly failed). Their values
stay unscored with their reason in the report's data; the console's summary, the unscored
line and the HTML summary say them in one line instead of as a failed row."""

from __future__ import annotations

from ragassay.report.model import Report
from ragassay.types import NO_REFERENCE


def needs_reference(report: Report) -> dict[str, int]:
    """Per metric unscored on every sample for the one reason that no sample has a
    reference answer (none scored, none abstained), its unscored values; {} otherwise."""
    out: dict[str, int] = {}
    for name, m in report.aggregate_metrics.metrics.items():
        entry = report.per_metric_statistics.get(name)
        reasons = (entry.unscored_reasons or {}) if entry is not None else {}
        if not m.count and not m.abstained and m.unscored and set(reasons) == {NO_REFERENCE}:
            out[name] = m.unscored
    return out


def needs_reference_line(metrics: list[str] | dict[str, int]) -> str:
    """`METRIC needs reference answers: none in this data, not scored`
    (`A, B need ...` for several); "" for none."""
    if not metrics:
        return ""
    names = list(metrics)
    verb = "needs" if len(names) == 1 else "need"
    return f"{', '.join(names)} {verb} reference answers: none in this data, not scored"
