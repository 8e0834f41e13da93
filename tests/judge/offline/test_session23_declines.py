"""Session 23: correct declines read whole. A decline whose referral shares a sentence
with what the sources cover ("What I have covers X; for Y, please ask Z"): a fronted
phrase after a semicolon opens the referral's clause, and a referral may open with "but"
and a topic without a comma. Declines that go on to invent a fact, a phone number or
hours stay flagged. Limits left (strict xfails): the declined topic as the subject of the
decline ("Sadly, pet policies aren't something our pages mention"), "I have nothing on
parking", and a claim and a referral in one sentence ("I can see X, but for Y please get
in touch"), scored whole. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.pieces import clause_texts
from ragassay.judge.offline.referrals import referral_end
from tests.support.offline import judged, known_limit

_BOX = ["The theatre's box office opens at noon.",
        "Matinee tickets cost £18 for adults and £9 for children."]
_HOTEL = ["Check-in is from 3pm and check-out is by 11am.",
          "Every room has a kettle and free wifi."]
_LIB = ["Members can borrow up to eight books at a time.",
        "Loans last three weeks and can be renewed online."]
_FEST = ["The festival runs over the second weekend of July.", "Day tickets cost £45."]
_POTTERY = ["We run wheel-throwing and hand-building classes.",
            "Kiln firing is included in the class price."]
_KAYAK = ["Guided kayak trips are available for groups of up to 8 people.",
          "The estuary trip lasts about three hours."]


# (the declined topic as the decline's subject, a limit here, read since session 25:
# declines.declined_topics)



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # what the sources cover, then "; for Y, ask Z" in the same sentence (flagged before)
    (_POTTERY, "I don't have anything on glaze workshops. The classes covered here are "
     "wheel-throwing and hand-building; for glazing, please ask the studio.", False),
    (_LIB, "I couldn't find anything about an e-book service. What I have covers "
     "borrowing and renewing loans; for digital loans, please ask at the desk.", False),
    # a claim from the contexts, then "but for Y please ..." (flagged before)
    pytest.param(_KAYAK, "Sorry, I don't know: nothing here covers paddleboard hire. I can "
                 "see that guided trips run for groups of up to 8, but for paddleboards "
                 "please contact the centre.", False,
                 marks=known_limit("the claim is scored whole, its referral clause "
                                   "diluting its support (a rule reading it without the "
                                   "referral was withdrawn: it let an invented list item "
                                   "through)")),
    # the same shapes with an invented item or figure stay flagged
    (_POTTERY, "I don't have anything on glaze workshops. The classes covered here are "
     "wheel-throwing and life drawing; for glazing, please ask the studio.", True),
    (_KAYAK, "Sorry, I don't know: nothing here covers paddleboard hire. I can see that "
     "guided trips run for groups of up to 12, but for paddleboards please contact the "
     "centre.", True),
    (_LIB, "I couldn't find anything about an e-book service; for digital loans, please "
     "ring the desk on 01632 960 555.", True),
    # a referral naming the wrong person for its fronted topic is a claim, no tail
    (["Hall bookings go to the caretaker, Ian Moss.", "Our treasurer is Ruth Lane."],
     "For hall bookings, get in touch with Ruth Lane.", True),
    # the topic declined as the subject of the decline (flagged before session 25)
    pytest.param(_HOTEL, "Good question! Sadly, pet policies aren't something our pages "
                 "mention.", False),
    pytest.param(_HOTEL, "Sadly, airport transfers aren't something the information I have "
                 "covers.", False),
    # ... a subject that says something of its own stays a claim
    (_HOTEL, "Sadly, the rooftop pool that opens at 7am isn't something our pages "
     "mention.", True),
    # ... and a subject the world lacks, no text, is a claim ("isn't included")
    (_HOTEL, "Room service isn't included, but you're welcome to use the shared "
     "kitchen.", True),
    # "I have nothing on X" beside whom to ask (flagged before)
    # (mended in session 24: "I have nothing on" declines)
    (_FEST, "You'd need to check with the organisers, as I have nothing on parking.", False),
    (_FEST, "I have nothing on camping, so it's best to ask the organisers.", False),
    # ... and a decline that goes on to invent stays flagged
    (_FEST, "I have nothing on parking, but it's usually £10 a car.", True),
    (_FEST, "You'd need to check with the organisers, who are open from 8am to 8pm, as I "
     "have nothing on parking.", True),
    # what the sources mention, "but nothing about" the topic asked
    (_POTTERY, "The class details mention wheel-throwing and hand-building classes, but "
     "nothing about glaze workshops.", False),
    # ... with an item the contexts lack it stays flagged
    (_POTTERY, "The class details mention wheel-throwing and life-drawing classes, but "
     "nothing about glaze workshops.", True),
    # the lead's cases (words of our own), correct declines
    (_BOX, "I can't see a price for group bookings in our guides, so it's best to call "
     "the box office.", False),
    pytest.param(_LIB, "The late-return fee isn't listed in what I have; the front desk "
                 "can tell you.", False),
    (_FEST, "There's no mention of a student discount in the information I was given.",
     False),
    (_BOX, "I'm not sure: the documents only cover opening hours and ticket prices.",
     False),
    # ... and declines that are not
    (_FEST, "I can't confirm, but it's usually £10.", True),
    (_BOX, "I can't see a price for group bookings, so call the box office on 0161 555 "
     "0101.", True),
    # limits left: the speaker's coverage as "the details I've got are about", and a
    # conditional referral as a whole answer
    pytest.param(["The gym opens at 6am on weekdays.", "Membership costs £30 a month."],
                 "The details I've got are about opening times and membership prices, not "
                 "lockers.", False,
                 marks=known_limit("'I've got' is no frame of what the speaker was given")),
    pytest.param(_HOTEL, "If you need a late check-out, the front desk can confirm.", False,
                 marks=known_limit("a referral under a condition, alone, is scored as a "
                                   "claim")),
])
def test_declines_read_whole(an: Analyzer, contexts: list[str], answer: str,
                             flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def test_a_fronted_phrase_after_a_semicolon_opens_its_clause() -> None:
    assert clause_texts("What I have covers prices and refunds; for group rates, "
                        "please ask the office.")[-1] == (
        "for group rates please ask the office.")
    # (a comma is no such break: "framing, for weddings, and printing" stays a list)
    assert clause_texts("On Sundays, the hall is shut.") == ("On Sundays, the hall is shut.",)


def test_a_referral_after_a_conjunction_and_a_topic() -> None:
    text = "but for home repairs please get in touch with the office"
    assert referral_end(text) == len("but for home repairs please get in touch with")
    assert referral_end("but for a fee we deliver") == 0

