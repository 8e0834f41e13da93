"""Session 28 (round 3): correct declines wrapped in small talk ("Oh, nice question!"
beside "I don't have details on X"), declines said in idiom ("a gap in my notes", "I'm
drawing a blank") and declines naming what the assistant itself cannot do ("I can't
assess that from here"). Each claims nothing; the same openings that go on to state a
fact, a decline beside an invented fact or a wrong figure, and the business's own
practice ("we can't ...") stay claims."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.small_talk import small_talk
from tests.support.offline import judged

_GARDEN = ["The garden centre opens at 9am and closes at 5pm.",
           "Compost bags cost 6 pounds each."]
_BOILER = ["Our engineers service gas boilers in Bristol.",
           "A service visit costs 80 pounds."]
_GALLERY = ["The gallery is free to enter.", "Guided tours run at 2pm on Saturdays."]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("sentence", [
    "Oh, nice question!", "Hmm, tough one.", "Haha!", "I really like that question.",
    "I wish I knew!", "Aw, I'd love to help.", "Now there's a question!",
])
def test_small_talk_is_read(sentence: str) -> None:
    assert small_talk(sentence)


@pytest.mark.parametrize("sentence", [
    "Oh, nice question - yes, tours are free!", "Good one, we open at 8am.",
    "Ha, the gallery is free.", "I like the Saturday tours.",
])
def test_small_talk_that_says_more_is_not(sentence: str) -> None:
    assert not small_talk(sentence)


@pytest.mark.parametrize("answer", [
    "Oh, nice question! Sadly I don't have anything about hanging baskets.",
    "Hmm, tough one. I'm not sure whether we sell hanging baskets, sorry.",
    "Haha, I wish I knew! I don't have details on hanging baskets, I'm afraid.",
    "Ooh, not sure about hanging baskets, sorry! The shop floor staff can help.",
    "That's a gap in my notes, sorry.",
    "I'm drawing a blank on hanging baskets, I'm afraid.",
    "You've got me there - I don't have anything on hanging baskets.",
    "Not one I can answer, sorry.",
])
def test_wrapped_and_idiom_declines_not_flagged(an: Analyzer, answer: str) -> None:
    assert not judged(an, _GARDEN, answer)


@pytest.mark.parametrize("answer", [
    "Oh, nice question! I don't have anything on hanging baskets, but compost costs 9 "
    "pounds a bag.",
    "That's a gap in my notes - though the centre does sell hanging baskets for 12 pounds.",
    "I'm drawing a blank there, but we open at 8am.",
    "Ha, yes - hanging baskets are half price on Mondays!",
])
def test_wrapped_decline_with_claim_flagged(an: Analyzer, answer: str) -> None:
    assert judged(an, _GARDEN, answer)


def test_true_fact_beside_wrapped_decline_kept(an: Analyzer) -> None:
    assert not judged(an, _GARDEN, "Hmm, tough one! I don't have anything on hanging "
                                   "baskets, but compost bags cost 6 pounds each.")


@pytest.mark.parametrize("answer", [
    "I can't assess that fault from here, I'm afraid. Please book a service visit.",
    "I'm unable to look into your appointment, sorry. Our engineers can look it up.",
])
def test_what_the_assistant_cannot_do_not_flagged(an: Analyzer, answer: str) -> None:
    assert not judged(an, _BOILER, answer)


@pytest.mark.parametrize("answer", [
    "I can't assess that fault from here, but it sounds like a faulty pump.",
    "I can't assess that from here, but a service visit costs 60 pounds.",
])
def test_cannot_do_with_claim_flagged(an: Analyzer, answer: str) -> None:
    assert judged(an, _BOILER, answer)


@pytest.mark.parametrize("sentence", [
    "We can't diagnose faults remotely.", "There's a gap in the fence by the car park.",
    "The tour draws a big crowd.",
])
def test_business_practice_and_things_are_no_decline(sentence: str) -> None:
    assert not is_noncommittal(sentence)


def test_small_talk_alone_with_fact_flagged(an: Analyzer) -> None:
    assert judged(an, _GALLERY, "Ooh, great question - tours run every day at 11am!")
