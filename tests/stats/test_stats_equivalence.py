"""Effect sizes, practical equivalence (TOST) and the four verdicts; the validity of the
equivalence test (its false-claim rate at the margin) and of the interval (coverage)
shown by simulation with fixed seeds (benches/compare_validity.py's worlds)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from benches.compare_validity import ALPHA, MARGIN, simulate
from ragassay.metrics import all_specs
from ragassay.stats import (
    CompareOptions,
    compare_paired,
    compare_strategies,
    constant_across_strategies,
    effect_size,
    magnitude,
    margin_for,
    report_sections,
    tost_p,
    verdict,
)
from ragassay.types import MetricSpec

RATING = MetricSpec(name="x.rating", low=1, high=10, equivalence=0.25)


def test_effect_size_is_cohens_d_av_by_hand() -> None:
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([2.0, 4.0, 4.0, 6.0])
    sd_a, sd_b = np.std(a, ddof=1), np.std(b, ddof=1)
    assert effect_size(a, b) == pytest.approx(1.5 / ((sd_a + sd_b) / 2))
    assert effect_size(a, a) == 0.0
    assert effect_size(np.ones(3), np.ones(3)) is None  # neither side varies
    assert effect_size(np.ones(1), np.ones(1)) is None
    assert [magnitude(d) for d in (0.1, -0.3, 0.6, -1.2, None)] == [
        "negligible", "small", "medium", "large", None]


def test_tost_p_by_hand() -> None:
    d = np.array([0.1, -0.05, 0.2, 0.0, 0.15, 0.05])
    n, mean, se = d.size, d.mean(), d.std(ddof=1) / math.sqrt(d.size)
    expected = max(sps.t.sf((mean + 0.3) / se, n - 1), sps.t.cdf((mean - 0.3) / se, n - 1))
    assert tost_p(d, 0.3) == pytest.approx(expected)
    assert tost_p(d, 0.3) < 0.05 < tost_p(d, 0.1)  # a wider margin is easier to meet
    assert tost_p(np.zeros(5), 0.1) == 0.0 and tost_p(np.full(5, 0.2), 0.1) == 1.0
    assert tost_p(d[:1], 0.3) is None and tost_p(d, 0.0) is None


def test_the_margin_is_declared_on_the_metric_or_overridden() -> None:
    assert margin_for(RATING) == 0.25
    assert margin_for(RATING, 0.5) == 0.5
    assert margin_for(MetricSpec(name="x.share")) == pytest.approx(0.025)  # 2.5% of 0-1
    specs = all_specs(["judge", "trace", "ragas", "citations"])
    assert all(s.equivalence is not None for s in specs.values())  # every metric declares one
    with pytest.raises(ValueError):
        MetricSpec(name="x.bad", equivalence=0)


def test_a_tenth_of_a_point_that_is_highly_significant_is_equivalent() -> None:
    """The trial's case: every runner-up 'worse' at p ~ 1e-7 for a 0.1-point gap on a ten
    point scale. The gap is real (Wilcoxon) and far inside the margin: equivalent."""
    rng = np.random.default_rng(7)
    a = rng.normal(7, 1.5, size=200)
    b = a - 0.1 + rng.normal(0, 0.05, size=200)
    res = compare_paired(dict(enumerate(a)), dict(enumerate(b)), n_resamples=500, margin=0.25)
    assert res.wilcoxon_p < 1e-7 and res.ci_high < 0  # detectable
    assert magnitude(res.effect_size) == "negligible"
    assert verdict(res, RATING) == "equivalent"
    # without a margin that holds it, the same gap is "worse"
    narrow = compare_paired(dict(enumerate(a)), dict(enumerate(b)), n_resamples=500,
                            margin=0.05)
    assert verdict(narrow, RATING) == "worse"


def test_the_four_verdicts() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(7, 1.5, size=40)

    def judged(shift: float, noise: float, n: int = 40) -> str:
        b = a[:n] + shift + rng.normal(0, noise, size=n)
        res = compare_paired(dict(enumerate(a[:n])), dict(enumerate(b)), n_resamples=500,
                             margin=0.25)
        return verdict(res, RATING)

    assert judged(1.0, 0.5) == "better"
    assert judged(-1.0, 0.5) == "worse"
    assert judged(0.0, 0.1) == "equivalent"
    assert judged(0.0, 2.0, n=8) == "unclear"  # too few, too noisy to tell either way
    lower = MetricSpec(name="x.rate", higher_is_better=False, equivalence=0.01)
    res = compare_paired({i: 0.0 for i in range(30)}, {i: float(i % 2) for i in range(30)},
                         n_resamples=500, margin=0.01)
    assert verdict(res, lower) == "worse"  # more of a lower-is-better rate


def test_a_constant_metric_is_said_so(make_table) -> None:
    specs = {"x.flat": MetricSpec(name="x.flat"), "x.moves": MetricSpec(name="x.moves")}
    cols = {"x.flat": [0.95] * 6, "x.moves": [0.2, 0.4, 0.6, 0.3, 0.5, 0.9]}
    table = make_table(specs, cols, strategies=["bm25"] * 3 + ["dense"] * 3,
                       question_ids=["q1", "q2", "q3"] * 2)
    assert constant_across_strategies(table) == ["x.flat"]
    out = compare_strategies(table, "bm25", "dense", CompareOptions(n_resamples=200))
    flat = out.metrics["x.flat"]
    assert flat.constant and flat.diff == 0 and flat.effect_size is None
    assert flat.verdict == "equivalent" and not out.metrics["x.moves"].constant
    sections = report_sections(table, n_resamples=200)
    assert sections.constant_across_strategies == ["x.flat"]
    single = make_table(specs, cols)
    assert constant_across_strategies(single) == []
    assert report_sections(single, n_resamples=200).constant_across_strategies is None


def test_an_override_margin_reaches_the_verdict(make_table) -> None:
    specs = {"x.r": RATING}
    base = [5.0, 6.0, 7.0, 8.0, 6.0, 7.0, 5.0, 9.0] * 4
    shifted = [v + (0.4 if i % 2 else 0.2) for i, v in enumerate(base)]
    table = make_table(specs, {"x.r": base + shifted}, strategies=["a"] * 32 + ["b"] * 32,
                       question_ids=[f"q{i}" for i in range(32)] * 2)
    declared = compare_strategies(table, "a", "b", CompareOptions(n_resamples=200))
    assert declared.metrics["x.r"].margin == 0.25
    assert declared.metrics["x.r"].verdict == "better"  # 0.3 on average: beyond 0.25
    wide = compare_strategies(table, "a", "b",
                              CompareOptions(n_resamples=200, margins={"x.r": 0.5}))
    assert wide.metrics["x.r"].margin == 0.5 and wide.metrics["x.r"].verdict == "equivalent"


@pytest.mark.slow
@pytest.mark.parametrize("world", ["ratings", "normal"])
@pytest.mark.parametrize("n", [30, 200])
@pytest.mark.parametrize("edge", [MARGIN, -MARGIN])
def test_equivalence_is_claimed_falsely_at_most_alpha_of_the_time(world: str, n: int,
                                                                  edge: float) -> None:
    """At the margin's edge "equivalent" is false; TOST keeps its rate at or below alpha
    (2,000 runs: 0.05 + 4 Monte Carlo standard errors), and the 95% interval covers the
    true difference 93-97% of the time."""
    seed = {"ratings": 100, "normal": 200}[world] + n + (edge > 0)
    out = simulate(world, n, edge, seed=seed, runs=2000, n_resamples=500)
    assert out.equivalent_rate <= ALPHA + 4 * math.sqrt(ALPHA * (1 - ALPHA) / 2000), out
    assert 0.92 <= out.coverage <= 0.975, out


@pytest.mark.slow
@pytest.mark.parametrize("world", ["ratings", "normal"])
def test_equal_strategies_are_found_equivalent_given_enough_questions(world: str) -> None:
    out = simulate(world, 200, 0.0, seed=11, runs=500, n_resamples=500)
    assert out.equivalent_rate >= 0.95, out
    assert 0.92 <= out.coverage <= 0.975, out


def test_a_better_or_worse_verdict_says_a_small_effect_beside_itself() -> None:
    """Trial 73: `compare` showed "worse" beside a "negligible" effect, which read as a
    contradiction: the verdict now says the effect's size where it is negligible or
    small, in the console's cell (the dashboard's too), and stays bare where it is not."""
    from ragassay.cli.compare_cmd import _cells
    from ragassay.stats import Comparison, MetricComparison

    rng = np.random.default_rng(7)
    a = rng.normal(7, 1.5, size=200)
    b = a - 0.1 + rng.normal(0, 0.05, size=200)
    narrow = compare_paired(dict(enumerate(a)), dict(enumerate(b)), n_resamples=500,
                            margin=0.05)
    wide = compare_paired(dict(enumerate(a)), dict(enumerate(a + 1.5)), n_resamples=500,
                          margin=0.05)

    def judged(res: object, word: str) -> MetricComparison:
        return MetricComparison(**res.model_dump(), p_adjusted=res.wilcoxon_p,
                                higher_is_better=True, verdict=word)

    worse, better = judged(narrow, "worse"), judged(wide, "better")
    assert magnitude(worse.effect_size) == "negligible"
    assert worse.verdict_text == "worse (negligible effect)"
    assert magnitude(better.effect_size) == "large" and better.verdict_text == "better"
    assert judged(narrow, "equivalent").verdict_text == "equivalent"
    result = Comparison(paired_by="id", duplicates_dropped=0, alpha=0.05, paired_samples=200,
                        only_in_a=0, only_in_b=0, metrics={"x.w": worse, "x.b": better},
                        metrics_only_in_a=[], metrics_only_in_b=[])
    cells = _cells(result)
    assert "worse (negligible effect)" in cells["x.w"]["verdict"]
    assert cells["x.w"]["effect"] == "negligible"
    assert "(" not in cells["x.b"]["verdict"]
