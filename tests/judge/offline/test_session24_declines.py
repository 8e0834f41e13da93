"""Session 24: correct declines read whole (issue #38, the decline class).

Three readings: (1) a decline whose other sentences only send the user to someone (staff,
support, a desk, a phone line, the website, a manager, a named department) or are a
courtesy line stays a decline; (2) a decline that goes on to say what the sources DO
cover stays one, the topics it lists read as summary.py reads them; (3) more phrasings
of a decline, in apologetic, terse and formal styles,
with and without the topic named. A "decline" that slips in a fact the contexts lack, or
a referral carrying an invented phone number, hours or price, stays flagged. Cases in
words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.declines import is_noncommittal
from ragassay.judge.offline.referrals import is_referral
from tests.support.offline import evidence, flagged, judged

_GYM = ["The gym is open from 6am to 10pm on weekdays.",
        "Monthly membership costs £35 and includes all classes.",
        "Classes include yoga, spin and pilates."]
_VET = ["The surgery offers vaccinations, neutering and dental care for cats and dogs.",
        "Appointments can be booked online or by phone."]
_BANK = ["Savings accounts pay 3.1% interest a year.",
         "Withdrawals are free and can be made at any branch."]


# (1) a decline, then only whom to ask or a courtesy line
@pytest.mark.parametrize(("contexts", "answer"), [
    (_GYM, "I don't have information on that. Please speak to a member of staff at "
     "reception."),
    (_GYM, "I don't have any information about personal trainers. Our front desk team "
     "will be able to help."),
    (_VET, "Sorry, I can't find anything about exotic pets. For that, please call the "
     "surgery."),
    (_BANK, "I don't have information on mortgages. Please contact our mortgage team."),
    (_BANK, "I'm not able to answer that. You can reach customer support through the app."),
    (_BANK, "I'm sorry, I don't have that information. Please raise it with your account "
     "manager."),
    (_BANK, "I don't have information on that. Our phone line can help with account "
     "questions."),
    (_BANK, "The information I have doesn't cover business accounts. Please visit our "
     "website or call the helpline."),
    (_GYM, "I have no information on that, sorry. Your manager should know."),
    (_BANK, "I don't have any details on ISAs. Please get in touch with the savings "
     "department."),
    (_GYM, "I don't have information on that. Thanks for asking, and have a great day!"),
    (_VET, "I'm afraid I can't help with that one. Sorry for the inconvenience."),
    (_BANK, "I don't have information on that. For account questions, contact Customer "
     "Services."),
])
def test_decline_with_referral_or_courtesy_is_no_claim(an: Analyzer, contexts: list[str],
                                                       answer: str) -> None:
    assert not judged(an, contexts, answer)


# ... and a referral or a "courtesy" line that carries a fact the contexts lack is a claim
@pytest.mark.parametrize(("contexts", "answer"), [
    (_GYM, "I don't have information on that. Please call reception on 0161 555 0199."),
    (_GYM, "I don't have details on parking. Reception is staffed from 7am to 9pm."),
    (_GYM, "I'm not sure. Staff can arrange a personal trainer for £20 an hour."),
    (_BANK, "I don't have information on that. Please contact our mortgage team, who are "
     "available 24/7."),
    (_VET, "I don't have information about that. Our nurses offer free weight clinics "
     "every Tuesday."),
    (_BANK, "I don't have information on mortgages. Savings accounts pay 4% a year."),
    (_GYM, "I don't have information on parking, but the gym is open 24 hours a day."),
])
def test_decline_carrying_a_fact_stays_flagged(an: Analyzer, contexts: list[str],
                                               answer: str) -> None:
    assert judged(an, contexts, answer)


# (2) what the sources cover, beside a decline: every topic listed must be in the contexts
@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_GYM, "I don't have information on swimming. The documentation covers opening hours, "
     "membership and classes, but not the pool.", False),
    (_VET, "I don't know. The documents cover vaccinations, neutering and dental care, but "
     "not grooming.", False),
    (_VET, "I don't know; the documents cover vaccinations, neutering and dental care, but "
     "not grooming.", False),
    (_VET, "Sorry, I can't find anything on grooming - the information I have only covers "
     "vaccinations, neutering and dental care.", False),
    (_GYM, "I don't know whether there is parking. The info I have is about opening hours, "
     "membership and the classes on offer.", False),
    (_GYM, "I can only see details about opening hours and membership prices, so I can't "
     "say whether there's a sauna.", False),
    (_BANK, "I'm sorry, I don't have information on joint accounts. I can only see details "
     "about savings interest rates and withdrawals.", False),
    (_BANK, "I'm sorry, I don't have information on joint accounts. I can only see details "
     "about savings interest rates and cashback cards.", True),
    (_BANK, "The documents cover savings interest and withdrawals, but not overdrafts.",
     False),
    (_GYM, "There's nothing about lockers. I only have details on opening hours, prices "
     "and classes.", False),
    # a text listing what it mentions, "but nothing about" the topic
    (_BANK, "The account notes mention the 3.1% rate and free withdrawals, but nothing "
     "about overdrafts.", False),
    (_BANK, "The account notes mention the 3.5% rate and free withdrawals, but nothing "
     "about overdrafts.", True),
])
def test_what_the_sources_cover_is_checked(an: Analyzer, contexts: list[str], answer: str,
                                           flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


# (3) decline phrasings: apologetic, terse, formal; with and without the topic
_PHRASINGS = [
    "I have nothing on parking.",
    "I've got nothing about parking, sorry.",
    "That's not something I have info on, I'm afraid.",
    "I'm afraid that's beyond what I can see.",
    "I can't find that in the material provided.",
    "My sources are silent on parking.",
    "Unfortunately the documentation is silent on parking.",
    "That isn't in my notes.",
    "Sorry, it's not in the documents I was given.",
    "I wasn't given anything about parking.",
    "I haven't been given any details on parking.",
    "Nothing I have mentions parking.",
    "There's no reference to parking in the docs.",
    "Can't say - the docs don't go into it.",
    "I haven't got any info about parking.",
    "Parking isn't something I can answer from the documents.",
    "The materials provided don't touch on parking.",
    "I'm not able to find any details about parking.",
    "I'm sorry, but I can't answer that from what I have.",
    "That's outside what I was given.",
    "Not something I have details on, sorry.",
    "Good question, but I'm not sure.",
    "I don't have that information to hand.",
    "Hmm, I can't tell from the information here.",
    "The documents don't say anything about parking.",
    "Parking isn't covered in what I have.",
    "I've no idea, sorry!",
    "Regrettably, I am unable to provide information regarding parking facilities.",
    "There is no information available to me regarding parking.",
    "No details on parking, sorry.",
    "Sorry - parking isn't mentioned anywhere in my documents.",
    "I'm not seeing anything on parking.",
    "I can't help with parking, I'm afraid - it's not in the information I've been given.",
    "I don't hold any information on parking.",
    "That information isn't available to me.",
]


@pytest.mark.parametrize("answer", _PHRASINGS)
def test_decline_phrasings(an: Analyzer, answer: str) -> None:
    assert is_noncommittal(answer)
    assert not judged(an, _GYM, answer)


# near misses: the business's own statements in the same words stay claims
@pytest.mark.parametrize("sentence", [
    "We have nothing on Sundays.",
    "We don't hold any data on customers after they leave.",
    "The app is silent when notifications are off.",
    "Breakfast isn't in the room price.",
])
def test_near_miss_phrasings_are_no_decline(sentence: str) -> None:
    assert not is_noncommittal(sentence)


@pytest.mark.parametrize(("sentence", "refers"), [
    ("You can reach customer support through the app.", True),
    ("Please raise it with your account manager.", True),
    ("Our phone line can help with account questions.", True),
    ("You can reach the beach in five minutes.", False),
    ("Our product line can help you save energy.", False),
])
def test_referral_shapes(sentence: str, refers: bool) -> None:
    assert is_referral(sentence) is refers


_CAFE = ["The café serves breakfast from 8am until 11:30am.",
         "We have vegan and gluten-free cakes every day.", "Dogs are welcome on the terrace."]
_PARKING = "Do you have parking?"


@pytest.mark.parametrize(("answer", "flags"), [
    # a question echoed back, a courtesy line, an offer of more help
    ("Parking? I don't have any info on that one.", False),
    ("I'm afraid there's no information about parking. Hope that helps, and sorry I "
     "couldn't be more useful!", False),
    ("I don't have information on parking. Is there anything else I can help you with "
     "today?", False),
    # what the speaker has, listed in other frames
    ("All I have is information on breakfast times, cakes and dogs on the terrace, so I "
     "can't say about parking.", False),
    ("My information is limited to breakfast hours, cakes and dogs, so I can't answer "
     "that.", False),
    ("I'm sorry, I don't know. What I have is about breakfast, cakes and the terrace.", False),
    # whom to ask, in other words
    ("Unfortunately parking isn't mentioned. You'd be best asking a member of the café "
     "team.", False),
    ("Sorry, no idea about parking! Best to ring the café.", False),
    ("I don't have details on parking. Please check with your line manager or the "
     "facilities department.", False),
    # ... one carrying a time, or a fact beside the decline
    ("I don't know. Please ask at the till - it's open until 6pm.", True),
    ("I don't know about parking, but the café is open late on Fridays.", True),
    ("Sorry, I don't have anything on parking. The café serves lunch until 3pm though.",
     True),
    ("I can't see any parking details. There's a free car park behind the building, but "
     "please check with staff.", True),
])
def test_declines_asked_about_the_topic(an: Analyzer, answer: str, flags: bool) -> None:
    assert flagged(evidence(an, _CAFE, answer, _PARKING)) is flags


def test_an_echo_is_only_the_question_s_words(an: Analyzer) -> None:
    """ "Parking?" echoes a question about parking; asked something else, the word is the
    answer's own."""
    assert flagged(evidence(an, _CAFE, "Parking? I don't have any info on that one.",
                            "Can I bring my bike?"))


@pytest.mark.parametrize(("answer", "flags"), [
    # a claim from the contexts and a referral in one sentence
    ("I don't know about parking. I can see that dogs are welcome on the terrace, but for "
     "parking please ask the staff.", False),
    ("I don't know about parking. I can see that dogs are welcome in the dining room, but "
     "for parking please ask the staff.", True),
    ("I don't know about parking. I can see that breakfast runs until 1pm, but for parking "
     "please ask the staff.", True),
])
def test_a_claim_and_a_referral_in_one_sentence(an: Analyzer, answer: str,
                                                flags: bool) -> None:
    assert flagged(evidence(an, _CAFE, answer, _PARKING)) is flags
