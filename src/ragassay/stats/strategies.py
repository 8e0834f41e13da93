"""Per-strategy summaries, following the judge suite's scoring guide.

For each strategy: the guide's averages of judge.context_relevance,
judge.answer_similarity and judge.faithfulness (1-10), the hallucination rate
(mean of judge.hallucination booleans), question counts, and

    overall = (0.3*avg_cr + 0.4*avg_as + 0.3*avg_f) * (1 - hallucination_rate)

each with a bootstrap interval; the interval of `overall` resamples samples and
recomputes the whole formula. `overall` is None unless all four judge metrics
have scored values. Every metric (any suite) also gets a mean and CI under
"metrics". Without judge metrics only that generic part is produced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ragassay.stats.bootstrap import FloatArray, bootstrap_stat, column, nanmean_rows
from ragassay.stats.describe import mean_ci
from ragassay.stats.table import ScoreTable

CONTEXT_RELEVANCE = "judge.context_relevance"
ANSWER_SIMILARITY = "judge.answer_similarity"
FAITHFULNESS = "judge.faithfulness"
HALLUCINATION = "judge.hallucination"
GUIDE_METRICS = {
    "avg_context_relevance": CONTEXT_RELEVANCE,
    "avg_answer_similarity": ANSWER_SIMILARITY,
    "avg_faithfulness": FAITHFULNESS,
    "hallucination_rate": HALLUCINATION,
}
WEIGHTS = (0.3, 0.4, 0.3)  # context relevance, answer similarity, faithfulness


def overall_score(cr: Any, sim: Any, faith: Any, hall_rate: Any) -> Any:
    """The guide's composite score (floats or element-wise on arrays)."""
    w_cr, w_as, w_f = WEIGHTS
    return (w_cr * cr + w_as * sim + w_f * faith) * (1.0 - hall_rate)


def _overall_resampled(cols: list[FloatArray]) -> FloatArray:
    cr, sim, faith, hall = (nanmean_rows(c) for c in cols)
    return np.asarray(overall_score(cr, sim, faith, hall), dtype=float)


def judge_summary(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, Any]:
    """The guide's fields for one (sub-)table, or {} when it has no judge metric."""
    judge_metrics = [m for m in table.metrics if table.spec(m).suite == "judge"]
    if not judge_metrics:
        return {}
    out: dict[str, Any] = {}
    intervals: dict[str, list[float] | None] = {}
    for key, metric in GUIDE_METRICS.items():
        if metric not in table.specs:
            continue
        stats = mean_ci(
            table.values(metric), seed=seed, n_resamples=n_resamples, confidence=confidence
        )
        out[key] = stats["mean"]
        intervals[key] = None if stats["ci_low"] is None else [stats["ci_low"], stats["ci_high"]]

    failed = sum(any(r.value(m) is None for m in judge_metrics) for r in table.rows)
    out["total_questions"] = len(table.rows) + len(table.invalid)
    out["failed_questions"] = failed + len(table.invalid)

    parts = [out.get(k) for k in GUIDE_METRICS]
    if all(p is not None for p in parts):
        cr, sim, faith, hall = (float(p) for p in parts if p is not None)
        out["overall"] = overall_score(cr, sim, faith, hall)
        cols = [column(table.column(m)) for m in GUIDE_METRICS.values()]
        ci = bootstrap_stat(
            cols,
            _overall_resampled,
            n_resamples=n_resamples,
            confidence=confidence,
            seed=seed,
        )
        intervals["overall"] = None if ci is None else list(ci)
    else:
        out["overall"] = None
        intervals["overall"] = None
    out["intervals"] = intervals
    return out


def strategy_summaries(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, dict[str, Any]]:
    """{strategy: {<guide fields when judge metrics exist>, "metrics": {name: {mean,
    ci_low, ci_high, count}}}} for every strategy of the table."""
    out: dict[str, dict[str, Any]] = {}
    for name in table.strategies:
        sub = table.for_strategy(name)
        entry = judge_summary(sub, seed=seed, n_resamples=n_resamples, confidence=confidence)
        if not entry:
            entry["total_questions"] = len(sub.rows) + len(sub.invalid)
        entry["metrics"] = {
            m: mean_ci(sub.values(m), seed=seed, n_resamples=n_resamples, confidence=confidence)
            for m in sub.metrics
        }
        out[name] = entry
    return out
