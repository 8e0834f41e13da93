"""Distribution statistics and the aggregate sections, against hand-computed values."""

from __future__ import annotations

import math

import pytest

from ragassay.stats.describe import (
    MetricAggregate,
    Spread,
    aggregate_metrics,
    describe,
    rmse_metrics,
    suite_averages,
)
from ragassay.types import MetricSpec
from tests.stats.conftest import SPECS

UNIT = MetricSpec(name="ragas.faithfulness")
TEN = MetricSpec(name="judge.faithfulness", low=1, high=10)


def test_worked_example_population_std() -> None:
    d = describe([0.2, 0.5, 0.35], UNIT)
    assert d.mean == pytest.approx(0.35)
    assert d.median == pytest.approx(0.35)
    # sqrt(((-0.15)^2 + 0.15^2 + 0) / 3) = sqrt(0.015)
    assert d.std_dev == pytest.approx(0.1224744871)
    assert round(d.std_dev, 4) == 0.1225
    assert d.variance == pytest.approx(0.015)
    assert (d.min, d.max) == (0.2, 0.5)
    # linear interpolation: position 0.5 between 0.2 and 0.35, and between 0.35 and 0.5
    assert d.percentile_25 == pytest.approx(0.275)
    assert d.percentile_75 == pytest.approx(0.425)
    assert d.perfect_count == 0 and d.poor_count == 1
    assert d.sample_count == 3 and d.unscored_count == 0


def test_percentiles_of_four_values() -> None:
    d = describe([4.0, 1.0, 3.0, 2.0], TEN)
    assert d.percentile_25 == pytest.approx(1.75)
    assert d.median == pytest.approx(2.5)
    assert d.percentile_75 == pytest.approx(3.25)


def test_perfect_and_poor_counts_on_one_to_ten() -> None:
    # perfect: >= 1 + 0.95*9 = 9.55; poor: < 1 + 0.3*9 = 3.7
    d = describe([10, 9.55, 9.5, 3.7, 3.69, 1], TEN)
    assert d.perfect_count == 2
    assert d.poor_count == 2


def test_perfect_and_poor_counts_on_zero_to_one() -> None:
    d = describe([0.95, 0.949, 0.3, 0.299, 1.0, 0.0], UNIT)
    assert d.perfect_count == 2
    assert d.poor_count == 2


def test_degenerate_inputs() -> None:
    empty = describe([], UNIT, unscored=2)
    assert empty.mean is None and empty.std_dev is None and empty.percentile_25 is None
    assert empty.sample_count == 0 and empty.unscored_count == 2
    one = describe([0.4], UNIT)
    assert one.std_dev == 0.0 and one.variance == 0.0 and one.percentile_75 == 0.4


def test_rmse_and_aggregate_sections(make_table) -> None:
    specs = {
        "judge.faithfulness": TEN,
        "judge.context_relevance": MetricSpec(name="judge.context_relevance", low=1, high=10),
        "judge.hallucination": MetricSpec(
            name="judge.hallucination", kind="bool", higher_is_better=False
        ),
        "judge.overall": SPECS["judge.overall"],  # declared a composite
    }
    t = make_table(
        specs,
        {
            "judge.faithfulness": [8, 10, None],
            "judge.context_relevance": [4, 6, 8],
            "judge.hallucination": [1, 0, 0],
            "judge.overall": [3, 4, 5],
        },
    )
    r = rmse_metrics(t)["judge.faithfulness"]
    assert r == Spread(mean=9.0, std_dev=1.0, min=8.0, max=10.0, variance=1.0, count=2)
    agg = aggregate_metrics(t, n_resamples=200)
    f = agg.metrics["judge.faithfulness"]
    assert f.mean == 9.0 and f.count == 2 and f.unscored == 1
    assert 8.0 <= f.ci_low <= f.ci_high <= 10.0
    # suite average: faithfulness 9 and relevance 6 share 1-10; the boolean and the
    # composite judge.overall (on 0-10) are left out
    judge = agg.suites["judge"]
    assert judge.average == pytest.approx(7.5)
    assert judge.metrics == ["judge.faithfulness", "judge.context_relevance"]
    assert judge.scale == (1, 10)


def test_suite_average_refused_across_scales(make_table) -> None:
    specs = {"x.a": MetricSpec(name="x.a"), "x.b": MetricSpec(name="x.b", low=1, high=5)}
    t = make_table(specs, {"x.a": [0.5], "x.b": [3.0]})
    x = suite_averages(t)["x"]
    assert x.average is None and "different scales" in x.note


def test_no_nan_for_all_unscored_metric(make_table) -> None:
    t = make_table({"x.a": UNIT}, {"x.a": [None, None]})
    agg = aggregate_metrics(t, n_resamples=50).metrics["x.a"]
    assert agg == MetricAggregate(mean=None, ci_low=None, ci_high=None, count=0, unscored=2,
                                  higher_is_better=True)
    assert all(v is None or not math.isnan(v) for _, v in rmse_metrics(t)["x.a"])


def test_perfect_and_poor_counts_of_a_lower_is_better_metric() -> None:
    """judge.hallucination: 0 (none) is perfect, 1 (a hallucination) is poor."""
    hall = MetricSpec(name="j.hallucination", kind="bool", higher_is_better=False)
    d = describe([1, 1, 1, 0], hall)
    assert (d.perfect_count, d.poor_count) == (1, 3)
    # on 1-10, lower is better: perfect <= 10 - 0.95 * 9 = 1.45, poor > 10 - 0.3 * 9 = 7.3
    err = MetricSpec(name="x.err", low=1, high=10, higher_is_better=False)
    d = describe([1.0, 1.45, 1.5, 7.3, 7.31, 10], err)
    assert (d.perfect_count, d.poor_count) == (2, 2)


def test_suite_average_says_which_metrics_it_leaves_out(make_table) -> None:
    specs = {"s.a": MetricSpec(name="s.a"), "s.b": MetricSpec(name="s.b")}
    t = make_table(specs, {"s.a": [0.9, 0.9], "s.b": [None, None]})
    s = suite_averages(t)["s"]
    assert s.average == pytest.approx(0.9) and s.unscored_metrics == ["s.b"]
    assert s.note == "average of 1 of 2 metrics; no scored value: s.b"
    full = suite_averages(make_table(specs, {"s.a": [0.9], "s.b": [0.5]}))["s"]
    assert full.note is None and full.unscored_metrics is None
    assert "note" not in full.model_dump() and "unscored_metrics" not in full.model_dump()


def test_interval_of_equal_values_is_the_mean_exactly() -> None:
    from ragassay.stats.describe import mean_ci

    for v, n in ((0.7, 37), (0.1, 11), (7.7, 23)):
        got = mean_ci([v] * n, n_resamples=200)
        assert got.ci_low == got.ci_high == got.mean == v
