"""Agreement statistics between two aligned series, and the correlation matrix.

Every function returns None when the statistic is undefined (too few pairs, a
constant series, a missing class) instead of NaN. Correlations need >= 3 pairs.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats as sps

from ragassay.stats.bootstrap import FloatArray, bootstrap_stat, bootstrap_weighted
from ragassay.stats.result import Result
from ragassay.stats.table import ScoreTable

MIN_PAIRS = 3


def _arr(x: Sequence[float] | FloatArray) -> FloatArray:
    return np.asarray(x, dtype=float)


def _constant(a: FloatArray) -> bool:
    return bool(a.size == 0 or np.all(a == a[0]))


def _finite(x: Any) -> float | None:
    f = float(x)
    return f if math.isfinite(f) else None


# -- ranking agreement ----------------------------------------------------------------


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve = Mann-Whitney U / (n_pos * n_neg); ties count 0.5.

    Positive class = label True; higher score = more positive. None when a class
    is absent.
    """
    s, y = _arr(scores), np.asarray(labels, dtype=bool)
    n1 = int(y.sum())
    n0 = y.size - n1
    if n1 == 0 or n0 == 0:
        return None
    ranks = sps.rankdata(s)
    u = ranks[y].sum() - n1 * (n1 + 1) / 2
    return float(u / (n1 * n0))


class _Groups:
    """Tie groups of a series, for weighted (resample-multiplicity) rank statistics."""

    def __init__(self, x: FloatArray) -> None:
        self.order = np.argsort(x, kind="stable")
        xs = x[self.order]
        new = np.r_[True, xs[1:] != xs[:-1]]
        self.starts = np.flatnonzero(new)
        self.group = np.empty(x.size, dtype=np.intp)
        self.group[self.order] = np.cumsum(new) - 1

    def sums(self, w: NDArray[Any]) -> FloatArray:
        """(B, n) weights -> (B, groups) weight per tie group, in ascending value order."""
        return np.add.reduceat(w[:, self.order], self.starts, axis=1).astype(float)

    def midranks(self, w: NDArray[Any]) -> FloatArray:
        """(B, n) weights -> the average rank each item would get within its resample."""
        c = self.sums(w)
        ranks = np.cumsum(c, axis=1) - c + (c + 1) / 2
        return ranks[:, self.group]


def _auroc_weighted(scores: FloatArray, labels: NDArray[np.bool_]) -> Any:
    groups = _Groups(scores)

    def fn(w: NDArray[np.int64]) -> FloatArray:
        wp = np.where(labels, w, 0)
        pos, neg = groups.sums(wp), groups.sums(w - wp)
        below = np.cumsum(neg, axis=1) - neg
        numer = (pos * (below + 0.5 * neg)).sum(axis=1)
        denom = pos.sum(axis=1) * neg.sum(axis=1)
        out = np.full(numer.shape, np.nan)
        np.divide(numer, denom, out=out, where=denom > 0)
        return out

    return fn


def auroc_ci(
    scores: Sequence[float], labels: Sequence[bool], *, seed: int = 0, n_resamples: int = 2000
) -> tuple[float, float] | None:
    """Bootstrap CI of the AUROC (resamples missing a class are dropped)."""
    return bootstrap_weighted([_arr(scores), np.asarray(labels, dtype=bool)],
                              lambda a: _auroc_weighted(a[0], a[1]),
                              n_resamples=n_resamples, seed=seed)


# -- boolean decisions ----------------------------------------------------------------


def balanced_accuracy(predicted: Sequence[bool], truth: Sequence[bool]) -> float | None:
    """(TPR + TNR) / 2; None when `truth` lacks a class."""
    p, t = np.asarray(predicted, dtype=bool), np.asarray(truth, dtype=bool)
    pos, neg = int(t.sum()), int((~t).sum())
    if pos == 0 or neg == 0:
        return None
    tpr = (p & t).sum() / pos
    tnr = (~p & ~t).sum() / neg
    return float((tpr + tnr) / 2)


def _balanced_rows(cols: list[Any]) -> FloatArray:
    p, t = cols[0].astype(bool), cols[1].astype(bool)
    pos, neg = t.sum(axis=1), (~t).sum(axis=1)
    ok = (pos > 0) & (neg > 0)
    tpr = np.divide((p & t).sum(axis=1), pos, out=np.zeros(pos.shape), where=ok)
    tnr = np.divide((~p & ~t).sum(axis=1), neg, out=np.zeros(neg.shape), where=ok)
    return np.where(ok, (tpr + tnr) / 2, np.nan)


def balanced_accuracy_ci(
    predicted: Sequence[bool], truth: Sequence[bool], *, seed: int = 0, n_resamples: int = 2000
) -> tuple[float, float] | None:
    return bootstrap_stat(
        [np.asarray(predicted, dtype=float), np.asarray(truth, dtype=float)],
        _balanced_rows,
        n_resamples=n_resamples,
        seed=seed,
    )


def cohens_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa (po - pe) / (1 - pe); None when pe == 1 (both raters constant
    and identical) or when there is no pair."""
    x, y = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    n = x.size
    if n == 0:
        return None
    po = float((x == y).mean())
    px, py = float(x.mean()), float(y.mean())
    pe = px * py + (1 - px) * (1 - py)
    if math.isclose(pe, 1.0):
        return None
    return (po - pe) / (1 - pe)


def _kappa_rows(cols: list[Any]) -> FloatArray:
    x, y = cols[0].astype(bool), cols[1].astype(bool)
    po = (x == y).mean(axis=1)
    px, py = x.mean(axis=1), y.mean(axis=1)
    pe = px * py + (1 - px) * (1 - py)
    ok = ~np.isclose(pe, 1.0)
    return np.where(ok, (po - pe) / np.where(ok, 1 - pe, 1.0), np.nan)


def cohens_kappa_ci(
    a: Sequence[bool], b: Sequence[bool], *, seed: int = 0, n_resamples: int = 2000
) -> tuple[float, float] | None:
    """Bootstrap CI of Cohen's kappa (resamples where both raters are one constant
    value are dropped)."""
    return bootstrap_stat(
        [np.asarray(a, dtype=float), np.asarray(b, dtype=float)],
        _kappa_rows,
        n_resamples=n_resamples,
        seed=seed,
    )


# -- numeric agreement ----------------------------------------------------------------


def rmse(a: Sequence[float], b: Sequence[float]) -> float | None:
    x, y = _arr(a), _arr(b)
    if x.size == 0:
        return None
    return float(np.sqrt(np.mean((x - y) ** 2)))


def bias(predicted: Sequence[float], truth: Sequence[float]) -> float | None:
    """mean(predicted) - mean(truth): > 0 means the judge scores higher than humans."""
    x, y = _arr(predicted), _arr(truth)
    if x.size == 0:
        return None
    return float(x.mean() - y.mean())


def correlation(
    a: Sequence[float], b: Sequence[float], method: str = "spearman"
) -> tuple[float | None, float | None]:
    """(coefficient, p-value) for "pearson", "spearman" or "kendall" (tau-b).

    (None, None) with fewer than 3 pairs or a constant series.
    """
    x, y = _arr(a), _arr(b)
    if x.size < MIN_PAIRS or _constant(x) or _constant(y):
        return None, None
    fn = {"pearson": sps.pearsonr, "spearman": sps.spearmanr, "kendall": sps.kendalltau}[method]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = fn(x, y)
    return _finite(res.statistic), _finite(res.pvalue)


def _spearman_weighted(x: FloatArray, y: FloatArray) -> Any:
    gx, gy = _Groups(x), _Groups(y)

    def fn(w: NDArray[np.int64]) -> FloatArray:
        rx, ry = gx.midranks(w), gy.midranks(w)
        total = w.sum(axis=1, keepdims=True)
        cx = rx - (w * rx).sum(axis=1, keepdims=True) / total
        cy = ry - (w * ry).sum(axis=1, keepdims=True) / total
        denom = np.sqrt((w * cx**2).sum(axis=1) * (w * cy**2).sum(axis=1))
        out = np.full(denom.shape, np.nan)
        np.divide((w * cx * cy).sum(axis=1), denom, out=out, where=denom > 1e-9)
        return out

    return fn


def spearman_ci(
    a: Sequence[float], b: Sequence[float], *, seed: int = 0, n_resamples: int = 2000
) -> tuple[float, float] | None:
    """Paired bootstrap CI of Spearman's rho (constant resamples dropped)."""
    if len(a) < MIN_PAIRS:
        return None
    return bootstrap_weighted([_arr(a), _arr(b)], lambda xy: _spearman_weighted(xy[0], xy[1]),
                              n_resamples=n_resamples, seed=seed)


# -- correlation matrix ---------------------------------------------------------------


class CorrelationMatrix(Result):
    """Pairwise-complete correlations between metrics: `matrix[m1][m2]` (None where
    undefined) over `pairs[m1][m2]` samples scored on both."""

    method: str
    metrics: list[str]
    matrix: dict[str, dict[str, float | None]]
    pairs: dict[str, dict[str, int]]

    def value(self, a: str, b: str) -> float | None:
        return self.matrix.get(a, {}).get(b)


def correlation_matrix(table: ScoreTable, method: str = "spearman") -> CorrelationMatrix:
    """Pairwise-complete correlations between all metrics, across samples; None where
    undefined (< 3 complete pairs or a constant column in them)."""
    metrics = list(table.metrics)
    cols = {m: table.column(m) for m in metrics}
    matrix: dict[str, dict[str, float | None]] = {m: {} for m in metrics}
    pairs: dict[str, dict[str, int]] = {m: {} for m in metrics}
    for i, m1 in enumerate(metrics):
        for m2 in metrics[i:]:
            xy = [
                (x, y)
                for x, y in zip(cols[m1], cols[m2], strict=True)
                if x is not None and y is not None
            ]
            xs = [p[0] for p in xy]
            ys = [p[1] for p in xy]
            rho, _ = correlation(xs, ys, method)
            matrix[m1][m2] = matrix[m2][m1] = rho
            pairs[m1][m2] = pairs[m2][m1] = len(xy)
    return CorrelationMatrix(method=method, metrics=metrics, matrix=matrix, pairs=pairs)
