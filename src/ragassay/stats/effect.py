"""How large a paired difference is, and whether it is small enough not to matter.

- `effect_size`: Cohen's d_av, the mean difference over the average of the two sides'
  standard deviations (Lakens 2013): the gap measured against how much scores vary,
  comparable across metrics and scales. Not d_z (over the SD of the differences), which
  grows without bound as the pairs agree: a 0.1-point gap on a 0-10 scale between two
  strategies that score each question almost alike has a huge d_z and a negligible d_av.
- `margin_for`: the practical-equivalence margin of a metric, on its own scale: the one
  its spec declares (`MetricSpec.equivalence`), else `GENERIC_MARGIN` of its range.
- `tost_p`: two one-sided paired t-tests (Schuirmann's TOST) of |mean difference| <
  margin; below alpha, the difference is shown to lie within the margin (the (1 - 2
  alpha) t interval lies inside (-margin, margin)). Its error rate at the margin is
  checked by simulation in tests/stats/test_stats_equivalence.py.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats as sps

from ragassay.types import MetricSpec

GENERIC_MARGIN = 0.025
"""The margin of a metric that declares none, as a share of its range."""

MAGNITUDES = ((0.2, "negligible"), (0.5, "small"), (0.8, "medium"))
"""Cohen's conventional bounds of |d|; "large" above the last."""


def margin_for(spec: MetricSpec, override: float | None = None) -> float:
    """The practical-equivalence margin: `override`, else the spec's declared one, else
    `GENERIC_MARGIN` of the declared range."""
    if override is not None:
        return float(override)
    if spec.equivalence is not None:
        return float(spec.equivalence)
    return GENERIC_MARGIN * abs(spec.high - spec.low)


def effect_size(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float | None:
    """Cohen's d_av of b - a (paired arrays): mean difference / mean of the two sample
    standard deviations. None with fewer than two pairs, or when neither side varies."""
    if a.size < 2 or a.size != b.size or (np.ptp(a) == 0 and np.ptp(b) == 0):
        return None
    spread = (float(np.std(a, ddof=1)) + float(np.std(b, ddof=1))) / 2.0
    return float(np.mean(b - a)) / spread


def magnitude(d: float | None) -> str | None:
    """Cohen's word for |d|: negligible, small, medium or large."""
    if d is None:
        return None
    return next((word for bound, word in MAGNITUDES if abs(d) < bound), "large")


def tost_p(diffs: np.ndarray[Any, Any], margin: float) -> float | None:
    """The TOST p-value of |mean(diffs)| < margin (paired t, n - 1 degrees of freedom):
    the larger of the two one-sided p-values. Differences that do not vary are within
    the margin exactly (p = 0) or not (p = 1). None with fewer than two differences or
    no positive margin."""
    n = diffs.size
    if n < 2 or not margin > 0:
        return None
    mean = float(np.mean(diffs))
    sd = float(np.std(diffs, ddof=1))
    if sd == 0.0:
        return 0.0 if abs(mean) < margin else 1.0
    se = sd / math.sqrt(n)
    p_low = float(sps.t.sf((mean + margin) / se, n - 1))  # H0: diff <= -margin
    p_high = float(sps.t.cdf((mean - margin) / se, n - 1))  # H0: diff >= margin
    return max(p_low, p_high)
