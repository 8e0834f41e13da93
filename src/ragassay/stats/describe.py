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
from typing import Literal

import numpy as np

from ragassay.stats.bootstrap import bootstrap_ci
from ragassay.stats.ppi import clopper_pearson
from ragassay.stats.result import Pair, Result, omitted
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


def p_text(p: float | None, none: str = "-") -> str:
    """A p-value as every table shows it: 4 decimals, `<0.0001` below them."""
    return none if p is None else ("<0.0001" if p < 0.0001 else f"{p:.4f}")


PERFECT_SHARE = 0.95  # value >= low + 0.95 * (high - low); from the top if lower is better
POOR_SHARE = 0.3  # value < low + 0.3 * (high - low); likewise
_EPS = 1e-9  # so that e.g. exactly 9.55 on 1-10 counts as perfect despite float error


class Interval(Result):
    """A mean with its interval (`mean_ci`) over `count` scored values (None where not
    computable; one value has no interval: NO_INTERVAL is how it is shown)."""

    mean: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    count: int = 0

    @property
    def ci(self) -> Pair | None:
        """(low, high), or None when there is no interval."""
        return None if self.ci_low is None or self.ci_high is None else (self.ci_low,
                                                                         self.ci_high)

    def text(self, digits: int = 3, none: str = "-") -> str:
        """The interval as every table shows it (`interval_text`)."""
        return interval_text(self.ci_low, self.ci_high, self.count, digits, none)

    def rests_on(self, total: int) -> str:
        """` (n=131)` when the figure rests on fewer values than the `total` samples of
        its row (the rest abstained or unscored): a table's n column counts the row's
        samples, and a figure beside it says its own; "" when it rests on all."""
        return f" (n={self.count})" if self.mean is not None and self.count < total else ""


def scored_text(count: int, total: int) -> str:
    """`131 of 144 scored`: the samples a judge's figure rests on, said beside a figure of
    every sample (people's) when some have no value (abstained, unscored); "" when all
    have one."""
    return f"{count} of {total} scored" if count < total else ""


FEWER_NOTE = ("(n=...): the samples a figure rests on, where fewer than the strategy's (the "
              "rest abstained or unscored for the metric)")
"""Said under a strategy table whose n counts a strategy's samples where some figure rests
on fewer (`Interval.rests_on`)."""


SCALE_NOTE = "a score's mean on its scale, a yes/no verdict's rate (the share of yes)"
"""What a figure said with its `Scale` is, in the words under every table showing one."""


class Scale(Result):
    """How a metric's figure reads (`of` its spec): the `mean` of its scores, or for a
    metric that gives a yes/no verdict the `rate` of yes (the mean of its 0/1 values),
    on its range [low, high]. Said beside every figure that stands next to another
    metric's, so that a 0-1 rate is not read beside a 1-10 mean as the same thing."""

    figure: Literal["mean", "rate"]
    low: float
    high: float

    @classmethod
    def of(cls, spec: MetricSpec) -> Scale:
        return cls(figure=spec.aggregation, low=spec.low, high=spec.high)

    @property
    def range_text(self) -> str:
        """`1-10`, `0-1`."""
        return f"{self.low:g}-{self.high:g}"

    def short(self) -> str:
        """`mean 1-10`, `rate 0-1`: a column's unit."""
        return f"{self.figure} {self.range_text}"

    def figure_text(self, value: float | None, interval: str = "", digits: int = 3) -> str:
        """`mean 7.048 [6.514, 7.543] on 1-10`, `rate 0.285 on 0-1`; "-" without a
        value."""
        if value is None:
            return "-"
        ci = f" {interval}" if interval else ""
        return f"{self.figure} {value:.{digits}f}{ci} on {self.range_text}"


class MetricAggregate(Interval):
    """One metric of the aggregate section: its interval, unscored count, direction, and
    the samples whose answer abstained (`stats.abstention`; left out when none)."""

    unscored: int = 0
    higher_is_better: bool = True
    abstained: int | None = omitted()


class SuiteAverage(Result):
    """Per suite, the plain average of its score metrics' means (see `suite_averages`)."""

    metrics: list[str]
    average: float | None = None
    scale: Pair | None = None
    unscored_metrics: list[str] | None = omitted()
    note: str | None = omitted()


class Aggregates(Result):
    """The aggregate section: every metric's mean with its interval, and suite averages."""

    metrics: dict[str, MetricAggregate]
    suites: dict[str, SuiteAverage]


class Distribution(Result):
    """The distribution of one metric's scored values (None for an empty sample)."""

    mean: float | None = None
    median: float | None = None
    std_dev: float | None = None
    min: float | None = None
    max: float | None = None
    variance: float | None = None
    percentile_25: float | None = None
    percentile_75: float | None = None
    perfect_count: int = 0
    poor_count: int = 0
    sample_count: int = 0
    unscored_count: int = 0
    unscored_reasons: dict[str, int] | None = omitted()


class Spread(Result):
    """The compact consistency figures of one metric (the `rmse_metrics` section)."""

    mean: float | None = None
    std_dev: float | None = None
    min: float | None = None
    max: float | None = None
    variance: float | None = None
    count: int = 0


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def describe(values: Sequence[float], spec: MetricSpec, *, unscored: int = 0) -> Distribution:
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
    counts = Distribution(perfect_count=int(perfect), poor_count=int(poor), sample_count=n,
                          unscored_count=unscored)
    if n == 0:
        return counts
    arr = np.asarray(values, dtype=float)
    mean = _mean(values)
    assert mean is not None
    variance = math.fsum((v - mean) ** 2 for v in values) / n
    p25, p50, p75 = np.percentile(arr, [25, 50, 75])
    return counts.model_copy(update={
        "mean": mean,
        "median": float(p50),
        "std_dev": math.sqrt(variance),
        "min": float(arr.min()),
        "max": float(arr.max()),
        "variance": variance,
        "percentile_25": float(p25),
        "percentile_75": float(p75),
    })


def per_metric_statistics(table: ScoreTable) -> dict[str, Distribution]:
    """`describe` for every metric of the table, plus the unscored reasons."""
    return {m: describe(table.values(m), table.spec(m), unscored=table.unscored(m)
                        ).model_copy(update={"unscored_reasons": table.unscored_reasons(m)})
            for m in table.metrics}


def rmse_metrics(table: ScoreTable) -> dict[str, Spread]:
    """The compact section: per metric its mean, std_dev, min, max, variance and count."""
    out = {}
    for m in table.metrics:
        d = describe(table.values(m), table.spec(m))
        out[m] = Spread(mean=d.mean, std_dev=d.std_dev, min=d.min, max=d.max,
                        variance=d.variance, count=d.sample_count)
    return out


def mean_ci(
    values: Sequence[float], *, rate: bool = False, seed: int = 0, n_resamples: int = 2000,
    confidence: float = 0.95
) -> Interval:
    """The mean of scored values and its interval (None where not computable; one value
    has no interval: NO_INTERVAL is how it is shown). For a `rate` (a yes/no verdict's,
    `MetricSpec.gives_verdict`; an abstention rate) of values all 0 or 1,
    Clopper-Pearson's exact interval of the proportion, which covers at every n and
    rate, where a percentile bootstrap of a 0/1 mean undercovers near 0 and 1 and is
    zero wide when all are alike (16 of 16 is not "exactly 1": [0.794, 1]; trial 65).
    Else (a score, even one whose values happen to be 0 or 1: a 0-10 composite at 0
    on every sample is no proportion) the bootstrap interval; values all equal have that value as
    both bounds, exactly as the mean (a resample's float mean can differ from it in the
    last digit). Coverage: tests/stats/test_rate_interval.py."""
    mean = _mean(values)
    ci: tuple[float, float] | None
    if len(values) < 2:
        ci = None
    elif rate and all(v in (0.0, 1.0) for v in values):
        ci = clopper_pearson(int(sum(values)), len(values), 1.0 - confidence)
    elif min(values) == max(values):
        ci = (float(values[0]), float(values[0]))
    else:
        ci = bootstrap_ci(values, n_resamples=n_resamples, confidence=confidence, seed=seed)
    return Interval(mean=mean, ci_low=ci[0] if ci else None, ci_high=ci[1] if ci else None,
                    count=len(values))


def suite_averages(table: ScoreTable) -> dict[str, SuiteAverage]:
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
    out: dict[str, SuiteAverage] = {}
    for suite, names in suites.items():
        scales = {(table.spec(m).low, table.spec(m).high) for m in names}
        scored = [means[m] for m in names if means[m] is not None]
        missing = [m for m in names if means[m] is None]
        if len(scales) > 1:
            out[suite] = SuiteAverage(metrics=names,
                                      note="metrics use different scales; no average")
            continue
        partial = bool(missing and scored)
        out[suite] = SuiteAverage(
            metrics=names, scale=next(iter(scales)),
            average=_mean([float(x) for x in scored if x is not None]),
            unscored_metrics=missing if partial else None,
            note=(f"average of {len(scored)} of {len(names)} metrics; no scored value: "
                  f"{', '.join(missing)}") if partial else None)
    return out


def metric_ci(table: ScoreTable, metric: str, *, seed: int = 0, n_resamples: int = 2000,
              confidence: float = 0.95) -> Interval:
    """`mean_ci` of one metric's values in `table`, as its spec declares it: a yes/no
    verdict's rate with the exact interval (`MetricSpec.gives_verdict`)."""
    return mean_ci(table.values(metric), rate=table.spec(metric).gives_verdict, seed=seed,
                   n_resamples=n_resamples, confidence=confidence)


def aggregate_metrics(
    table: ScoreTable, *, seed: int = 0, n_resamples: int = 2000, confidence: float = 0.95
) -> Aggregates:
    """Every metric's mean with its interval, unscored count and direction, and the
    suite averages."""
    metrics = {}
    for m in table.metrics:
        entry = metric_ci(table, m, seed=seed, n_resamples=n_resamples, confidence=confidence)
        metrics[m] = MetricAggregate(**dict(entry), unscored=table.unscored(m),
                                     higher_is_better=table.spec(m).higher_is_better,
                                     abstained=table.abstained(m) or None)
    return Aggregates(metrics=metrics, suites=suite_averages(table))
