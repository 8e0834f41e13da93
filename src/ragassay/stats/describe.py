"""Distribution statistics per metric, and the aggregate / rmse sections.

`std_dev` is the POPULATION standard deviation (divide by n), as in the judge
suite's scoring guide: 0.2, 0.5, 0.35 -> mean 0.35, std_dev 0.122474.
Percentiles use linear interpolation between order statistics (numpy's
default, "type 7"). Perfect/poor counts depend on the metric's declared range and
direction (for a lower-is-better metric, perfect is near `low`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.table import ScoreTable
from ragassay.types import MetricSpec

NO_INTERVAL = "n=1, no interval"
"""What an interval of a single value reads as wherever one is shown (a bootstrap of one
value is no interval)."""


def interval_text(low: float | None, high: float | None, n: int | None = None,
                  digits: int = 3, none: str = "-") -> str:
    """`[0.412, 0.733]`; NO_INTERVAL for one value (`n`); `none` when there is none:
    how every table (terminal, HTML, leaderboard, dashboard) shows an interval."""
    if n == 1:
        return NO_INTERVAL
    if low is None or high is None:
        return none
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


PERFECT_SHARE = 0.95  # value >= low + 0.95 * (high - low); from the top if lower is better
POOR_SHARE = 0.3  # value < low + 0.3 * (high - low); likewise
_EPS = 1e-9  # so that e.g. exactly 9.55 on 1-10 counts as perfect despite float error


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def describe(values: Sequence[float], spec: MetricSpec, *, unscored: int = 0) -> dict[str, Any]:
    """Distribution of the scored `values` of one metric.

    Statistics of an empty sample are None; a single value has std_dev 0.0.
    `unscored` is only reported (those samples are not in `values`).
    """
    n = len(values)
    span = spec.high - spec.low
    if spec.higher_is_better:
        perfect = sum(v >= spec.low + PERFECT_SHARE * span - _EPS for v in values)
        poor = sum(v < spec.low + POOR_SHARE * span - _EPS for v in values)
    else:  # the same shares measured from the top: 0 hallucinations is perfect
        perfect = sum(v <= spec.high - PERFECT_SHARE * span + _EPS for v in values)
        poor = sum(v > spec.high - POOR_SHARE * span + _EPS for v in values)
    out: dict[str, Any] = {
        "mean": None,
        "median": None,
        "std_dev": None,
        "min": None,
        "max": None,
        "variance": None,
        "percentile_25": None,
        "percentile_75": None,
        "perfect_count": perfect,
        "poor_count": poor,
        "sample_count": n,
        "unscored_count": unscored,
    }
    if n == 0:
        return out
    arr = np.asarray(values, dtype=float)
    mean = _mean(values)
    assert mean is not None
    variance = math.fsum((v - mean) ** 2 for v in values) / n
    p25, p50, p75 = np.percentile(arr, [25, 50, 75])
    out.update(
        mean=mean,
        median=float(p50),
        std_dev=math.sqrt(variance),
        min=float(arr.min()),
        max=float(arr.max()),
        variance=variance,
        percentile_25=float(p25),
        percentile_75=float(p75),
    )
    return out


def per_metric_statistics(table: ScoreTable) -> dict[str, dict[str, Any]]:
    """`describe` for every metric of the table, plus the unscored reasons."""
    out = {}
    for m in table.metrics:
        d = describe(table.values(m), table.spec(m), unscored=table.unscored(m))
        d["unscored_reasons"] = table.unscored_reasons(m)
        out[m] = d
    return out


def rmse_metrics(table: ScoreTable) -> dict[str, dict[str, Any]]:
    """The compact section: per metric {mean, std_dev, min, max, variance, count}."""
    out = {}
    for m in table.metrics:
        d = describe(table.values(m), table.spec(m))
        out[m] = {k: d[k] for k in ("mean", "std_dev", "min", "max", "variance")}
        out[m]["count"] = d["sample_count"]
    return out


def mean_ci(
    values: Sequence[float], *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, Any]:
    """{mean, ci_low, ci_high, count} of scored values (None where not computable; one
    value has no interval: NO_INTERVAL is how it is shown). Values all equal have that
    value as both bounds, exactly as the mean (a resample's float mean can differ from
    it in the last digit)."""
    mean = _mean(values)
    ci: tuple[float, float] | None
    if len(values) < 2:
        ci = None
    elif min(values) == max(values):
        ci = (float(values[0]), float(values[0]))
    else:
        ci = bootstrap_ci(values, n_resamples=n_resamples, confidence=confidence, seed=seed)
    return {
        "mean": mean,
        "ci_low": ci[0] if ci else None,
        "ci_high": ci[1] if ci else None,
        "count": len(values),
    }


def suite_averages(table: ScoreTable) -> dict[str, dict[str, Any]]:
    """Per suite, the plain average of its score metrics' means, on their own scale.

    Only metrics with kind "score" and higher_is_better count (a boolean rate or
    a lower-is-better metric would not average meaningfully with them), and
    composites (`MetricSpec.composite`) are left out (they already combine the
    others). If those
    metrics do not all share one (low, high) range, no average is given: mixing
    a 1-10 mean with a 0-1 mean would be meaningless, and we do not rescale. A metric
    with no scored value is left out of the average, and the entry says so
    (`unscored_metrics`, `note`).
    """
    means = table.means()
    suites: dict[str, list[str]] = {}
    for m in table.metrics:
        spec = table.spec(m)
        if spec.kind == "score" and spec.higher_is_better and spec.composite is None:
            suites.setdefault(spec.suite, []).append(m)
    out: dict[str, dict[str, Any]] = {}
    for suite, names in suites.items():
        scales = {(table.spec(m).low, table.spec(m).high) for m in names}
        scored = [means[m] for m in names if means[m] is not None]
        missing = [m for m in names if means[m] is None]
        entry: dict[str, Any] = {"metrics": names, "average": None, "scale": None}
        if len(scales) > 1:
            entry["note"] = "metrics use different scales; no average"
        else:
            entry["scale"] = list(next(iter(scales)))
            entry["average"] = _mean([float(x) for x in scored if x is not None])
            if missing and scored:
                entry["unscored_metrics"] = missing
                entry["note"] = (f"average of {len(scored)} of {len(names)} metrics; "
                                 f"no scored value: {', '.join(missing)}")
        out[suite] = entry
    return out


def aggregate_metrics(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> dict[str, Any]:
    """{"metrics": {name: {mean, ci_low, ci_high, count, unscored, higher_is_better}},
    "suites": {suite: {average, metrics, scale}}}."""
    metrics = {}
    for m in table.metrics:
        entry = mean_ci(table.values(m), seed=seed, n_resamples=n_resamples, confidence=confidence)
        entry["unscored"] = table.unscored(m)
        entry["higher_is_better"] = table.spec(m).higher_is_better
        metrics[m] = entry
    return {"metrics": metrics, "suites": suite_averages(table)}
