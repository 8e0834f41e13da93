"""The `citations` suite: citation recall, precision and fabricated markers (ALCE-style),
with a deterministic quote pass before the judge. The marker grammar is
`ragassay.text.markers` (shared with every suite, which reads answers without markers)."""

from ragassay.metrics.citations.checks import FirstPass, needs_citation, offline_checks
from ragassay.metrics.citations.formulas import SentenceCheck, quotes, score_citations
from ragassay.metrics.citations.suite import (
    CHECK,
    CitationLabel,
    CitationLabels,
    CitationsSuite,
    SentenceLabel,
    llm_checks,
    parse,
)

__all__ = [
    "SUITE",
    "CHECK", "CitationLabel", "CitationLabels", "CitationsSuite", "FirstPass",
    "SentenceCheck", "SentenceLabel", "llm_checks", "needs_citation", "offline_checks",
    "parse", "quotes", "score_citations",
]

SUITE = CitationsSuite
