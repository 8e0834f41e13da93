"""Prediction-powered estimates of a human-label mean: a few labels plus every judge score.

A judge's mean over a run is a biased estimate of what people would say. Given human
labels `y` on a random subset of the run and a judge prediction `h` for every sample, an
estimate of the mean of `y` over the run's population that is unbiased whatever the
judge's bias, with a valid interval that is narrower than the labels' own whenever the
judge is informative:

* `ppi_mean`: the labelled samples are a uniform random subset. PPI++ mean estimation
  with power tuning (Angelopoulos, Duchi & Zrnic 2023, arXiv 2311.01453): the estimate is
  `lam * mean(h over the unlabelled) + mean(y - lam * h over the labelled)`, `lam` chosen
  from the data to minimise the variance and clipped to [0, 1] (0 is the labels' own mean,
  so a useless judge costs nothing but noise).
* `weighted_mean`: the labelled samples were drawn with known, unequal inclusion
  probabilities `pi` (the annotation plan's uncertainty or stratified queue): the
  inverse-probability-weighted difference estimator of active inference (Zrnic & Candes
  2024, arXiv 2403.03208), `(1/N) * sum(lam * h_i) + (1/N) * sum over labelled of
  (y_i - lam * h_i) / pi_i` with lam = 1 on calibrated predictions, and the variance of
  a fixed-size design (Hajek's approximation, centred) plus the population's own
  variance over N.
* `cross_fit`: puts a raw judge score on the label's scale with a logistic map (two
  parameters: stable with 30 labels, where an isotonic map overfitted) fitted on the
  labelled samples by K-fold cross-fitting, so that no labelled sample's prediction was
  fitted on its own label (cross-prediction-powered inference, Zrnic & Candes 2024,
  arXiv 2309.16598).

The labels-only estimate (`labels_interval`) is the labels' mean with a normal interval,
except for a yes/no label with fewer than `WALD_MIN_COUNT` labels of either value, all
alike included, where it is Clopper-Pearson's exact interval: 0 of 32 is 0.000 [0.000,
0.109], where the normal one is zero wide.

Everything works on the label's 0-1 scale; callers map grades onto it and back.
Validity is shown by simulation in tests/stats/test_ppi_coverage.py (the labels-only
interval's in tests/stats/test_labels_interval.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.stats import norm

from ragassay.stats.bootstrap import canonical_order
from ragassay.stats.routing import risk_upper_bound

FloatArray = NDArray[np.float64]

ALPHA = 0.05  # 95% intervals
FOLDS = 5  # cross-fitting folds (fewer when there are few labels)
RIDGE = 1e-3  # keeps the logistic map finite when one score separates the labels
WALD_MIN_COUNT = 5  # a yes/no label's normal interval needs n p and n (1 - p) at least this
# (the textbook rule); with fewer labels of either value it is Clopper-Pearson's


@dataclass(frozen=True)
class Interval:
    """A point estimate with its standard error and (1 - alpha) interval, clipped to 0-1."""

    estimate: float
    ci_low: float
    ci_high: float
    se: float  # the estimate's standard error (0 for labels all alike)
    exact: bool = False  # Clopper-Pearson's interval, not the normal one (`labels_interval`)

    @property
    def width(self) -> float:
        return self.ci_high - self.ci_low


@dataclass(frozen=True)
class Estimate:
    """A prediction-powered estimate, and the labels-only one it improves on."""

    corrected: Interval
    labels_only: Interval
    lam: float  # the power-tuning weight given to the judge (0: labels only)
    n_labelled: int
    n_total: int

    @property
    def gain(self) -> float | None:
        """Variance of the labels-only estimate / variance of the corrected one: how many
        times more labels the labels alone would need for the same precision; 1 where
        nothing was corrected (the corrected estimate is the labels' own)."""
        if self.corrected == self.labels_only:
            return 1.0
        if self.corrected.se <= 0:
            return None
        return (self.labels_only.se / self.corrected.se) ** 2

    @property
    def effective_labels(self) -> float | None:
        """The number of labels alone that would give the corrected estimate's precision."""
        gain = self.gain
        return None if gain is None else gain * self.n_labelled


def _arr(x: ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=np.float64).reshape(-1)


@lru_cache(maxsize=16)
def _z(alpha: float) -> float:
    return float(norm.ppf(1 - alpha / 2))


def _interval(estimate: float, se: float, alpha: float) -> Interval:
    half = _z(alpha) * se
    est = min(1.0, max(0.0, estimate))
    return Interval(est, max(0.0, estimate - half), min(1.0, estimate + half), se)


def clopper_pearson(successes: int, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The (1 - alpha) Clopper-Pearson interval of a proportion, `successes` of `n`: the
    exact one-sided bounds at alpha/2 (`routing.risk_upper_bound`), the lower one the
    upper bound of the failures read from 1."""
    if n <= 0 or not 0 <= successes <= n:
        raise ValueError(f"{successes} successes of {n} trials")
    return (1.0 - risk_upper_bound(n - successes, n, alpha / 2),
            risk_upper_bound(successes, n, alpha / 2))


def labels_interval(y: ArrayLike, alpha: float = ALPHA, *, binary: bool = False) -> Interval:
    """The labels' own estimate of their mean (labels on 0-1): the normal (Wald) interval,
    mean +- z sqrt(p (1 - p) / n); for a yes/no (`binary`) label with fewer than
    `WALD_MIN_COUNT` labels of either value, Clopper-Pearson's.

    The normal interval of a proportion undercovers when n p or n (1 - p) is small and is
    zero wide when every label agrees (0 of 32 is not "exactly 0"). Clopper-Pearson,
    rather than Wilson's score interval: its coverage is at least 1 - alpha at every n and
    p, where Wilson's dips below it near 0 and 1 (91% at n = 10, p = 0.05; Brown, Cai &
    DasGupta 2001), the very cases it is used for; its cost, width, is small there (0 of
    32: [0, 0.109] against Wilson's [0, 0.107]), and the normal interval is kept where the
    rule holds, so that figures read with it do not change.
    """
    y_ = _arr(y)
    n = len(y_)
    if n == 0:
        raise ValueError("no labelled sample")
    mean = float(y_.mean())
    se = math.sqrt(float(np.var(y_)) / n)
    if not binary:
        return _interval(mean, se, alpha)
    if np.any((y_ != 0) & (y_ != 1)):
        raise ValueError("a yes/no label's values must be 0 or 1")
    k = int(y_.sum())
    if min(k, n - k) >= WALD_MIN_COUNT:
        return _interval(mean, se, alpha)
    low, high = clopper_pearson(k, n, alpha)
    return Interval(mean, low, high, se, exact=True)


def tuned_lambda(y: ArrayLike, yhat: ArrayLike, yhat_unlabelled: ArrayLike) -> float:
    """PPI++'s variance-minimising weight for the mean, clipped to [0, 1]:
    Cov(y, yhat) over the labelled / ((1 + n/N) * Var(yhat) over all predictions)."""
    y_, h, hu = _arr(y), _arr(yhat), _arr(yhat_unlabelled)
    n, big_n = len(y_), len(hu)
    if n < 2 or big_n == 0:
        return 0.0
    cov = float(np.mean((y_ - y_.mean()) * (h - h.mean())))
    var = float(np.var(np.concatenate([h, hu]), ddof=1))
    if var <= 0:
        return 0.0
    return min(1.0, max(0.0, cov / ((1 + n / big_n) * var)))


def ppi_mean(y: ArrayLike, yhat: ArrayLike, yhat_unlabelled: ArrayLike, *,
             alpha: float = ALPHA, lam: float | None = None,
             binary: bool = False) -> Estimate:
    """PPI++ estimate of the mean of `y` (labels in 0-1 on a uniform random subset) from
    the predictions on those samples (`yhat`) and on the others (`yhat_unlabelled`).

    Variance: lam^2 Var(yhat_unlabelled)/N + Var(y - lam yhat)/n (population variances),
    a normal interval. The labels-only estimate is `labels_interval` (`binary`: a yes/no
    label). Nothing is corrected, and the estimate is the labels' own, with no unlabelled
    sample, or with a yes/no label whose labels all agree and a tuned lam: the judge
    cannot be weighed against labels that do not vary (lam is tuned to 0 and the normal
    interval is zero wide).
    """
    y_, h, hu = _arr(y), _arr(yhat), _arr(yhat_unlabelled)
    n, big_n = len(y_), len(hu)
    only = labels_interval(y_, alpha, binary=binary)
    if big_n == 0 or (binary and lam is None and float(y_.min()) == float(y_.max())):
        return Estimate(corrected=only, labels_only=only, lam=0.0, n_labelled=n,
                        n_total=n + big_n)
    if lam is None:
        lam = tuned_lambda(y_, h, hu)
    estimate = lam * float(hu.mean()) + float(np.mean(y_ - lam * h))
    var = float(np.var(y_ - lam * h)) / n + lam**2 * float(np.var(hu)) / big_n
    return Estimate(corrected=_interval(estimate, math.sqrt(var), alpha), labels_only=only,
                    lam=float(lam), n_labelled=n, n_total=n + big_n)


def _design_variance(resid: FloatArray, pi: FloatArray, big_n: int) -> float:
    """Hajek's approximation of the variance of sum(resid / pi) / N under a fixed-size
    design with inclusion probabilities pi (reduces to (1 - n/N) s^2 / n for a simple
    random sample); samples taken with certainty (pi = 1) add nothing."""
    n = len(resid)
    c = 1.0 - pi
    if n < 2 or float(c.sum()) <= 0:
        return 0.0
    e = resid / pi
    centre = float(np.sum(c * e) / c.sum())
    return float(np.sum(c * (e - centre) ** 2)) * n / (n - 1) / big_n**2


def weighted_mean(y: ArrayLike, yhat: ArrayLike, pi: ArrayLike, yhat_all: ArrayLike, *,
                  alpha: float = ALPHA, lam: float | None = None) -> Estimate:
    """Estimate of the mean of `y` (0-1) over the population the run's N samples are
    drawn from, when the labelled samples were included with probabilities `pi`.

    `yhat`: the predictions on the labelled samples; `yhat_all`: on all N samples (the
    labelled ones included). Variance: the labels' population variance / N (estimated with
    weights 1/pi) + the fixed-size design's variance of the weighted residuals.
    """
    y_, h, p, ha = _arr(y), _arr(yhat), _arr(pi), _arr(yhat_all)
    n, big_n = len(y_), len(ha)
    if n == 0:
        raise ValueError("no labelled sample")
    if np.any(p <= 0) or np.any(p > 1):
        raise ValueError("inclusion probabilities must be in (0, 1]")

    def one(weight: float) -> tuple[float, float]:
        resid = y_ - weight * h
        est = (weight * float(ha.sum()) + float(np.sum(resid / p))) / big_n
        w = 1.0 / p
        mean_y = float(np.sum(w * y_) / w.sum())
        pop_var = float(np.sum(w * (y_ - mean_y) ** 2) / w.sum())
        return est, math.sqrt(pop_var / big_n + _design_variance(resid, p, big_n))

    est, se = one(1.0 if lam is None else lam)
    only_est, only_se = one(0.0)
    return Estimate(corrected=_interval(est, se, alpha),
                    labels_only=_interval(only_est, only_se, alpha),
                    lam=1.0 if lam is None else float(lam), n_labelled=n, n_total=big_n)


def _logistic(x: FloatArray, y: FloatArray) -> tuple[float, float]:
    """Intercept and slope of P(label) = 1 / (1 + exp(-(a + b x))) fitted to labels in 0-1
    (a graded label's share of its range is fitted the same way: fractional logit), by
    Newton steps with a small ridge so that separable labels stay finite."""
    design = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(design @ beta)))
        hess = design.T @ (design * (p * (1 - p) + 1e-9)[:, None]) + RIDGE * np.eye(2)
        step = np.linalg.solve(hess, design.T @ (y - p) - RIDGE * beta)
        beta += step
        if float(np.abs(step).max()) < 1e-9:
            break
    return float(beta[0]), float(beta[1])


def _predict(coef: tuple[float, float], x: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-(coef[0] + coef[1] * x)))
    return out


def cross_fit(f_labelled: ArrayLike, y: ArrayLike, f_unlabelled: ArrayLike, *,
              folds: int = FOLDS, seed: int = 0) -> tuple[FloatArray, FloatArray]:
    """Judge scores (oriented, 0-1) put on the label's 0-1 scale by a logistic map fitted
    on the labels, by K-fold cross-fitting.

    Each labelled sample is predicted by the map fitted on the other folds; the others by
    the average of the fold maps. Returns (labelled predictions, unlabelled predictions).
    Fewer than two folds' worth of labels: the raw scores, unchanged.
    """
    f_l, y_, f_u = _arr(f_labelled), _arr(y), _arr(f_unlabelled)
    n = len(f_l)
    k = min(folds, n // 2)
    if k < 2:
        return f_l.copy(), f_u.copy()
    # Folds are dealt to the samples sorted by (score, label), so that the same values in
    # another order get the same fits (`bootstrap.canonical_order`).
    dealt = np.empty(n, dtype=np.int64)
    dealt[np.random.default_rng(seed).permutation(n)] = np.arange(n) % k
    fold = np.empty(n, dtype=np.int64)
    fold[canonical_order([f_l, y_])] = dealt
    out_l = np.empty(n)
    out_u = np.zeros(len(f_u))
    for j in range(k):
        train = fold != j
        coef = _logistic(f_l[train], y_[train])
        out_l[~train] = _predict(coef, f_l[~train])
        if len(f_u):
            out_u += _predict(coef, f_u) / k
    return out_l, out_u
