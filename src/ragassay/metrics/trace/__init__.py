"""The `trace` suite: RAGBench's TRACe metrics from one sentence-labelling call per sample."""

from ragassay.metrics.trace.formulas import (
    adherence,
    adherence_ratio,
    completeness,
    length_share,
)
from ragassay.metrics.trace.suite import (
    PROMPT,
    SentenceLabel,
    TraceLabels,
    TraceSuite,
    clean_labels,
    fit_sentences,
    render_keyed,
    score_trace,
)

__all__ = [
    "PROMPT", "SentenceLabel", "TraceLabels", "TraceSuite", "adherence", "adherence_ratio",
    "clean_labels", "completeness", "fit_sentences", "length_share", "render_keyed",
    "score_trace",
]
