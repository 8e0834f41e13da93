"""TRACe formulas (RAGBench): pure functions over sentence labels, no judge involved.

Every context metric is weighted by sentence length in characters, so a long
relevant sentence counts more than a short one. A label is a weight per sentence
key: 1.0 / 0.0 for the LLM judge's yes/no labels, or a probability when the
judge (the offline one) supplies one for every sentence shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ragassay.metrics.formulas import unit
from ragassay.text import KeyedSentence


def length_share(sentences: Sequence[KeyedSentence], weight: Mapping[str, float]) -> float | None:
    """sum(len(s) * w(s)) / sum(len(s)); keys without a weight count 0. None for no text.

    trace.context_relevance is this with w = relevance, trace.context_utilization
    with w = utilization.
    """
    total = sum(len(s.text) for s in sentences)
    if total == 0:
        return None
    got = sum(len(s.text) * unit(weight.get(s.key, 0.0)) for s in sentences)
    return min(1.0, got / total)


def completeness(sentences: Sequence[KeyedSentence], relevant: Mapping[str, float],
                 used: Mapping[str, float]) -> float | None:
    """Length-weighted |relevant AND used| / |relevant|: how much of what was relevant
    the answer used. With probabilities the intersection is the product r * u.
    None when no relevant length (nothing to complete).
    """
    denom = sum(len(s.text) * unit(relevant.get(s.key, 0.0)) for s in sentences)
    if denom <= 0:
        return None
    num = sum(len(s.text) * unit(relevant.get(s.key, 0.0)) * unit(used.get(s.key, 0.0))
              for s in sentences)
    return min(1.0, num / denom)


def adherence(supported: Sequence[bool], all_judged: bool, overall_supported: bool) -> float:
    """1.0 when every answer sentence is supported, else 0.0.

    Any sentence judged unsupported gives 0.0. When some sentences were not judged
    (missing from the reply) and none of the judged ones is unsupported, the judge's
    own overall_supported label decides.
    """
    if not all(supported):
        return 0.0
    if all_judged:
        return 1.0
    return 1.0 if overall_supported else 0.0
