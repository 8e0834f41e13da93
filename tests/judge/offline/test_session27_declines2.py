"""Session 27, round 2: a decline followed by a second sentence or clause, read by its
structure. A referral to a generic outside party or an action of finding out is advice;
what the speaker says they do have is a description of the sources, checked against
them; a referral naming a party the contexts tie to another topic, and a short fact
added beside the decline, stay claims."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.offered import offered_items
from tests.support.offline import evidence, flagged, judged

_CHOIR = ["Choir rehearsals are on Thursday evenings in the church hall.",
          "Membership costs 40 pounds a term."]
_STALLS = ["Market stalls cost 25 pounds a day.", "Gazebos can be hired for 10 pounds."]
_POOL = ["Lane swimming costs 4 pounds a session.", "Swim caps are sold at reception."]
_DESKS = ["Replacement keys are issued by the Porters' Lodge.",
          "Gym inductions are booked through the Sports Centre."]


@pytest.mark.parametrize("answer", [
    "I'm afraid I can't give advice on vocal strain. Your GP or a speech therapist would "
    "be the best people to ask.",
    "I don't have anything about insurance for singers. An insurance broker can sort that "
    "out for you.",
    "I don't have the concert dates to hand. Please check the website before you travel.",
    "Sorry, I don't have information on sheet music. A local music shop should be able to "
    "help.",
])
def test_decline_then_generic_referral_is_not_flagged(an: Analyzer, answer: str) -> None:
    assert not judged(an, _CHOIR, answer)


@pytest.mark.parametrize("answer", [
    "I don't have information about electricity at the stalls. What I do have covers "
    "stall prices and gazebo hire.",
    "I can't find anything on electricity. I do have the stall prices and gazebo hire if "
    "that helps.",
    "Nothing about electricity in what I have. I can tell you about market stalls and "
    "gazebos.",
    "Sorry, I don't know about electricity. I can help with questions about stalls and "
    "gazebo hire.",
])
def test_decline_then_what_the_sources_cover_is_not_flagged(an: Analyzer,
                                                            answer: str) -> None:
    assert not judged(an, _STALLS, answer)


@pytest.mark.parametrize("answer", [
    # what the speaker says they have, never named by the passages
    "I don't have information about electricity. What I do have covers awning repairs "
    "and van parking.",
    "I can't find anything on electricity. I can tell you about our craft workshops.",
])
def test_offered_list_the_contexts_never_name_is_flagged(an: Analyzer, answer: str) -> None:
    assert judged(an, _STALLS, answer)


def test_offer_frame_needs_the_speaker_holding_or_telling() -> None:
    assert offered_items("What I do have covers stall prices.") == "stall prices."
    assert offered_items("I can tell you that stalls are free.") is None
    assert offered_items("We do have gazebos.") is None  # (the business: a claim)


@pytest.mark.parametrize("answer", [
    "I don't have details on diving, but swim caps are free for members.",
    "I'm not sure about diving, but we also run aqua aerobics.",
    "Sorry, I don't have information on diving, but divers swim free on Sundays.",
])
def test_decline_with_a_short_added_fact_is_flagged(an: Analyzer, answer: str) -> None:
    assert judged(an, _POOL, answer)


@pytest.mark.parametrize("answer", [
    "I don't have details on diving, but swim caps are sold at reception.",
    "I'm not sure about diving, but it's worth asking at reception.",
    "I don't know about diving, but I hope that helps.",
])
def test_decline_with_a_stated_fact_or_a_pointer_is_not_flagged(an: Analyzer,
                                                                answer: str) -> None:
    assert not judged(an, _POOL, answer)


_KEYS_Q = "Who do I ask about a replacement key?"


@pytest.mark.parametrize("answer", [
    "I don't have details on that. Please contact the Sports Centre.",
    "I'm not sure, but the Sports Centre can help with that.",
])
def test_decline_then_the_wrong_tied_party_is_flagged(an: Analyzer, answer: str) -> None:
    ev = evidence(an, _DESKS, answer, _KEYS_Q)
    assert flagged(ev) and "entity" in ev.contradicts


@pytest.mark.parametrize("answer", [
    "I don't have details on that. Please contact the Porters' Lodge.",
    "I'm not sure, sorry. Your landlord may be able to help.",
])
def test_decline_then_the_right_or_a_generic_party_is_not_flagged(an: Analyzer,
                                                                  answer: str) -> None:
    assert not flagged(evidence(an, _DESKS, answer, _KEYS_Q))


def test_speaker_without_a_text_to_hand_declines() -> None:
    assert is_noncommittal("I don't have the timetable to hand.")
    assert not is_noncommittal("I don't have to hand it in.")
