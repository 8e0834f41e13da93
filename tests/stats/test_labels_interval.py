"""The labels' own interval of a yes/no label (`ppi.labels_interval`): Clopper-Pearson's
where the normal (Wald) one is unreliable (fewer than 5 labels of either value, all alike
included), shown to cover by simulation with a fixed seed where Wald's does not; the
normal interval kept everywhere else, so that figures read with it do not change."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binomtest

from ragassay.stats.ppi import WALD_MIN_COUNT, clopper_pearson, labels_interval, ppi_mean

DRAWS = 2000


def _coverage(n: int, p: float, *, binary: bool) -> float:
    """The share of DRAWS simulated runs of n yes/no labels (each yes with probability p)
    whose 95% labels-only interval, as the product computes it (every sample labelled:
    `ppi_mean`'s labels-only estimate), holds p."""
    rng = np.random.default_rng([7, n, round(1000 * p)])
    hits = 0
    for y in (rng.random((DRAWS, n)) < p).astype(float):
        got = ppi_mean(y, y, [], binary=binary).labels_only
        hits += got.ci_low <= p <= got.ci_high
    return hits / DRAWS


@pytest.mark.parametrize("n", [10, 30])
@pytest.mark.parametrize("p", [0.02, 0.05, 0.5])
def test_the_yes_no_interval_covers_where_the_normal_one_does_not(n: int, p: float) -> None:
    """At 95%, the yes/no label's interval holds the truth in at least 93% of the runs;
    the normal interval, zero wide on labels all alike, far less often at small p (about
    17-77% here), which is why it is not used there."""
    assert _coverage(n, p, binary=True) >= 0.93
    if p < 0.1:
        assert _coverage(n, p, binary=False) < 0.85


def test_all_alike_gives_a_real_interval() -> None:
    none = labels_interval(np.zeros(32), binary=True)
    assert (none.estimate, none.ci_low, none.exact) == (0.0, 0.0, True)
    assert none.ci_high == pytest.approx(0.109, abs=5e-4)  # the normal one: [0, 0]
    every = labels_interval(np.ones(32), binary=True)
    assert (every.ci_low, every.ci_high) == pytest.approx((1 - none.ci_high, 1.0))
    assert labels_interval(np.zeros(32)).width == 0.0  # a grade's: no such interval


@pytest.mark.parametrize("k, n", [(0, 1), (0, 32), (3, 40), (37, 40), (1, 10), (10, 10)])
def test_clopper_pearson_is_the_exact_binomial_interval(k: int, n: int) -> None:
    ref = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    assert clopper_pearson(k, n) == pytest.approx((ref.low, ref.high), abs=1e-9)


@pytest.mark.parametrize("k, n, exact", [(4, 40, True), (36, 40, True), (5, 40, False),
                                         (35, 40, False), (5, 10, False), (4, 10, True)])
def test_the_normal_interval_is_kept_where_the_rule_holds(k: int, n: int,
                                                          exact: bool) -> None:
    """n p and n (1 - p) at least WALD_MIN_COUNT: the normal interval, the same figure
    as before; fewer of either value: Clopper-Pearson's."""
    assert WALD_MIN_COUNT == 5
    y = np.array([1.0] * k + [0.0] * (n - k))
    got, wald = labels_interval(y, binary=True), labels_interval(y)
    assert got.exact is exact and not wald.exact
    assert got.estimate == wald.estimate and got.se == wald.se
    if exact:
        assert (got.ci_low, got.ci_high) == pytest.approx(clopper_pearson(k, n))
    else:
        assert got == wald


def test_a_yes_no_label_must_be_0_or_1() -> None:
    with pytest.raises(ValueError, match="must be 0 or 1"):
        labels_interval([0.0, 0.5, 1.0], binary=True)


def test_labels_all_alike_beside_unlabelled_samples_are_not_corrected() -> None:
    """PPI++ with labels that do not vary tunes the judge's weight to 0 and its interval
    to zero wide: the estimate is the labels' own, nothing corrected (gain 1). A weight
    given is still applied (the rectifier then varies with the judge)."""
    y, h, rest = np.zeros(40), np.linspace(0, 1, 40), np.full(10, 0.5)
    est = ppi_mean(y, h, rest, binary=True)
    assert est.corrected == est.labels_only and est.corrected.exact
    assert (est.lam, est.gain, est.n_total) == (0.0, 1.0, 50)
    fixed = ppi_mean(y, h, rest, binary=True, lam=1.0)
    assert fixed.lam == 1.0 and not fixed.corrected.exact and fixed.corrected.se > 0
