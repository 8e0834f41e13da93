"""The `trace` suite: RAGBench's TRACe metrics from one sentence-labelling call per sample."""

from ragassay.metrics.trace.formulas import adherence, completeness, length_share
from ragassay.metrics.trace.suite import (
    PROMPT,
    SentenceLabel,
    SentenceVerdict,
    TraceLabels,
    TraceSuite,
    TraceVerdict,
    clean_labels,
    offline_verdict,
    render_keyed,
    score_trace,
)

__all__ = [
    "SUITE",
    "PROMPT", "SentenceLabel", "SentenceVerdict", "TraceLabels", "TraceSuite", "TraceVerdict",
    "adherence", "clean_labels", "completeness", "length_share", "offline_verdict",
    "render_keyed", "score_trace",
]

SUITE = TraceSuite
