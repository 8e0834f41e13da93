"""An interval is a function of the values and the seed, not of their order: every
resampling statistic sorts its samples first (`bootstrap.canonical_order`)."""

from __future__ import annotations

import numpy as np

from ragassay.stats import agreement as ag
from ragassay.stats import ppi, raters
from ragassay.stats.bootstrap import bootstrap_ci

RNG = np.random.default_rng(3)
X = np.round(RNG.uniform(0, 1, 30), 2)
Y = np.round(X + RNG.normal(0, 0.3, 30), 1)
LAB = Y > 0.5
P = RNG.permutation(30)


def test_mean_and_paired_intervals_do_not_depend_on_the_order() -> None:
    assert bootstrap_ci(X[P], n_resamples=500) == bootstrap_ci(X, n_resamples=500)
    assert ag.auroc_ci(X[P], LAB[P], n_resamples=500) == ag.auroc_ci(X, LAB, n_resamples=500)
    assert ag.spearman_ci(X[P], Y[P], n_resamples=500) == ag.spearman_ci(X, Y,
                                                                          n_resamples=500)
    assert (ag.cohens_kappa_ci(X[P] > 0.5, LAB[P], n_resamples=500)
            == ag.cohens_kappa_ci(X > 0.5, LAB, n_resamples=500))


def test_people_agreement_intervals_do_not_depend_on_the_order() -> None:
    a, b = list((X > 0.4).astype(float)), list(LAB.astype(float))
    pa, pb = [a[i] for i in P], [b[i] for i in P]
    assert raters.kappa_ci(pa, pb, n_resamples=500) == raters.kappa_ci(a, b, n_resamples=500)
    units = [[x, y] for x, y in zip(a, b, strict=True)]
    assert (raters.alpha_ci([units[i] for i in P], n_resamples=500)
            == raters.alpha_ci(units, n_resamples=500))


def test_cross_fitting_deals_its_folds_by_value() -> None:
    y = LAB.astype(float)
    lab, rest = ppi.cross_fit(X, y, X[:5])
    lab_p, rest_p = ppi.cross_fit(X[P], y[P], X[:5])
    assert np.allclose(lab_p, lab[P]) and np.allclose(rest_p, rest)
