"""Percentile bootstrap: definition, determinism, degenerate sizes."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.stats.bootstrap import bootstrap_ci, bootstrap_stat, nanmean_rows


def test_matches_the_percentile_definition() -> None:
    values = np.array([0.1, 0.4, 0.35, 0.8, 0.6])
    rng = np.random.default_rng(3)
    idx = rng.integers(0, values.size, size=(500, values.size), dtype=np.int32)
    means = np.sort(values)[idx].mean(axis=1)  # the samples are resampled in sorted order
    expected = tuple(np.percentile(means, [2.5, 97.5]))
    assert bootstrap_ci(values, n_resamples=500, seed=3) == pytest.approx(expected)


def test_two_point_hand_case() -> None:
    # resampled means of {0, 1} are 0, 0.5, 1 with probability 1/4, 1/2, 1/4
    assert bootstrap_ci([0.0, 1.0], n_resamples=2000) == (0.0, 1.0)
    # the 30th and 70th percentiles both fall on 0.5
    assert bootstrap_ci([0.0, 1.0], n_resamples=2000, confidence=0.4) == (0.5, 0.5)


def test_seeded_and_deterministic() -> None:
    v = list(np.linspace(0, 1, 30) ** 2)
    a = bootstrap_ci(v, n_resamples=300, seed=1)
    assert a == bootstrap_ci(v, n_resamples=300, seed=1)
    assert a != bootstrap_ci(v, n_resamples=300, seed=2)


def test_degenerate_sizes_and_other_stat() -> None:
    assert bootstrap_ci([]) is None
    assert bootstrap_ci([0.7]) == (0.7, 0.7)
    assert bootstrap_ci([2.0, 2.0, 2.0], n_resamples=100) == (2.0, 2.0)
    lo, hi = bootstrap_ci([1.0, 2.0, 3.0, 100.0], stat=np.median, n_resamples=300)
    assert 1.0 <= lo <= hi <= 100.0


def test_undefined_resamples_are_dropped() -> None:
    # statistic undefined everywhere -> no interval
    assert bootstrap_stat([np.ones(4)], lambda xs: np.full(len(xs[0]), np.nan)) is None


def test_nanmean_rows() -> None:
    m = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    out = nanmean_rows(m)
    assert out[0] == 2.0 and np.isnan(out[1])
