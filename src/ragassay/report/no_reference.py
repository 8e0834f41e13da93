"""The metrics a run could not score at all because its data has no reference answers
(trial 78: `--metrics judge` on data without references showed a
`METRIC` row of `-` and 0/144 and "144 metric values unscored; top
reasons: no reference answer", which made a clean run look partly failed). Their values
stay unscored with their reason in the report's data; the console's summary, the unscored
line and the HTML summary say them in one line instead of as a failed row. The unscored
line itself (`unscored_line`) is built here, for every surface that says it."""

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


def unscored_line(report: Report, limit: int = 3) -> str:
    """The run's unscored values in one line, naming the metrics they are of (trial 82:
    "7 metric values unscored" did not say which metric): `7 A values unscored: no
    relevant context sentences (7)`; over several metrics the top two by count, `9 values
    unscored, A (7) and B (2): ...`, `of 4 metrics` where more have some; the top `limit`
    reasons. Those of a metric that needs reference answers the data lacks are left out
    (`needs_reference`); "" for none."""
    skipped = needs_reference(report)
    reasons: dict[str, int] = {}
    per_metric: dict[str, int] = {}
    for name, entry in report.per_metric_statistics.items():
        if name in skipped:
            continue
        for reason, n in (entry.unscored_reasons or {}).items():
            reasons[reason] = reasons.get(reason, 0) + int(n)
            per_metric[name] = per_metric.get(name, 0) + int(n)
    total = sum(reasons.values())
    if not total:
        return ""
    top = sorted(reasons.items(), key=lambda kv: -kv[1])[:limit]
    shown = "; ".join(f"{r} ({n})" for r, n in top)
    metrics = sorted(per_metric.items(), key=lambda kv: -kv[1])
    values = "value" if total == 1 else "values"
    if len(metrics) == 1:
        return f"{total} {metrics[0][0]} {values} unscored: {shown}"
    named = " and ".join(f"{m} ({n})" for m, n in metrics[:2])
    more = f" of {len(metrics)} metrics" if len(metrics) > 2 else ""
    return f"{total} {values} unscored, {named}{more}: {shown}"
