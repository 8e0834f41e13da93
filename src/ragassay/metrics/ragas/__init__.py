"""The `ragas` suite: RAGAS faithfulness, answer relevancy, context precision and context
recall from at most three judge calls per sample."""

from ragassay.metrics.ragas.formulas import average_precision, mean_cosine
from ragassay.metrics.ragas.replies import (
    CLAIMS,
    CONTEXTS,
    QUESTIONS,
    ChunkLabel,
    Claim,
    Claims,
    ContextLabels,
    Questions,
    RefLabel,
)
from ragassay.metrics.ragas.suite import (
    ClaimVerdict,
    ContextVerdict,
    Label,
    RagasSuite,
    RelevancyVerdict,
    default_embedder,
    score_answer_relevancy,
    score_contexts,
    score_faithfulness,
)

__all__ = [
    "SUITE",
    "CLAIMS", "CONTEXTS", "QUESTIONS", "ChunkLabel", "Claim", "ClaimVerdict", "Claims",
    "ContextLabels", "ContextVerdict", "Label", "Questions", "RagasSuite", "RefLabel",
    "RelevancyVerdict", "average_precision", "default_embedder", "mean_cosine",
    "score_answer_relevancy", "score_contexts", "score_faithfulness",
]

SUITE = RagasSuite
