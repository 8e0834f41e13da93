"""Agreement between people (inter-annotator reliability), pure functions: Cohen's kappa
for a pair of annotators on the samples both labelled, and Krippendorff's alpha for any
number of annotators with missing labels (`nominal`: values as categories, for yes/no
labels; `interval`: squared differences, for grades and numbers), each with a
percentile bootstrap interval over samples (fixed seed, the samples sorted by their
labels first: `bootstrap.canonical_order`).

Alpha follows Krippendorff (2011), "Computing Krippendorff's alpha-reliability":
alpha = 1 - (n - 1) * sum_u D_u / sum_{i,j} delta(x_i, x_j), over the n pairable values
(of samples with at least two labels), D_u = sum of delta over the ordered pairs of
sample u's values / (m_u - 1). Each sample's share is linear in how often a resample
draws it, so every bootstrap replicate is one matrix product. None, never NaN, when a
figure is undefined (no disagreement possible: every value alike).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ragassay.labels import lookup
from ragassay.stats.bootstrap import in_canonical_order
from ragassay.stats.result import Result

Level = Literal["nominal", "interval"]
N_RESAMPLES = 2000
CONFIDENCE = 0.95
CELLS = 4_000_000  # resample weights held at once (replicates x samples): ~32 MB
Array = NDArray[np.float64]


def level_of(label: str, values: Sequence[float]) -> Level:
    """How a label's values differ: nominal for a yes/no label (the vocabulary's, or
    one whose values are all 0/1), interval for a grade or any other number."""
    kind = lookup(label)
    if kind is not None:
        return "nominal" if kind.kind == "bool" else "interval"
    return "nominal" if all(float(v) in (0.0, 1.0) for v in values) else "interval"


def _kappa_of(joint: Array, size: int) -> Array:
    """Kappa of each row of `joint` (counts of the size x size agreement table)."""
    tables = joint.reshape(-1, size, size)
    n = tables.sum(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        po = np.trace(tables, axis1=1, axis2=2) / n
        pe = (tables.sum(axis=2) * tables.sum(axis=1)).sum(axis=1) / n ** 2
        out = (po - pe) / (1 - pe)
    return np.where(np.isclose(pe, 1.0), np.nan, out)


def _kappa_features(a: Sequence[float], b: Sequence[float]) -> tuple[Array, int]:
    cats = sorted(set(a) | set(b))
    index = {c: i for i, c in enumerate(cats)}
    feats = np.zeros((len(a), len(cats) ** 2))
    for row, (x, y) in enumerate(zip(a, b, strict=True)):
        feats[row, index[x] * len(cats) + index[y]] = 1.0
    return feats, len(cats)


def cohen_kappa(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Cohen's kappa of two annotators' labels of the same samples (aligned; values as
    categories): (p_o - p_e) / (1 - p_e). None with no sample, or when chance agreement
    is certain (both gave one and the same value throughout)."""
    if len(a) != len(b):
        raise ValueError("cohen_kappa: the two annotators' labels are not aligned")
    if not a:
        return None
    feats, size = _kappa_features(a, b)
    k = float(_kappa_of(feats.sum(axis=0, keepdims=True), size)[0])
    return None if np.isnan(k) else k


def _alpha_features(units: Sequence[Sequence[float]], level: Level
                    ) -> tuple[Array, Array, Array]:
    """Per pairable unit: its number of values m_u, its D_u, and what the expected
    disagreement sums (nominal: counts per value; interval: sum and sum of squares)."""
    kept = [np.asarray(u, dtype=float) for u in units if len(u) >= 2]
    m = np.array([len(u) for u in kept], dtype=float)
    if level == "nominal":
        cats = sorted({float(v) for u in kept for v in u})
        index = {c: i for i, c in enumerate(cats)}
        counts = np.zeros((len(kept), len(cats)))
        for row, u in enumerate(kept):
            for v in u:
                counts[row, index[float(v)]] += 1
        within = m ** 2 - (counts ** 2).sum(axis=1)
        return m, within / (m - 1), counts
    sums = np.array([[u.sum(), (u ** 2).sum()] for u in kept]).reshape(-1, 2)
    within = 2 * (m * sums[:, 1] - sums[:, 0] ** 2)
    return m, within / (m - 1), sums


def _alpha_of(w: Array, m: Array, d: Array, feats: Array, level: Level) -> Array:
    """Alpha for each row of weights `w` (how often each unit is drawn)."""
    n = w @ m
    observed = w @ d
    spread = w @ feats
    if level == "nominal":
        expected = n ** 2 - (spread ** 2).sum(axis=1)
    else:
        expected = 2 * (n * spread[:, 1] - spread[:, 0] ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 1 - (n - 1) * observed / expected
    return np.where(np.isclose(expected, 0.0, atol=1e-12), np.nan, out)


def krippendorff_alpha(units: Sequence[Sequence[float]], level: Level = "nominal"
                       ) -> float | None:
    """Krippendorff's alpha of `units` (each sample's values, one per annotator who
    labelled it; a sample with fewer than two is not pairable and left out). None with
    no pairable sample or no variation at all."""
    m, d, feats = _alpha_features(units, level)
    if not len(m):
        return None
    a = float(_alpha_of(np.ones((1, len(m))), m, d, feats, level)[0])
    return None if np.isnan(a) else a


def _interval(samples: Array, confidence: float) -> tuple[float | None, float | None]:
    """The percentile interval of the replicates that are defined (None: fewer than
    half are)."""
    ok = samples[~np.isnan(samples)]
    if ok.size < max(2, samples.size // 2):
        return None, None
    tail = (1 - confidence) / 2
    low, high = np.quantile(ok, [tail, 1 - tail])
    return float(low), float(high)


def _replicates(n: int, n_resamples: int, seed: int, stat: Callable[[Array], Array]
                ) -> Array:
    """`stat` of each bootstrap replicate of `n` samples (rows of weights: how often each
    sample is drawn), computed a block of replicates at a time so that memory stays
    bounded however many samples there are."""
    rng = np.random.default_rng(seed)
    step = max(1, CELLS // n)
    out = []
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        drawn = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        out.append(stat(np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n)
                        .astype(float)))
    return np.concatenate(out)


def kappa_ci(a: Sequence[float], b: Sequence[float], *, n_resamples: int = N_RESAMPLES,
             seed: int = 0, confidence: float = CONFIDENCE
             ) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of Cohen's kappa, resampling the samples."""
    if len(a) < 2:
        return None, None
    feats, size = _kappa_features(a, b)
    (feats,) = in_canonical_order([feats])  # the interval: of the labels, not their order
    return _interval(_replicates(len(a), n_resamples, seed,
                                 lambda w: _kappa_of(w @ feats, size)), confidence)


def alpha_ci(units: Sequence[Sequence[float]], level: Level = "nominal", *,
             n_resamples: int = N_RESAMPLES, seed: int = 0, confidence: float = CONFIDENCE
             ) -> tuple[float | None, float | None]:
    """Percentile bootstrap interval of Krippendorff's alpha, resampling the pairable
    samples (each with all its values)."""
    m, d, feats = _alpha_features(units, level)
    if len(m) < 2:
        return None, None
    m, d, feats = in_canonical_order([m, d, feats])  # of the values, not their order
    return _interval(_replicates(len(m), n_resamples, seed,
                                 lambda w: _alpha_of(w, m, d, feats, level)), confidence)


class PairKappa(Result):
    """Cohen's kappa of two annotators on the `samples` both labelled (None: not
    defined, e.g. both gave one value throughout), with its bootstrap interval."""

    first: str
    second: str
    samples: int
    kappa: float | None
    ci_low: float | None
    ci_high: float | None


class RaterAgreement(Result):
    """Agreement between the people who labelled one label: Krippendorff's alpha over
    every annotator (`level`: nominal or interval) on the `samples` at least two of them
    labelled (`values`: their labels), with its bootstrap interval over samples, and
    Cohen's kappa per pair of annotators who share samples (values as categories)."""

    label: str
    level: Level
    annotators: list[str]
    samples: int
    values: int
    alpha: float | None
    ci_low: float | None
    ci_high: float | None
    pairs: list[PairKappa]
    confidence: float = CONFIDENCE


def not_measurable(ratings: Mapping[str, Mapping[str, float]]) -> str | None:
    """Why agreement between people cannot be measured on these ratings (sample ->
    annotator -> value), or None when it can: at least two annotators labelled one
    sample."""
    people = {who for r in ratings.values() for who in r}
    if len(people) < 2:
        return ("one annotator: agreement between people not measurable" if people
                else "no labels from people: agreement between people not measurable")
    if not any(len(r) >= 2 for r in ratings.values()):
        return (f"{len(people)} annotators but no sample labelled by two: agreement "
                "between people not measurable")
    return None


def rater_agreement(label: str, ratings: Mapping[str, Mapping[str, float]], *,
                    level: Level | None = None, n_resamples: int = N_RESAMPLES,
                    seed: int = 0, confidence: float = CONFIDENCE
                    ) -> RaterAgreement | str:
    """Agreement between the annotators of `label` (`ratings`: sample -> annotator ->
    value): alpha over all of them and kappa per overlapping pair, with bootstrap
    intervals; or the one-line reason it cannot be measured (`not_measurable`)."""
    why = not_measurable(ratings)
    if why is not None:
        return why
    values = [v for r in ratings.values() for v in r.values()]
    lvl = level or level_of(label, values)
    units = [list(r.values()) for r in ratings.values()]
    people = sorted({who for r in ratings.values() for who in r})
    pairs = []
    for first, second in combinations(people, 2):
        both = [r for r in ratings.values() if first in r and second in r]
        if not both:
            continue
        a, b = [r[first] for r in both], [r[second] for r in both]
        low, high = kappa_ci(a, b, n_resamples=n_resamples, seed=seed, confidence=confidence)
        pairs.append(PairKappa(first=first, second=second, samples=len(both),
                               kappa=cohen_kappa(a, b), ci_low=low, ci_high=high))
    low, high = alpha_ci(units, lvl, n_resamples=n_resamples, seed=seed,
                         confidence=confidence)
    pairable = [u for u in units if len(u) >= 2]
    return RaterAgreement(label=label, level=lvl, annotators=people, samples=len(pairable),
                          values=sum(len(u) for u in pairable),
                          alpha=krippendorff_alpha(units, lvl), ci_low=low, ci_high=high,
                          pairs=pairs, confidence=confidence)
