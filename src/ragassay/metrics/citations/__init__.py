"""The `citations` suite: citation recall, precision and fabricated markers (ALCE-style),
with a deterministic quote pass before the judge."""

from ragassay.metrics.citations.checks import FirstPass, needs_citation, offline_checks
from ragassay.metrics.citations.formulas import SentenceCheck, quotes, score_citations
from ragassay.metrics.citations.markers import (
    CitedSentence,
    Marker,
    Numbering,
    ParsedAnswer,
    numbering,
    parse_citations,
)
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
    "CHECK", "CitationLabel", "CitationLabels", "CitationsSuite", "CitedSentence",
    "FirstPass", "Marker", "Numbering", "ParsedAnswer", "SentenceCheck", "SentenceLabel",
    "llm_checks", "needs_citation", "numbering", "offline_checks", "parse",
    "parse_citations", "quotes", "score_citations",
]

SUITE = CitationsSuite
