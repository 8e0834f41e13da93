"""Confidence sequences for the mean of bounded scores, by betting: valid at every look.

After Waudby-Smith & Ramdas, "Estimating means of bounded random variables by betting"
(JRSSB 2024). For a candidate mean m of values in [0, 1], a gambler stakes a fraction
lambda_i of her capital on each new x_i lying above m (capital K+) and another on it lying
below (K-): K+(m) = prod(1 + lambda_i (x_i - m)), K-(m) = prod(1 - lambda_i (x_i - m)).
Each lambda_i is chosen from x_1..x_{i-1} alone (predictable). If the true mean is m
(more generally: every x_i has conditional mean m given the past), both capitals are
nonnegative martingales, so by Ville's inequality the chance that either of them EVER
reaches 2/alpha is at most alpha. The m at which neither has is a (1 - alpha) confidence
sequence: an interval valid simultaneously at every time, so that watching it
continuously (or stopping when it looks interesting) inflates nothing.

lambda_i is the "predictable plug-in" of that paper, from the running mean and variance
(each started at 1/2 and 1/4): sqrt(2 log(2/alpha) / (var_{i-1} * g_i)) with g_i =
i log(1 + i) for a sequence tight at every time; a sequence that will see at most
`horizon` = n values takes g_i = min(i log(1 + i), n) (its stakes stop shrinking where no
more values will come), and `fixed` g_i = n, tightest at time n (an interval for a sample
of known size; valid before n too). Any predictable choice keeps the guarantee; these
only decide where the interval is tightest.
As in the paper the stake is capped, at CAP/m for K+ and CAP/(1 - m) for K- (so that no
bet can lose more than CAP of the capital): each factor 1 + lambda (x - m) of K+ then falls
with m, and each of K- rises, so the set is an interval whose ends are found by
bisection, and a test at one point (`log_capital`: is the mean below m?) agrees with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ragassay.stats.result import Result

CAP = 0.75
"""The stake's cap, as a share of what one bet can lose: 1 +- lambda (x - m) >= 1 - CAP."""

FloatArray = NDArray[np.float64]
Side = Literal["above", "below"]
"""K+ ("above": the evidence that the mean is above m) or K- ("below")."""


class StreamInterval(Result):
    """A mean of values on 0-1 with its confidence-sequence interval at level
    1 - `alpha` over `n` values (`low`/`high` None with no value)."""

    mean: float | None = None
    low: float | None = None
    high: float | None = None
    n: int = 0
    alpha: float


@dataclass(frozen=True)
class Step:
    """New values prepared for a `BettingCS`: their stakes, the running sums after each,
    and the watched capitals' logs after each (len(watch), n)."""

    x: FloatArray
    lam: FloatArray
    total: FloatArray
    sq: FloatArray
    capitals: FloatArray


class BettingCS:
    """A running confidence sequence for the mean of values in [0, 1] at level 1 - alpha.

    `update` takes new values (a batch at a time); `interval()` is the sequence at the
    current time; `log_capital(m, side)` is log K+(m) ("above") or log K-(m) ("below"),
    kept up to date cheaply for the (m, side) pairs named in `watch`. The values and stakes are
    kept (at most `limit`, past which `update` refuses), since the interval's ends need
    them: a tracker lives for a bounded number of values.
    """

    def __init__(self, alpha: float, *, horizon: int | None = None, fixed: bool = False,
                 watch: tuple[tuple[float, Side], ...] = (), limit: int = 1_000_000
                 ) -> None:
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), not {alpha}")
        self.alpha = alpha
        self.horizon = horizon
        self.fixed = fixed
        self.limit = limit
        self._log_bound = math.log(2 / alpha)
        self._n = 0
        self._sum = 0.0
        self._sq = 0.0  # sum of (x_i - mu_i)^2, the running variance's numerator
        self._x: list[FloatArray] = []
        self._lam: list[FloatArray] = []
        self._watch = dict.fromkeys(watch, 0.0)  # (m, side) -> log K(m) of that side

    @property
    def n(self) -> int:
        return self._n

    @property
    def threshold(self) -> float:
        """log(2 / alpha): a capital at or above it excludes its m."""
        return self._log_bound

    def update(self, values: ArrayLike) -> FloatArray:
        """Take the next values (in [0, 1]), in order. Returns the watched capitals' logs
        after each of them: shape (len(watch), len(values))."""
        step = self.prepare(values)
        self.commit(step)
        return step.capitals

    def prepare(self, values: ArrayLike) -> Step:
        """What taking `values` would do (stakes, moments, the watched capitals after
        each), without taking them: `commit` takes all of it or a prefix."""
        x = _unit(values)
        if not x.size:
            return Step(x, x, x, x, np.zeros((len(self._watch), 0)))
        i = self._n + np.arange(1, x.size + 1, dtype=np.float64)
        total = self._sum + np.cumsum(x)
        sq = self._sq + np.cumsum((x - (0.5 + total) / (i + 1)) ** 2)
        var_before = np.empty_like(x)
        var_before[0] = (0.25 + self._sq) / (self._n + 1)
        var_before[1:] = ((0.25 + sq) / (i + 1))[:-1]
        if self.fixed and self.horizon:
            scale = var_before * self.horizon
        else:
            growth = i * np.log1p(i)
            scale = var_before * (np.minimum(growth, self.horizon) if self.horizon else growth)
        lam = np.sqrt(2 * self._log_bound / np.maximum(scale, 1e-12))  # capped per m
        caps = np.empty((len(self._watch), x.size))
        for k, ((m, side), now) in enumerate(self._watch.items()):
            caps[k] = now + np.cumsum(_log_factors(x, lam, m, 1.0 if side == "above" else -1.0))
        return Step(x, lam, total, sq, caps)

    def commit(self, step: Step, count: int | None = None) -> None:
        """Take the first `count` values of a prepared step (all by default)."""
        k = step.x.size if count is None else count
        if not k:
            return
        if self._n + k > self.limit:
            raise ValueError(f"a BettingCS holds at most {self.limit} values")
        self._n += k
        self._sum, self._sq = float(step.total[k - 1]), float(step.sq[k - 1])
        self._x.append(step.x[:k])
        self._lam.append(step.lam[:k])
        for j, key in enumerate(self._watch):
            self._watch[key] = float(step.capitals[j, k - 1])

    @property
    def watched(self) -> tuple[tuple[float, Side], ...]:
        return tuple(self._watch)

    def log_capital(self, m: float, side: Side) -> float:
        """log K+(m) (side "above": evidence the mean is above m) or log K-(m) ("below")."""
        if (m, side) in self._watch:
            return self._watch[(m, side)]
        x, lam = self._arrays()
        return float(_log_factors(x, lam, m, 1.0 if side == "above" else -1.0).sum())

    def _arrays(self) -> tuple[FloatArray, FloatArray]:
        if len(self._x) > 1:
            self._x, self._lam = [np.concatenate(self._x)], [np.concatenate(self._lam)]
        if not self._x:
            return np.zeros(0), np.zeros(0)
        return self._x[0], self._lam[0]

    def mean(self) -> float | None:
        return self._sum / self._n if self._n else None

    def interval(self) -> StreamInterval:
        """The confidence sequence now: [low, high] holds the mean at every time with
        probability >= 1 - alpha. Ends are rounded outwards (bisection to 1e-6)."""
        if not self._n:
            return StreamInterval(alpha=self.alpha)
        x, lam = self._arrays()
        low = _end(x, lam, self._log_bound, side=1.0)
        high = _end(x, lam, self._log_bound, side=-1.0)
        return StreamInterval(mean=self.mean(), low=low, high=high, n=self._n,
                              alpha=self.alpha)


def _unit(values: ArrayLike) -> FloatArray:
    return np.clip(np.asarray(values, dtype=np.float64).ravel(), 0.0, 1.0)


def _log_factors(x: FloatArray, lam: FloatArray, m: float | FloatArray, side: float
                 ) -> FloatArray:
    """log(1 + side * lambda (x - m)) with lambda capped at CAP/m (side +1, K+) or
    CAP/(1 - m) (side -1, K-); with an array of m, one column per m."""
    if not isinstance(m, np.ndarray):
        room = m if side > 0 else 1.0 - m
        stake = np.minimum(lam, CAP / room) if room > 0 else lam
        return np.log1p(side * stake * (x - m))
    rooms = m if side > 0 else 1.0 - m
    cap = CAP / np.maximum(rooms, 1e-300)
    stakes = np.minimum(lam[:, None], cap[None, :])
    return np.log1p(side * stakes * (x[:, None] - m[None, :]))


def _end(x: FloatArray, lam: FloatArray, bound: float, side: float) -> float:
    """The interval's end on one side. side +1: the lowest m whose K+(m) stays below the
    bound (K+ falls with m); side -1: the highest m whose K-(m) does (K- rises with m)."""

    def capital(m: FloatArray) -> FloatArray:
        return _log_factors(x, lam, m, side).sum(axis=0)

    lo, hi = 0.0, 1.0
    # excluded: m with capital >= bound. side +1 excludes small m, side -1 large m.
    if side > 0 and capital(np.array([0.0]))[0] < bound:
        return 0.0
    if side < 0 and capital(np.array([1.0]))[0] < bound:
        return 1.0
    for _ in range(4):  # 4 rounds of 32 sections: resolution 32**-4 ~ 1e-6
        grid = np.linspace(lo, hi, 33)
        out = capital(grid) >= bound
        if side > 0:  # out is True then False: the last excluded point
            k = int(np.argmin(out)) - 1 if not out.all() else 31
            lo, hi = float(grid[max(k, 0)]), float(grid[max(k, 0) + 1])
        else:  # out is False then True: the first excluded point
            k = int(np.argmax(out)) if out.any() else 32
            lo, hi = float(grid[max(k - 1, 0)]), float(grid[max(k, 1)])
    return lo if side > 0 else hi


def fixed_interval(values: ArrayLike, alpha: float) -> StreamInterval:
    """A (1 - alpha) interval for the mean of a sample of known size (a baseline): the
    betting sequence with its stakes tuned to that size (`horizon`), read at its end."""
    x = np.asarray(values, dtype=np.float64).ravel()
    cs = BettingCS(alpha, horizon=max(int(x.size), 1), fixed=True,
                   limit=max(int(x.size), 1))
    cs.update(x)
    return cs.interval()


def spending(k: int) -> float:
    """The share of a false-alarm budget given to the k-th test of an unending series
    (k = 1, 2, ...): 1 / (k (k + 1)), which sums to exactly 1."""
    return 1.0 / (k * (k + 1))
