"""Judging one answer with the offline judge's Analyzer, as its tests do."""

from __future__ import annotations

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer, Evidence
from ragassay.types import Sample


def evidence(an: Analyzer, contexts: list[str], answer: str,
             question: str = "Tell me.") -> Evidence:
    """The Evidence of one answer against its contexts."""
    return an.analyze(Sample(id="t", question=question, contexts=tuple(contexts),
                             answer=answer))


def faith(ev: Evidence) -> float:
    """The faithfulness, which the test expects to be there."""
    assert ev.faithfulness is not None
    return ev.faithfulness


def flagged(ev: Evidence) -> bool:
    """Whether the judge calls the answer a hallucination (faithfulness below its line)."""
    return ev.faithfulness is not None and ev.faithfulness < HALLUCINATION_THRESHOLD
