"""Per-strategy summaries, with each composite metric's guide figures.

For each strategy: every metric's mean and CI under "metrics", question counts, and for
a composite metric (`MetricSpec.composite`, e.g. the judge suite's `overall`) the guide's
figures: the average of each part (`avg_<part>`), the penalty's rate (`<penalty>_rate`),
and the composite formula applied to those averages (`<composite>`), each with a
bootstrap interval; the interval of the composite resamples samples and recomputes the
whole formula. The formula is the composite's own rule (`Composite.combine`): the one
used per sample too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ragassay.stats.bootstrap import FloatArray, bootstrap_stat, column, nanmean_rows
from ragassay.stats.describe import mean_ci
from ragassay.stats.table import ScoreTable
from ragassay.types import MISSING_INPUT, MetricSpec


def guide_fields(spec: MetricSpec) -> dict[str, str]:
    """Report field -> part metric for a composite: `avg_<part>` per weighted part and
    `<penalty>_rate` for the penalty."""
    assert spec.composite is not None
    fields = {"avg_" + name.split(".", 1)[-1]: name for name in spec.composite.weights}
    if spec.composite.penalty:
        fields[spec.composite.penalty.split(".", 1)[-1] + "_rate"] = spec.composite.penalty
    return fields


def composites(table: ScoreTable) -> list[MetricSpec]:
    """The composite metrics of a table whose parts it holds."""
    return [s for s in table.specs.values() if s.composite is not None
            and all(m in table.specs for m in guide_fields(s).values())]


def composite_summary(
    table: ScoreTable, spec: MetricSpec, *, seed: int = 0, n_resamples: int = 2000,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """The guide's figures of one composite on one (sub-)table."""
    assert spec.composite is not None
    fields = guide_fields(spec)
    out: dict[str, Any] = {}
    intervals: dict[str, list[float] | None] = {}
    for key, metric in fields.items():
        stats = mean_ci(table.values(metric), seed=seed, n_resamples=n_resamples,
                        confidence=confidence)
        out[key] = stats["mean"]
        intervals[key] = None if stats["ci_low"] is None else [stats["ci_low"], stats["ci_high"]]
    value, _ = spec.composite.combine({m: out[k] for k, m in fields.items()})
    out[spec.short] = value
    intervals[spec.short] = None
    if value is not None:
        present = [m for k, m in fields.items() if out[k] is not None]
        cols = [column(table.column(m)) for m in present]

        def resampled(cols: list[FloatArray]) -> FloatArray:
            means = {m: nanmean_rows(c) for m, c in zip(present, cols, strict=True)}
            got, _ = spec.composite.combine(means)  # type: ignore[union-attr]
            return np.asarray(got, dtype=float)

        ci = bootstrap_stat(cols, resampled, n_resamples=n_resamples, confidence=confidence,
                            seed=seed)
        intervals[spec.short] = None if ci is None else list(ci)
    out["intervals"] = intervals
    suite_metrics = [m for m in table.metrics if table.spec(m).suite == spec.suite]
    # failed: a metric could not be scored; a missing input (no reference) is no failure
    failed = sum(any(r.value(m) is None and r.reasons.get(m) not in MISSING_INPUT
                     for m in suite_metrics) for r in table.rows)
    out["failed_questions"] = failed + len(table.invalid)
    return out


def strategy_summaries(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, dict[str, Any]]:
    """{strategy: {<composite guide fields>, "total_questions", "metrics": {name: {mean,
    ci_low, ci_high, count}}}} for every strategy of the table."""
    out: dict[str, dict[str, Any]] = {}
    specs = composites(table)
    for name in table.strategies:
        sub = table.for_strategy(name)
        entry: dict[str, Any] = {}
        for spec in specs:
            entry.update(composite_summary(sub, spec, seed=seed, n_resamples=n_resamples,
                                           confidence=confidence))
        entry["total_questions"] = len(sub.rows) + len(sub.invalid)
        entry["metrics"] = {
            m: mean_ci(sub.values(m), seed=seed, n_resamples=n_resamples, confidence=confidence)
            for m in sub.metrics
        }
        out[name] = entry
    return out
