"""Thresholds for judge routing: fixed-sequence testing with a binomial bound (Jung et
al., "Trust or Escalate", ICLR 2025; Learn-then-Test, Angelopoulos et al. 2021).

A judge decides a sample when its confidence is at least a threshold λ. For a candidate
λ, the null hypothesis is "among samples with confidence >= λ, the judge disagrees with
people more often than alpha"; with n(λ) labelled samples above λ of which k(λ)
disagree, it is rejected when P(Binomial(n(λ), alpha) <= k(λ)) <= delta (equivalently:
the exact Clopper-Pearson upper bound on the disagreement, at level 1 - delta, is at most
alpha). The candidates are a fixed grid tested from the surest down; the first that is
not rejected stops the sequence, and the threshold is the last one rejected. Then, with
probability at least 1 - delta over the labelled samples, the judge's disagreement with
people on the samples it decides is at most alpha (the labelled samples and the ones
judged being draws from the same population). A candidate above which too few labelled
samples lie for zero disagreements to pass is skipped without spending the test: its
outcome would be known in advance. `ranking_line`: how well a tier's confidence ranks
its own errors on the labels, in the one line every surface says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict
from scipy.stats import beta, binom

from ragassay.types import RoutingSummary, TierSummary
from ragassay.types.reliability import AGREEMENT_FLOOR

GRID = np.round(np.linspace(1.0, 0.0, 1001), 3)
"""The candidate thresholds, from the surest down (confidences are probabilities)."""


class Threshold(BaseModel):
    """A judge's threshold from fixed-sequence testing: `value` None when no candidate
    could be accepted (`reason` says why); `n` labelled samples at or above it, `errors`
    of them disagreeing with people, `bound` the upper bound on the disagreement there."""

    model_config = ConfigDict(frozen=True)

    value: float | None
    n: int = 0
    errors: int = 0
    bound: float | None = None
    reason: str | None = None


def risk_upper_bound(errors: int, n: int, delta: float) -> float:
    """The exact (Clopper-Pearson) upper bound on a disagreement rate at level 1 - delta:
    the largest r with P(Binomial(n, r) <= errors) >= delta; 1 for no samples."""
    if n <= 0 or errors >= n:
        return 1.0
    return float(beta.ppf(1.0 - delta, errors + 1, n - errors))


def fewest_testable(alpha: float, delta: float) -> int:
    """The fewest samples for which zero disagreements reject "disagreement > alpha" at
    level delta: the smallest n with (1 - alpha)^n <= delta."""
    return max(1, math.ceil(math.log(delta) / math.log1p(-alpha) - 1e-9))


def fixed_sequence(confidence: Sequence[float], agrees: Sequence[bool], alpha: float,
                   delta: float, grid: np.ndarray = GRID) -> Threshold:
    """The smallest threshold on `confidence` whose decided samples' disagreement with
    people is at most `alpha` with probability at least 1 - `delta` (module docstring);
    `agrees[i]`: the judge's verdict on labelled sample i agrees with its label."""
    conf = np.asarray(confidence, dtype=float)
    ok = np.asarray(agrees, dtype=bool)
    if conf.size == 0:
        return Threshold(value=None, reason="no labelled samples reached it")
    order = np.argsort(conf)  # ascending
    sorted_conf = conf[order]
    wrong_from_top = np.cumsum((~ok[order])[::-1])  # errors among the i+1 surest
    above = conf.size - np.searchsorted(sorted_conf, grid, side="left")
    errors = np.where(above > 0, wrong_from_top[np.maximum(above - 1, 0)], 0)
    p_values = binom.cdf(errors, np.maximum(above, 1), alpha)
    testable = above >= fewest_testable(alpha, delta)
    if not testable.any():
        need = fewest_testable(alpha, delta)
        return Threshold(value=None, n=int(conf.size), errors=int((~ok).sum()),
                         reason=f"too few labels: {conf.size} labelled samples reached it, "
                         f"at least {need} are needed for agreement {1 - alpha:g} at delta "
                         f"{delta:g}")
    accepted: int | None = None
    for i in np.flatnonzero(testable):
        if p_values[i] > delta:
            break
        accepted = int(i)
    if accepted is None:
        first = int(np.flatnonzero(testable)[0])
        n, k = int(above[first]), int(errors[first])
        return Threshold(value=None, n=n, errors=k,
                         bound=risk_upper_bound(k, n, delta),
                         reason=f"never that sure: among its {n} surest labelled verdicts "
                         f"{k} disagree with people (upper bound "
                         f"{risk_upper_bound(k, n, delta):.3f} > {alpha:g})")
    n, k = int(above[accepted]), int(errors[accepted])
    return Threshold(value=float(grid[accepted]), n=n, errors=k,
                     bound=risk_upper_bound(k, n, delta))


def budget_escalated(confidence: Sequence[float | None], share: float) -> list[bool]:
    """Which samples go up when the least confident `share` of them go up (a sample with
    no confidence first; ties in input order): round(share x n) of them."""
    n = len(confidence)
    k = min(n, int(math.floor(share * n + 0.5)))
    ranked = sorted(range(n), key=lambda i: (confidence[i] is not None, confidence[i] or 0.0,
                                             i))
    up = set(ranked[:k])
    return [i in up for i in range(n)]


def ranking_line(summary: RoutingSummary, tier: TierSummary) -> str | None:
    """One line: how well the tier's confidence tells its right verdicts from its wrong
    ones on the labels, and how many samples went past it (trial 73: wrong verdicts at
    the same confidence as right ones, where routing promised to escalate the unsure):
    `tier 0 (offline) confidence ranks its own errors at AUROC 0.52 [0.40, 0.64] on 120
    labelled verdicts (31 wrong): no better than chance, so escalating its least sure
    verdicts catches its errors about at random; 96 of 240 samples (40.0%) went past it
    to meet the target agreement 0.9`; below AGREEMENT_FLOOR (the held-apart figures'
    line for weak agreement) it ranks them "weakly". None without labelled verdicts."""
    r = tier.ranking
    if r is None:
        return None
    head = f"tier {tier.tier} ({tier.judge}) confidence"
    if r.auroc is None:
        said = (f"{head}: all {r.labelled} of its labelled verdicts "
                f"{'are wrong' if r.wrong else 'agree with people'}: how well it ranks its "
                "own errors is not measured")
    else:
        ci = ("" if r.auroc_low is None or r.auroc_high is None
              else f" [{r.auroc_low:.2f}, {r.auroc_high:.2f}]")
        low = r.auroc_low if r.auroc_low is not None else r.auroc
        meaning = ("no better than chance, so escalating its least sure verdicts catches "
                   "its errors about at random" if low <= 0.5 else
                   "weakly: its least sure verdicts hold only somewhat more of its errors "
                   "than its surest" if r.auroc < AGREEMENT_FLOOR else
                   "its least sure verdicts hold most of its errors, which escalating them "
                   "catches")
        said = (f"{head} ranks its own errors at AUROC {r.auroc:.2f}{ci} on {r.labelled} "
                f"labelled verdicts ({r.wrong} wrong): {meaning}")
    last = tier.tier == len(summary.tiers) - 1
    if last and not summary.abstained or summary.mode == "single" or not summary.samples:
        return said
    past = sum(t.decided for t in summary.tiers[tier.tier + 1:]) + summary.abstained
    why = (f" to meet the target agreement {summary.agreement_target:g}"
           if summary.agreement_target is not None else " (the budget)")
    return (f"{said}; {past} of {summary.samples} samples ({past / summary.samples:.1%}) "
            f"went past it{why}")
