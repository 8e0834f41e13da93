"""Question-context relevance: embedding cosine plus the weighted coverage of the question.

A context is relevant when it is about what the question asks (cosine of their
embeddings) and contains the question's informative words (each content word of the
question weighted by its inverse frequency, a SIF weight from the packaged static
table: "naturalization" counts, "the" does not). No answer is needed (TRACe relevance
is a property of the question and the retrieved text).

    score = 0.5 * cosine + 0.5 * weighted coverage            (in about [0, 1])
    P(relevant) = sigmoid(RELEVANCE_SLOPE * (score - RELEVANCE_MIDPOINT))

The form was chosen on Factcheck-GPT's claim-passage pairs (a claim against a
relevant or an irrelevant search result); the TREC DL 2020 graded judgments, which
are research-only, are used to measure it and never to fit it (docs/judges.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .features import ContextIndex
from .lexical import STOPWORDS, stem
from .normalise import norm_tokens
from .words import word_weights

# 0.5 at the balanced cut of the claim-passage pairs (relevant vs irrelevant);
# the slope spreads their scores over most of (0, 1). Not fitted to any grade.
RELEVANCE_MIDPOINT = 0.555
RELEVANCE_SLOPE = 10.0

@dataclass(frozen=True)
class QuestionTerms:
    """The question's content words as stems, with their inverse-frequency weights."""

    stems: tuple[str, ...]
    weights: tuple[float, ...]

    @classmethod
    def of(cls, question: str) -> QuestionTerms:
        words = list(dict.fromkeys(t for t in norm_tokens(question) if t not in STOPWORDS))
        if not words:
            return cls((), ())
        return cls(tuple(stem(w) for w in words), tuple(word_weights(words)))

    def coverage(self, stems: frozenset[str]) -> float:
        """Weighted share of the question's words found among `stems` (0 without words)."""
        total = sum(self.weights)
        if total <= 0:
            return 0.0
        return sum(w for s, w in zip(self.stems, self.weights, strict=True) if s in stems) / total


def relevance_probability(cosine: float, coverage: float) -> float:
    score = 0.5 * cosine + 0.5 * coverage
    z = RELEVANCE_SLOPE * (score - RELEVANCE_MIDPOINT)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def context_relevance(doc_relevance: Sequence[float]) -> float | None:
    """The contexts as a whole: the best document and the average one, equally."""
    if not doc_relevance:
        return None
    return 0.5 * max(doc_relevance) + 0.5 * sum(doc_relevance) / len(doc_relevance)


def score_relevance(
    question: str,
    question_emb: np.ndarray,
    ctx: ContextIndex,
    doc_ids: Sequence[int],
    doc_emb: np.ndarray,
    doc_question_emb: np.ndarray,
) -> tuple[list[float], float | None]:
    """(per context sentence, contexts as a whole) relevance to the question.

    Each document is scored from its whole-text embedding (`doc_emb`, by the relevance
    embedder, against `doc_question_emb`) and its weighted coverage of the question; a
    sentence's relevance is the mean of its own score (sentence embeddings in `ctx`) and
    its document's, so a sentence in an on-topic passage counts more than the same words
    in an unrelated one."""
    terms = QuestionTerms.of(question)
    doc_rel = {
        d: relevance_probability(
            float(doc_emb[i] @ doc_question_emb), terms.coverage(ctx.doc_view(d).stems)
        )
        for i, d in enumerate(doc_ids)
    }
    sims = ctx.emb @ question_emb
    sentence = [
        0.5 * doc_rel[d] + 0.5 * relevance_probability(float(c), terms.coverage(info.stem_set))
        for info, c, d in zip(ctx.infos, sims, ctx.docs, strict=True)
    ]
    return sentence, context_relevance(list(doc_rel.values()))
