"""Session 25 (k194): a whole-answer refusal read whole. Beside a decline, the sentences a
bot closes with claim nothing: an offer of more help ("Let me know if you have another
question"), a good wish ("Good luck with the move!"), whom to ask said as what they can do
("Our advisers can talk you through it", "The council's website should list the full
details"); and the decline itself in more shapes ("... in the details I've been given",
"Nothing I have access to mentions X", "I've had a look but can't find anything on X",
"I couldn't spot anything about X"). Sentences that go on to state a fact, a figure or a
thing on offer stay claims. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.referrals import is_referral
from ragassay.judge.offline.sign_offs import offers_more_help, signs_off, wishes_well
from tests.support.offline import assert_judged

_POTTERY = ["Wheel-throwing taster sessions last two hours and cost £45.",
            "Fired pieces are ready to collect three weeks after the session."]
_VINES = ["Vineyard tours run on Fridays and Saturdays at 11am.",
          "Each tour ends with a tasting of four estate wines."]
_KENNEL = ["Dogs must be fully vaccinated before their stay.",
           "Each kennel has a heated sleeping area and an outdoor run."]
_BUS = ["The number 7 bus runs every 15 minutes from the station to the hospital.",
        "Under-fives travel free with a paying adult."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # a decline, then an offer of more help or a good wish
    (_POTTERY, "Glazing classes aren't covered in what I have, sorry. Let me know if you "
     "have any other questions."),
    (_POTTERY, "I couldn't spot anything about gift vouchers in the information I can see. "
     "Is there anything else I can help you with?"),
    (_VINES, "I don't have details on private tours, I'm afraid. Happy to help with "
     "anything else about the vineyard."),
    (_VINES, "Nothing I have access to mentions coach parking. Enjoy your day out!"),
    (_KENNEL, "Sorry, cats aren't mentioned in the details I've been given. I hope you "
     "have a lovely holiday!"),
    (_BUS, "I've had a look but can't find anything on night buses. Safe travels!"),
    # ... or whom to ask, said as what they can do
    (_KENNEL, "Feeding arrangements aren't covered in the information I have access to. "
     "Our kennel staff would be happy to go through it with you."),
    (_BUS, "Bike spaces aren't something our timetable information goes into. The "
     "operator's website should list the full details."),
    (_POTTERY, "I'm not able to find anything about private parties. Our studio team can "
     "talk you through the options."),
])
def test_whole_refusal_not_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = assert_judged(an, contexts, answer, False)
    assert not any(ev.asserts), ev


@pytest.mark.parametrize(("contexts", "answer"), [
    # the closing line goes on to state a fact, a figure or a thing on offer
    (_POTTERY, "Glazing classes aren't covered in what I have. Happy to help with anything "
     "else - the studio is open until 9pm."),
    (_VINES, "I can't find anything about coach parking. Enjoy the free minibus from the "
     "village square!"),
    (_KENNEL, "Cats aren't mentioned in my details. Our staff can talk you through the "
     "options at no extra cost."),
    (_BUS, "I've had a look but can't find anything on night buses. Have a safe trip, and "
     "remember the last bus leaves at 11pm!"),
    # a decline, then an unsupported fact or an invented contact
    (_VINES, "Private tours aren't covered in the details I've been given. Tours last "
     "three hours."),
    (_POTTERY, "Nothing I have access to mentions gift vouchers. You can email "
     "hello@clayhouse-studio.co.uk to order one."),
    (_KENNEL, "I couldn't spot anything about cats. Cats stay for £18 a night."),
])
def test_decline_then_claim_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, True)


@pytest.mark.parametrize(("sentence", "offer", "wish"), [
    ("Let me know if you have another question.", True, False),
    ("Is there anything else I can help with?", True, False),
    ("I'm always happy to answer any other queries.", True, False),
    ("Good luck with your application!", False, True),
    ("I hope you have a great time on the river!", False, True),
    ("Enjoy your visit!", False, True),
    # near misses: no offer of more help, a thing on offer, a figure, a long clause
    ("Members can ask for anything else at the bar.", False, False),
    ("Enjoy the complimentary breakfast!", False, False),
    ("Happy to help with anything else: call 0161 555 0101.", False, False),
    ("Have a great time on the 2pm tour!", False, False),
])
def test_sign_offs(sentence: str, offer: bool, wish: bool) -> None:
    assert offers_more_help(sentence) is offer
    assert wishes_well(sentence) is wish
    assert signs_off(sentence) is (offer or wish)


@pytest.mark.parametrize(("sentence", "refers"), [
    ("Our advisers can talk you through the options.", True),
    ("The help centre should have the answer.", True),
    ("The manufacturer's website should list the full specification.", True),
    ("Our team would be happy to discuss it.", True),
    ("You can check the council's website for up-to-date details.", True),
    ("The box office will be able to sort it out for you.", True),
    # the sentence says more, or names no one to ask
    ("You can check the tyres for wear.", False),
    ("Our advisers can talk you through the options at no cost.", False),
    ("The café should have vegan cakes.", False),
    ("The monthly plan can give you more storage.", False),
])
def test_helper_can_go_through_it(sentence: str, refers: bool) -> None:
    assert is_referral(sentence) is refers


@pytest.mark.parametrize(("sentence", "declines"), [
    ("That's not covered in the details I've been given.", True),
    ("Nothing I have access to mentions a cloakroom.", True),
    ("I've had a look but can't find anything on refunds.", True),
    ("I couldn't spot anything about lockers.", True),
    ("Sorry, I don't have anything to go on there.", True),
    ("The leaflets are quiet on parking.", True),
    # near misses: no decline
    ("The reading room is quiet on weekday mornings.", False),
    ("I've been given a room upgrade.", False),
    ("I've checked the tyres and they are fine.", False),
    ("That's covered in the details I've been given.", False),
])
def test_decline_shapes(sentence: str, declines: bool) -> None:
    assert is_noncommittal(sentence) is declines
