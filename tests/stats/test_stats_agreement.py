"""Agreement statistics against hand-computed values."""

from __future__ import annotations

import math

import pytest

from ragassay.stats import agreement as ag


def test_auroc_with_ties() -> None:
    # pairs (pos, neg): 0.4>0.1, 0.4=0.4 (0.5), 0.8>0.1, 0.8>0.4 -> 3.5 / 4
    assert ag.auroc([0.1, 0.4, 0.4, 0.8], [False, False, True, True]) == 0.875


def test_auroc_perfect_inverse_and_undefined() -> None:
    assert ag.auroc([1, 2, 3, 4], [False, False, True, True]) == 1.0
    assert ag.auroc([4, 3, 2, 1], [False, False, True, True]) == 0.0
    assert ag.auroc([0.2, 0.3], [True, True]) is None
    assert ag.auroc([], []) is None


def test_auroc_ci_brackets_and_is_seeded() -> None:
    scores = [0.1, 0.2, 0.3, 0.35, 0.5, 0.55, 0.6, 0.8, 0.85, 0.9]
    labels = [False, False, True, False, False, True, True, False, True, True]
    est = ag.auroc(scores, labels)
    ci = ag.auroc_ci(scores, labels, n_resamples=300)
    assert ci is not None and ci[0] <= est <= ci[1]
    assert ci == ag.auroc_ci(scores, labels, n_resamples=300)


def test_balanced_accuracy_and_kappa() -> None:
    # TPR 2/3, TNR 1/2
    assert ag.balanced_accuracy([1, 1, 0, 0, 1], [1, 1, 1, 0, 0]) == pytest.approx(7 / 12)
    assert ag.balanced_accuracy([1, 0], [1, 1]) is None
    # po = 4/6, pe = 0.5*0.5 + 0.5*0.5 = 0.5 -> (2/3 - 1/2) / (1/2) = 1/3
    assert ag.cohens_kappa([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 1]) == pytest.approx(1 / 3)
    assert ag.cohens_kappa([1, 0, 1], [1, 0, 1]) == pytest.approx(1.0)
    assert ag.cohens_kappa([1, 1], [1, 1]) is None  # pe = 1: undefined
    ci = ag.balanced_accuracy_ci([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 1], n_resamples=200)
    assert ci is not None and 0.0 <= ci[0] <= ci[1] <= 1.0


def test_rmse_and_bias() -> None:
    assert ag.rmse([0, 1, 0.5], [0, 0.5, 0.5]) == pytest.approx(math.sqrt(0.25 / 3))
    assert ag.bias([0, 1, 0.5], [0, 0.5, 0.5]) == pytest.approx(0.5 - 1 / 3)
    assert ag.rmse([], []) is None and ag.bias([], []) is None


def test_correlations_hand_case() -> None:
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    # rank differences -1, 1, -1, 1, 0: rho = 1 - 6*4 / (5*24) = 0.8
    rho, p = ag.correlation(x, y, "spearman")
    assert rho == pytest.approx(0.8) and 0 < p < 1
    # 8 concordant, 2 discordant pairs: tau = 6/10
    tau, p_tau = ag.correlation(x, y, "kendall")
    assert tau == pytest.approx(0.6)
    assert p_tau == pytest.approx(0.2333333, abs=1e-6)  # exact permutation p-value
    r, _ = ag.correlation(x, y, "pearson")
    assert r == pytest.approx(0.8)  # the data are ranks already


def test_correlation_undefined_cases() -> None:
    assert ag.correlation([1, 2], [2, 1]) == (None, None)
    assert ag.correlation([1, 1, 1], [1, 2, 3]) == (None, None)
    assert ag.spearman_ci([1, 2], [1, 2]) is None


def test_kendall_tau_b_with_ties() -> None:
    # one tie in y: (2 - 0) / sqrt(3 * 2)
    tau, _ = ag.correlation([0, 1, 0.5], [0, 0.5, 0.5], "kendall")
    assert tau == pytest.approx(2 / math.sqrt(6))


def test_correlation_matrix(make_table) -> None:
    from ragassay.types import MetricSpec

    specs = {m: MetricSpec(name=m, low=0, high=10) for m in ("x.a", "x.b", "x.c", "x.d")}
    t = make_table(
        specs,
        {
            "x.a": [1, 2, 3, 4, 5],
            "x.b": [2, 1, 4, 3, 5],
            "x.c": [1, 1, 1, 1, 1],
            "x.d": [1, None, None, None, 2],
        },
    )
    cm = ag.correlation_matrix(t)
    assert cm.method == "spearman" and cm.metrics == ["x.a", "x.b", "x.c", "x.d"]
    assert cm.value("x.a", "x.b") == pytest.approx(0.8)
    assert cm.value("x.b", "x.a") == cm.value("x.a", "x.b")
    assert cm.value("x.a", "x.a") == pytest.approx(1.0)
    assert cm.value("x.a", "x.c") is None  # constant column
    assert cm.value("x.a", "x.d") is None and cm.pairs["x.a"]["x.d"] == 2  # < 3 pairs


def test_weighted_bootstrap_matches_naive_per_resample_statistics() -> None:
    import numpy as np

    from ragassay.stats.bootstrap import in_canonical_order, index_chunks, percentile_interval

    rng = np.random.default_rng(7)
    x = np.round(rng.uniform(0, 1, 25), 1)  # rounding creates ties
    y = np.round(x + rng.normal(0, 0.3, 25), 1)
    lab = y > 0.5
    xa, la = in_canonical_order([x, lab])  # each interval resamples its samples sorted
    xs, ys = in_canonical_order([x, y])
    aucs, rhos = [], []
    for idx in index_chunks(25, 300, 0):
        for row in idx:
            auc, rho = ag.auroc(xa[row], la[row]), ag.correlation(xs[row], ys[row])[0]
            aucs.append(np.nan if auc is None else auc)
            rhos.append(np.nan if rho is None else rho)
    assert ag.auroc_ci(x, lab, n_resamples=300) == pytest.approx(
        percentile_interval(np.array(aucs), 0.95)
    )
    assert ag.spearman_ci(x, y, n_resamples=300) == pytest.approx(
        percentile_interval(np.array(rhos), 0.95)
    )
