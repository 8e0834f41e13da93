"""The PPI estimator against the published reference implementation's formula, and the
pieces around it (cross-fitting, the weighted design) on small worked examples."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.stats.ppi import cross_fit, ppi_mean, tuned_lambda, weighted_mean

# A worked example: 10 labelled samples with the judge's predictions, 20 unlabelled.
Y = np.array([1, 0, 1, 1, 0, 1, 0, 1, 1, 0], float)
YHAT = np.array([0.6, 0.5, 0.3, 0.8, 0.7, 0.4, 0.2, 0.9, 0.5, 0.6])
YHAT_U = np.array([0.8, 0.3, 0.6, 0.9, 0.2, 0.7, 0.5, 0.4, 0.1, 0.95, 0.65, 0.35, 0.75, 0.15,
                   0.85, 0.55, 0.45, 0.25, 0.05, 0.7])

# What ppi_py 0.2.3 (Angelopoulos et al., github.com/aangelopoulos/ppi_py) returns for this
# example: ppi_mean_pointestimate and ppi_mean_ci(alpha=0.05) with lam=None (power tuned),
# lam=1 (plain PPI) and lam=0 (the classical interval). Computed once with that package
# (not a dependency of ragassay): `ppi_mean_ci(Y, YHAT, YHAT_U, alpha=0.05, lam=lam)`.
REFERENCE = {
    None: (0.5918539325842697, 0.29131181929592975, 0.8923960458726096),
    1.0: (0.56, 0.23257747169976029, 0.8874225283002398),
    0.0: (0.6, 0.2963636851484016, 0.9036363148515983),
}


@pytest.mark.parametrize("lam", [None, 1.0, 0.0])
def test_ppi_mean_matches_the_reference_implementation(lam: float | None) -> None:
    est = ppi_mean(Y, YHAT, YHAT_U, lam=lam).corrected
    assert (est.estimate, est.ci_low, est.ci_high) == pytest.approx(REFERENCE[lam], abs=1e-12)


def test_power_tuning_by_hand() -> None:
    # PPI++: lam = Cov(Y, Yhat) / ((1 + n/N) Var(Yhat over labelled and unlabelled))
    cov = np.mean((Y - Y.mean()) * (YHAT - YHAT.mean()))
    var = np.var(np.concatenate([YHAT, YHAT_U]), ddof=1)
    assert tuned_lambda(Y, YHAT, YHAT_U) == pytest.approx(cov / ((1 + 10 / 20) * var))
    # the point estimate: lam * mean(unlabelled) + mean(Y - lam * Yhat)
    lam = tuned_lambda(Y, YHAT, YHAT_U)
    est = ppi_mean(Y, YHAT, YHAT_U).corrected.estimate
    assert est == pytest.approx(lam * YHAT_U.mean() + np.mean(Y - lam * YHAT))


def test_labels_only_is_the_classical_interval_and_gain_compares_variances() -> None:
    est = ppi_mean(Y, YHAT, YHAT_U)
    assert est.labels_only.estimate == pytest.approx(0.6)
    assert est.labels_only.ci_low == pytest.approx(REFERENCE[0.0][1])
    assert est.gain == pytest.approx((est.labels_only.se / est.corrected.se) ** 2)
    assert est.effective_labels == pytest.approx(est.gain * 10)


def test_a_negatively_related_judge_is_given_no_weight() -> None:
    est = ppi_mean(Y, 1 - Y, np.full(20, 0.5))
    assert est.lam == 0.0
    assert est.corrected.estimate == pytest.approx(Y.mean())


def test_everything_labelled_is_the_labels_mean() -> None:
    est = ppi_mean(Y, YHAT, np.array([]))
    assert est.lam == 0.0 and est.corrected.estimate == pytest.approx(0.6)


def test_intervals_stay_within_the_label_scale() -> None:
    y = np.array([1.0] * 9 + [0.0])
    est = ppi_mean(y, np.full(10, 0.9), np.full(50, 0.9)).corrected
    assert 0.0 <= est.ci_low <= est.estimate <= est.ci_high == 1.0


def test_weighted_design_with_equal_probabilities_is_the_simple_difference_estimator() -> None:
    big_n = 30
    h_all = np.concatenate([YHAT, YHAT_U])
    est = weighted_mean(Y, YHAT, np.full(10, 10 / big_n), h_all)
    # lam = 1: mean of all predictions + mean of the labelled residuals
    assert est.corrected.estimate == pytest.approx(h_all.mean() + np.mean(Y - YHAT))
    assert est.labels_only.estimate == pytest.approx(Y.mean())
    # simple random sample: (1 - n/N) s^2 / n for the residuals, plus Var(Y) / N
    resid = Y - YHAT
    var = (1 - 10 / big_n) * np.var(resid, ddof=1) / 10 + np.var(Y) / big_n
    assert est.corrected.se == pytest.approx(np.sqrt(var))


def test_weighted_design_weights_each_label_by_its_inclusion_probability() -> None:
    # two labelled samples standing for 1/0.5 and 1/0.25 samples each: y/pi sums to 2 + 0
    est = weighted_mean([1.0, 0.0], [0.0, 0.0], [0.5, 0.25], np.zeros(6), lam=0.0)
    assert est.corrected.estimate == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="inclusion probabilities"):
        weighted_mean([1.0], [0.0], [0.0], np.zeros(3))


def test_cross_fitting_predicts_each_label_without_it() -> None:
    rng = np.random.default_rng(0)
    f = rng.random(60)
    y = (f > 0.5).astype(float)
    h_lab, h_rest = cross_fit(f, y, np.array([0.1, 0.9]))
    assert h_lab.shape == (60,) and h_rest.shape == (2,)
    assert np.all((h_lab > 0) & (h_lab < 1))
    assert h_rest[0] < 0.2 < 0.8 < h_rest[1]  # the map is increasing and calibrated
    # a sample's own label never enters its prediction: flip it, the prediction stays
    y2 = y.copy()
    y2[0] = 1 - y2[0]
    h2 = cross_fit(f, y2, np.array([0.1, 0.9]))
    assert h2[0][0] == pytest.approx(h_lab[0], abs=1e-12)
    assert not np.allclose(h2[1], h_rest)  # while the maps it was fitted into moved
    # too few labels to cross-fit: the raw scores
    h, rest = cross_fit([0.2, 0.4, 0.6], [0, 1, 1], [0.5])
    assert list(h) == [0.2, 0.4, 0.6] and list(rest) == [0.5]
