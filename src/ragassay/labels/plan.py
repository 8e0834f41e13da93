"""Annotation plans: the order in which a run's samples are offered for labelling, and
the inclusion probability of each labelled sample, so that corrected estimates stay valid.

The queue is a sequential Poisson sample (Ohlsson 1998): sample i gets a uniform number
u_i from a hash of (seed, content key) and the queue is ordered by u_i / w_i, where w_i
is the plan's weight. Labelling the first n of the queue, for any n, is then a sample
drawn with inclusion probabilities close to n * w_i / sum(w) (capped at 1, the excess
shared among the rest). With equal weights (the default, `uniform`) it is exactly a
simple random sample of n: a person may stop at any point.

- `uniform`: every sample alike.
- `uncertainty`: more often where the judge is unsure, w = 0.2 + sqrt(u (1 - u)) for
  the judge's 0-1 score u of the plan's metric (an unscored sample gets the largest,
  0.7; a bool metric's 0/1 gives every sample 0.2, i.e. uniform): at most 3.5 times
  as likely as the surest sample
  (active inference, Zrnic & Candes 2024; Gligoric et al. 2025).
- `stratified`: each strategy gets an equal share of the labels, w = 1 / its size.

Skipped samples (a person could not label them) count as examined: the labels are taken
to be a random subset of the examined prefix (missing at random), and the inclusion
probabilities are scaled by the share of the prefix that was labelled.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ragassay.types import AnnotationPlan, PlanKind

PLAN_KINDS: tuple[PlanKind, ...] = ("uniform", "uncertainty", "stratified")
WEIGHT_FLOOR = 0.2  # uncertainty weights run from 0.2 (sure) to 0.7 (unsure)


def priority(seed: int, key: str) -> float:
    """A uniform number in (0, 1) from (seed, content key): the same on every machine."""
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return (int.from_bytes(digest[:8], "big") + 0.5) / 2.0**64


def weights(plan: AnnotationPlan, strategies: Sequence[str],
            scores: Sequence[float | None] | None = None) -> NDArray[np.float64]:
    """Each sample's plan weight, in the order given. `scores`: the judge's 0-1 score of
    the plan's metric per sample (needed by `uncertainty`; None where unscored)."""
    n = len(strategies)
    if plan.kind == "uniform":
        return np.ones(n)
    if plan.kind == "stratified":
        sizes = Counter(strategies)
        return np.array([1.0 / sizes[s] for s in strategies])
    if scores is None:
        raise ValueError("an uncertainty plan needs the judge's scores")
    top = WEIGHT_FLOOR + 0.5
    return np.array([top if u is None else WEIGHT_FLOOR + math.sqrt(max(0.0, u * (1 - u)))
                     for u in scores])


def queue(plan: AnnotationPlan, keys: Sequence[str], w: NDArray[np.float64]) -> list[int]:
    """Positions of the samples in the order the plan offers them (sequential Poisson)."""
    ranks = [priority(plan.seed, k) / float(w[i]) for i, k in enumerate(keys)]
    return sorted(range(len(keys)), key=lambda i: (ranks[i], keys[i]))


def inclusion(w: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """Inclusion probabilities of a sample of n drawn proportionally to `w`: n * w / sum,
    with any share above 1 set to 1 and the rest of n spread over the others."""
    big_n = len(w)
    pi = np.zeros(big_n)
    if n <= 0 or big_n == 0:
        return pi
    if n >= big_n:
        return np.ones(big_n)
    certain = np.zeros(big_n, dtype=bool)
    while True:
        left = n - int(certain.sum())
        share = w * ~certain
        pi = np.where(certain, 1.0, left * share / float(share.sum()))
        over = (pi >= 1.0) & ~certain
        if not over.any():
            return pi
        certain |= over


def labelled_probabilities(plan: AnnotationPlan, keys: Sequence[str],
                           w: NDArray[np.float64], labelled: set[str]
                           ) -> tuple[dict[str, float], int]:
    """Inclusion probability of each labelled sample (by content key) under the plan, and
    the length of the queue prefix examined (up to the last labelled sample, skips in it).

    Within the prefix the labelled samples are taken as a random subset of those examined
    (skips are non-response, missing at random), so each prefix probability is scaled by
    the share of the prefix that was labelled.
    """
    order = queue(plan, keys, w)
    position = {keys[i]: p for p, i in enumerate(order)}
    spots = [position[k] for k in labelled if k in position]
    if not spots:
        return {}, 0
    prefix = max(spots) + 1
    pi = inclusion(w, prefix) * (len(spots) / prefix)
    index: Mapping[str, int] = {k: i for i, k in enumerate(keys)}
    return {k: float(pi[index[k]]) for k in labelled if k in index}, prefix
