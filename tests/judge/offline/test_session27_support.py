"""Session 27 (round 2): citations written as prose ("According to passage 1, ...",
"Source 2 says ...", "..., as mentioned in doc 1.") are markers, not claims: their number
is a passage's position, never a figure of the claim (text/prose_cites.py)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.text.markers import parse_answer
from tests.support.offline import judged


def _parsed(answer: str, n: int = 3) -> list[tuple[str, tuple[int, ...]]]:
    return [(s.text, s.cited) for s in parse_answer(answer, ["x"] * n, {}).sentences]


def test_lead_in_cites_its_own_sentence() -> None:
    got = _parsed("Kayaks are rented by the hour. According to passage 2, life vests are "
                  "included. Source 3 says that the lake closes at dusk.")
    assert got == [("Kayaks are rented by the hour.", ()),
                   ("Life vests are included.", (1,)),
                   ("The lake closes at dusk.", (2,))]


def test_tail_and_speaker_forms() -> None:
    assert _parsed("Bins are emptied on Mondays, as mentioned in document 1.") == [
        ("Bins are emptied on Mondays.", (0,))]
    assert _parsed("As doc 2 states, seedlings are sold in trays of six.") == [
        ("Seedlings are sold in trays of six.", (1,))]
    assert _parsed("Per source 1 and 3, the hall seats 80.") == [
        ("The hall seats 80.", (0, 2))]


def test_named_documents_and_mid_sentence_stay_text() -> None:
    # a named manual or form is part of the claim; a lead-in mid-sentence is not read
    for text in ("According to the manual, the filter lasts 6 months.",
                 "Form 2 says the applicant must sign.",
                 "Yes, per doc 1, the filter lasts 6 months."):
        assert _parsed(text) == [(text, ())]


@pytest.mark.parametrize("answer", [
    "According to passage 1, the bakery takes custom cake orders up to 10 days ahead.",
    "Passage 1 says the bakery takes custom cake orders up to 10 days ahead.",
    "The bakery takes custom cake orders up to 10 days ahead, according to source 1.",
])
def test_prose_marker_number_is_no_figure(an: Analyzer, answer: str) -> None:
    ctx = ["The bakery takes custom cake orders up to 10 days ahead."]
    assert not judged(an, ctx, answer)


@pytest.mark.parametrize("answer", [
    "According to passage 1, the bakery takes custom cake orders up to 3 days ahead.",
    "Passage 1 says the bakery does not take custom cake orders.",
    "The bakery takes custom cake orders up to 30 days ahead, as stated in source 1.",
])
def test_prose_marker_keeps_changed_facts_flagged(an: Analyzer, answer: str) -> None:
    ctx = ["The bakery takes custom cake orders up to 10 days ahead."]
    assert judged(an, ctx, answer)


def test_second_passage_cited_in_prose(an: Analyzer) -> None:
    ctx = ["Rowing boats seat four people.", "Hire costs $14 per boat for an hour."]
    assert not judged(an, ctx, "According to source 2, hiring a boat costs $14 for an hour.")
    assert judged(an, ctx, "According to source 2, hiring a boat costs $20 for an hour.")
