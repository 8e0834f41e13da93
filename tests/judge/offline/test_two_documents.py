"""Round 3 of issue #38: a claim sentence whose clauses draw on two context documents.

Support is read against the document that matches the sentence best; a clause that
document barely states, and one sentence of another document states, is read against
that sentence too (features.clause_rows). A false clause is still flagged, and a
document no clause draws on plays no part. In other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, Analyzer
from tests.support.offline import evidence as _ev
from tests.support.offline import faith as _faith

DOCS = ["Season tickets for the stadium cost 380 pounds for adults.",
        "Season ticket holders must collect their cards from the club shop before the "
        "first home game."]


def test_a_sentence_over_two_documents_is_supported(an: Analyzer) -> None:
    ev = _ev(an, DOCS, "Adult season tickets for the stadium cost 380 pounds, and holders "
                       "must collect their cards from the club shop before the first home "
                       "game.")
    assert _faith(ev) >= HALLUCINATION_THRESHOLD, ev


@pytest.mark.parametrize("answer", [
    # the second clause says what neither document says
    "Adult season tickets for the stadium cost 380 pounds, and holders must collect their "
    "cards from the ticket office after the first away game.",
    # a wrong figure in the first clause
    "Adult season tickets for the stadium cost 480 pounds, and holders must collect their "
    "cards from the club shop before the first home game.",
])
def test_a_false_clause_over_two_documents_is_still_flagged(an: Analyzer,
                                                            answer: str) -> None:
    assert _faith(_ev(an, DOCS, answer)) < HALLUCINATION_THRESHOLD


def test_a_document_no_clause_draws_on_plays_no_part(an: Analyzer) -> None:
    answer = "Adult season tickets for the stadium cost 380 pounds."
    alone = _faith(_ev(an, DOCS[:1], answer))
    other = _faith(_ev(an, [DOCS[0], "The club shop sells scarves and shirts."], answer))
    assert abs(alone - other) < 1e-9
