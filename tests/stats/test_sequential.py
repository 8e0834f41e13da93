"""Confidence sequences by betting: they hold the mean at every look (shown by
simulation, fixed seeds), where a classical interval looked at again and again does not;
the one-point test agrees with the interval; a fixed-size interval is not wasteful."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ragassay.stats.sequential import BettingCS, fixed_interval, spending

LOOKS = range(25, 401, 25)


def _draws(rng: np.random.Generator, kind: str, n: int) -> tuple[np.ndarray, float]:
    if kind == "beta":
        return rng.beta(2, 5, n), 2 / 7
    return (rng.random(n) < 0.3).astype(float), 0.3


def _slack(p: float, n: int) -> float:
    """What a share estimated from n runs may exceed p by (3 standard errors)."""
    return 3 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("kind", ["beta", "bernoulli"])
def test_the_sequence_holds_the_mean_at_every_look(kind: str) -> None:
    rng = np.random.default_rng(42)
    alpha, streams = 0.1, 200
    missed_cs = missed_naive = 0
    for _ in range(streams):
        x, mean = _draws(rng, kind, max(LOOKS))
        cs, done, cs_miss, naive_miss = BettingCS(alpha), 0, False, False
        for n in LOOKS:
            cs.update(x[done:n])
            done = n
            got = cs.interval()
            assert got.low is not None and got.high is not None
            cs_miss |= not got.low <= mean <= got.high
            # the classical 90% interval, looked at after every 20 values
            half = 1.645 * x[:n].std(ddof=1) / math.sqrt(n)
            naive_miss |= abs(x[:n].mean() - mean) > half
        missed_cs += cs_miss
        missed_naive += naive_miss
    assert missed_cs / streams <= alpha + _slack(alpha, streams)
    # the same looks inflate a fixed-sample interval's error far past alpha: the check
    # above can tell a sequence that holds from one that does not
    assert missed_naive / streams > 2 * alpha


@pytest.mark.parametrize("kind", ["beta", "bernoulli"])
def test_a_fixed_size_interval_covers_and_is_not_wasteful(kind: str) -> None:
    rng = np.random.default_rng(7)
    alpha, runs, n = 0.1, 300, 200
    missed, widths = 0, []
    for _ in range(runs):
        x, mean = _draws(rng, kind, n)
        got = fixed_interval(x, alpha)
        assert got.low is not None and got.high is not None and got.n == n
        missed += not got.low <= mean <= got.high
        widths.append((got.high - got.low) / (2 * 1.645 * x.std() / math.sqrt(n)))
    assert missed / runs <= alpha + _slack(alpha, runs)
    assert float(np.median(widths)) < 1.6  # within 60% of the normal approximation's width


def test_the_one_point_test_agrees_with_the_interval() -> None:
    rng = np.random.default_rng(3)
    x = rng.beta(8, 2, 300)
    cs = BettingCS(0.01, watch=((0.7, "below"), (0.9, "above")))
    cs.update(x[:100])
    cs.update(x[100:])
    got = cs.interval()
    assert got.low is not None and got.high is not None
    for m in np.linspace(0.01, 0.99, 99):
        below = cs.log_capital(float(m), "below") >= cs.threshold  # mean < m: m excluded
        above = cs.log_capital(float(m), "above") >= cs.threshold  # mean > m: m excluded
        assert below == (m > got.high), m
        assert above == (m < got.low), m
    # the watched points are kept up to date as values come, without the stored values
    plain = BettingCS(0.01)
    plain.update(x)
    assert cs.log_capital(0.7, "below") == pytest.approx(plain.log_capital(0.7, "below"))
    assert cs.log_capital(0.9, "above") == pytest.approx(plain.log_capital(0.9, "above"))


def test_the_interval_narrows_as_values_come() -> None:
    rng = np.random.default_rng(5)
    cs = BettingCS(0.05)
    widths = []
    for _ in range(5):
        cs.update(rng.beta(8, 2, 200))
        got = cs.interval()
        assert got.low is not None and got.high is not None
        widths.append(got.high - got.low)
    assert widths == sorted(widths, reverse=True)
    assert cs.n == 1000 and widths[-1] < 0.05


def test_spending_gives_away_exactly_the_budget() -> None:
    assert spending(1) == 0.5
    assert sum(spending(k) for k in range(1, 100_000)) == pytest.approx(1.0, abs=1e-4)
    with pytest.raises(ValueError):
        BettingCS(0.0)
