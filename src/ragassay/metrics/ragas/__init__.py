"""The `ragas` suite: RAGAS faithfulness, answer relevancy, context precision and context
recall from at most three judge calls per sample."""

from ragassay.metrics.ragas.formulas import average_precision, is_soft, mean_cosine, share
from ragassay.metrics.ragas.suite import (
    CLAIMS,
    CONTEXTS,
    QUESTIONS,
    ChunkLabel,
    Claim,
    Claims,
    ContextLabels,
    Questions,
    RagasSuite,
    RefLabel,
    default_embedder,
    score_answer_relevancy,
    score_contexts,
    score_faithfulness,
)

__all__ = [
    "CLAIMS", "CONTEXTS", "QUESTIONS", "ChunkLabel", "Claim", "Claims", "ContextLabels",
    "Questions", "RagasSuite", "RefLabel", "average_precision", "default_embedder", "is_soft",
    "mean_cosine", "score_answer_relevancy", "score_contexts", "score_faithfulness", "share",
]
