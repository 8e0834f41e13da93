"""Judging one answer with the offline judge's Analyzer, as its tests do."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer, Evidence
from ragassay.judge.offline.sentences import ContextIndex, sentence_info
from ragassay.judge.offline.units import Units
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


ANY_KIND = "*"
"""`assert_judged`'s kind when the test does not check what alignment found."""


def assert_judged(an: Analyzer, contexts: list[str], answer: str, flags: bool,
                  kind: str | None = ANY_KIND, question: str = "Tell me.") -> Evidence:
    """Judge one answer and check the verdict: flagged as a hallucination exactly when
    `flags`, and (unless ANY_KIND) its one claim's alignment kind is `kind` (None: the
    claim contradicts nothing). The Evidence is returned for further checks."""
    ev = evidence(an, contexts, answer, question)
    assert flagged(ev) is flags, ev
    if kind != ANY_KIND:
        assert ev.contradicts == [kind], ev
    return ev


def judged(an: Analyzer, contexts: list[str], answer: str) -> bool:
    """Whether the judge flags the answer (the reviews' one-line check)."""
    return flagged(evidence(an, contexts, answer))


def known_limit(reason: str) -> pytest.MarkDecorator:
    """A case the judge still gets wrong, said so: strict, so mending it shows."""
    return pytest.mark.xfail(strict=True, reason=reason)


def units_of(contexts: list[str]) -> Units:
    """The alignment units of context sentences, one passage each (no embeddings), for
    tests that call one alignment rule directly."""
    infos = [sentence_info(s) for s in contexts]
    return Units.of(ContextIndex(infos, np.zeros((len(infos), 2)), list(range(len(infos)))))
