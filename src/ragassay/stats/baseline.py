"""The lexical baseline a judge must beat: the share of answer words found in the evidence.

Evidence is the contexts, or the reference answers when a sample has no contexts
(answer-correctness sets such as EVOUNA). Stopwords are kept out so that "the" and
"of" don't make every answer look supported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ragassay.types import Sample

_WORD = re.compile(r"[a-z0-9]+")
_STOP = (
    "a an the of to in on at for by with and or but is are was were be been being it its this "
    "that these those as from not no do does did have has had i you he she they we his her "
    "their our your my me him them us so than then there here what which who whom whose when "
    "where why how all any each can could would should will shall may might must also very"
)
STOPWORDS = frozenset(_STOP.split())


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


def lexical_support(sample: Sample) -> float | None:
    """Share of the answer's content words that occur in the contexts (or references)."""
    words = _words(sample.answer)
    if not words:
        return None
    evidence = " ".join(sample.contexts) if sample.contexts else " ".join(sample.references)
    if not evidence.strip():
        return None
    vocab = set(_words(evidence))
    return sum(w in vocab for w in words) / len(words)


def baseline_scores(samples: Iterable[Sample]) -> dict[tuple[str, str], float]:
    """(strategy, id) -> lexical support, for samples where it is defined."""
    out = {}
    for s in samples:
        v = lexical_support(s)
        if v is not None:
            out[(s.strategy, s.id)] = v
    return out


def baseline_agreement(samples: Iterable[Sample], label: str, *, inverted: bool = False,
                       seed: int = 0, n_resamples: int = 2000) -> dict[str, Any]:
    """AUROC (with a bootstrap CI) of the lexical baseline against a boolean label."""
    from ragassay.stats.agreement import auroc, auroc_ci

    scores: list[float] = []
    truth: list[bool] = []
    for s in samples:
        value = s.labels.get(label)
        v = lexical_support(s)
        if value is None or v is None or not isinstance(value, bool | int | float):
            continue
        scores.append(1.0 - v if inverted else v)
        truth.append(bool(value))
    ci = auroc_ci(scores, truth, seed=seed, n_resamples=n_resamples) if scores else None
    return {"n": len(scores), "auroc": auroc(scores, truth) if scores else None,
            "auroc_ci": list(ci) if ci else None}


def label_values(samples: Iterable[Sample]) -> Mapping[str, int]:
    """How many samples carry each label."""
    counts: dict[str, int] = {}
    for s in samples:
        for k, v in s.labels.items():
            if v is not None:
                counts[k] = counts.get(k, 0) + 1
    return counts
