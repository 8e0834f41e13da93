"""RAGAS formulas: pure functions over judge verdicts and embeddings, no judge involved
(`share`, for faithfulness and context recall, is in `ragassay.metrics.formulas`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ragassay.metrics.formulas import unit


def average_precision(useful: Sequence[float]) -> float:
    """RAGAS context precision: sum_k (precision@k * v_k) / (number of useful chunks).

    `useful` is v_k for the chunks in rank order: 1/0, or probabilities (then
    precision@k is the expected share of useful chunks in the top k). 0 when no
    chunk is useful.
    """
    v = [unit(x) for x in useful]
    total = sum(v)
    if total <= 0:
        return 0.0
    hits = 0.0
    score = 0.0
    for k, vk in enumerate(v, start=1):
        hits += vk
        score += (hits / k) * vk
    return min(1.0, score / total)


def mean_cosine(target: np.ndarray, others: np.ndarray) -> tuple[float, list[float]]:
    """Mean cosine similarity of `others` rows to `target`, clamped to [0, 1], and each cosine.

    RAGAS answer relevancy: the generated questions against the real question. Rows
    are normalised here too, so an embedder that does not normalise still works; a
    zero row has cosine 0.
    """
    t = np.asarray(target, dtype=np.float64).reshape(-1)
    o = np.asarray(others, dtype=np.float64)
    if o.ndim != 2 or o.shape[0] == 0 or o.shape[1] != t.shape[0]:
        raise ValueError(f"embedding shapes do not match: {t.shape} vs {o.shape}")
    tn = np.linalg.norm(t)
    on = np.linalg.norm(o, axis=1)
    denom = np.where((on * tn) > 0, on * tn, 1.0)
    cos = np.where((on * tn) > 0, (o @ t) / denom, 0.0)
    cosines = [float(c) for c in cos]
    return unit(float(np.mean(cos))), cosines

