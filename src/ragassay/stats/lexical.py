"""The lexical baseline's score of a sample: the share of answer words found in the
evidence (`stats.baseline` compares a judge with it). Here, below the score table, which
reads it for each labelled row (`Row.lexical`)."""

from __future__ import annotations

from collections.abc import Sequence

from ragassay.text import tokens
from ragassay.types import Sample


def lexical_share(answer: str, evidence: str) -> float:
    """Share of the answer's words that occur in the evidence text."""
    words = tokens(answer)
    if not words:
        return 0.0
    vocab = set(tokens(evidence))
    return sum(w in vocab for w in words) / len(words)


def lexical_support(sample: Sample) -> float | None:
    """The baseline score of a sample; None when it has neither contexts nor references."""
    return lexical_score(sample.answer, sample.contexts, sample.references)


def lexical_score(answer: str, contexts: Sequence[str], references: Sequence[str]
                  ) -> float | None:
    """The baseline score of an answer against its contexts, or the best of its references
    without contexts; None with neither (`lexical_support`, and a stored run's rows:
    `report.run_table`)."""
    if contexts:
        return lexical_share(answer, " ".join(contexts))
    if references:
        return max(lexical_share(answer, r) for r in references)
    return None
