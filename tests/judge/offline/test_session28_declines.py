"""Session 28: declines that give what the passages do say before what they lack ("We
do run X, but I can't see anything about Y"), and declines naming the place the speaker
looked ("nothing on that in what I have", "there isn't anything about X in the
details"). The passages' own fact beside a decline is theirs; a changed figure, place
or polarity beside one stays a claim; the same words with no place looked in stay
claims."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from tests.support.offline import judged

_BOATS = ["Rowing boats can be hired on the lake from Easter to October.",
          "Each boat seats up to four people."]
_BAKERY = ["The bakery delivers bread to cafes in Harrogate.",
           "Orders close at 3pm the day before."]
_CLINIC = ["The hearing clinic offers free hearing tests.",
           "Appointments take about 40 minutes."]


@pytest.mark.parametrize("answer", [
    "Rowing boats can be hired from Easter to October, but I can't see anything about "
    "fishing from them.",
    "Each boat seats up to four people, but I don't see dogs mentioned anywhere.",
    "The bakery delivers bread to cafes in Harrogate, but I couldn't find anything about "
    "wedding cakes.",
    "We offer free hearing tests, but I can't find anything on hearing aid repairs.",
])
def test_a_passage_fact_beside_a_decline_is_not_flagged(an: Analyzer, answer: str) -> None:
    ctx = _CLINIC if "hearing" in answer else _BAKERY if "bakery" in answer else _BOATS
    assert not judged(an, ctx, answer)


@pytest.mark.parametrize("ctx, answer", [
    (_BOATS, "Each boat seats up to six people, but I don't see dogs mentioned anywhere."),
    (_BAKERY, "The bakery delivers bread to cafes in York, but I couldn't find anything "
              "about wedding cakes."),
    (_CLINIC, "We offer hearing tests for 20 pounds, but I can't find anything on hearing "
              "aid repairs."),
    (_BOATS, "I can't see anything about fishing, but boats cannot be hired in summer."),
])
def test_a_changed_fact_beside_a_decline_is_flagged(an: Analyzer, ctx: list[str],
                                                     answer: str) -> None:
    assert judged(an, ctx, answer)


@pytest.mark.parametrize("answer", [
    "Sorry, nothing on that in what I have.",
    "Nothing about fishing in the lake details, I'm afraid.",
    "There isn't anything about fishing in the boat hire info.",
    "Not covered in what I've got, sorry.",
])
def test_nothing_in_the_place_looked_is_a_decline(an: Analyzer, answer: str) -> None:
    assert is_noncommittal(answer)
    assert not judged(an, _BOATS, answer)


@pytest.mark.xfail(strict=True, reason="a bare 'here' names no texts: a venue says it of "
                   "itself ('nothing on at the weekend here' is a claim), so the place "
                   "looked in must be named (session 28's review)")
def test_nothing_on_a_topic_here_is_a_decline() -> None:
    assert is_noncommittal("There's not anything on fishing here, sorry.")


@pytest.mark.parametrize("answer", [
    "There isn't anything on at the lake in winter.",
    "Not covered.",
])
def test_the_same_words_with_no_place_looked_stay_claims(answer: str) -> None:
    assert not is_noncommittal(answer)


def test_nothing_there_plus_a_wrong_figure_is_flagged(an: Analyzer) -> None:
    assert judged(an, _BOATS, "Sorry, nothing on fishing in what I have. Each boat "
                                    "seats up to eight people.")


@pytest.mark.xfail(strict=True, reason="withdrawn in session 28: k237's 'it depends' "
                   "decline reading turned a held-out answer wrong (batch ZA)")
@pytest.mark.parametrize("answer", [
    "It may depend on the season; please ask at the boathouse.",
    "That would depend on the weather on the day.",
])
def test_it_depends_on_the_users_case_is_a_decline(an: Analyzer, answer: str) -> None:
    assert is_noncommittal(answer)
    assert not judged(an, _BOATS, answer)


def test_a_noun_subject_that_varies_stays_a_claim() -> None:
    assert not is_noncommittal("Boat prices vary by season.")


def test_it_depends_then_a_made_up_figure_is_flagged(an: Analyzer) -> None:
    assert judged(an, _BOATS, "It depends on the season, but a boat usually costs 15 pounds "
                              "an hour.")


@pytest.mark.parametrize("answer", [
    "I couldn't see fishing permits anywhere in the boat hire info, sorry.",
    "I'm not seeing fishing in the lake details.",
    "There isn't any mention of fishing in the hire info.",
])
def test_a_thing_looked_for_in_the_texts_is_the_declined_topic(an: Analyzer,
                                                               answer: str) -> None:
    assert not judged(an, _BOATS, answer)


def test_a_looked_for_topic_with_an_added_wrong_fact_is_flagged(an: Analyzer) -> None:
    assert judged(an, _BOATS, "I couldn't see fishing permits anywhere in the boat hire "
                              "info. Boats can be hired all year round.")


def test_the_best_place_with_an_adverb_is_advice(an: Analyzer) -> None:
    assert not judged(an, _BOATS, "I don't have details on fishing. The boathouse is "
                                  "probably the best place to ask.")
