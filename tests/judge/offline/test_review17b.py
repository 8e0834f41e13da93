"""Review 17b of a372911..5207b41 (session 17's later offline-judge changes: dropped
exceptions, "you can X" against "X-ing is not permitted", permitted/prohibited antonyms,
asks_user / worked.py / size mendings). Each finding as a test of the right behaviour.
Mended after it: the antonym pairs withdrawn (F1), a clause's exception only from the
clause that is one (F2), a time-bound denial and `same_verb`'s prefix (F3), the clock a
span counts from and a range of minutes (F4), a count times a length (F5); what is left
is xfail(strict=True) with its reason. Wording is the reviewer's own (help-centre style)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged

_SENTENCE = ("known limit: a claim is checked sentence by sentence, so an exception the "
             "answer states in another sentence is not read with it")
_OFFERS = ("an offer or referral question naming more than OFFER_WORDS / REFERRAL_WORDS "
           "things of its own, or with a clause of its own, is a claim (review 17's F1, F2)")


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


def _xf(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=reason)


# --- F1 (high): "not allowed" / "banned", "not banned" / "allowed", "not prohibited" /
# "permitted": the new antonym pairs fire with a negation on one side, where the two
# cancel (docs/judges.md: "both cancel"). Faithful answers flagged (0.08).
@pytest.mark.parametrize(("contexts", "answer"), [
    (["Dogs are not allowed on the main beach."], "Dogs are banned from the main beach."),
    (["Dogs are not banned from the park; they must be kept on a lead."],
     "Dogs are allowed in the park on a lead."),
    (["Photography is not prohibited in the church, but flash is not allowed."],
     "Photography is permitted in the church."),
    (["Dogs are banned from the main beach."], "Dogs are not allowed on the main beach."),
    (["Smoking is forbidden anywhere on the site."],
     "Smoking is not permitted anywhere on the site."),
])
def test_f1_negated_antonym_agrees(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not flagged(evidence(an, contexts, answer, "Can I?"))


# --- F2 (high): drops_exception reads only the claim's own sentence, and the clause
# after the unit even when the exception there is another subject's.
@pytest.mark.parametrize(("contexts", "answer"), [
    pytest.param(["Photography is allowed in all galleries except the Print Room."],
                 "Photography is allowed in all galleries. The only exception is the Print "
                 "Room.", marks=_xf(_SENTENCE)),
    pytest.param(["Photography is allowed in all galleries except the Print Room."],
                 "Photography is allowed in all galleries. You cannot take photos in the "
                 "Print Room, though.", marks=_xf(_SENTENCE)),
    (["The pool is open every day, and the gym is open every day except Sunday."],
     "The pool is open every day."),
    (["Photography is allowed in all galleries except the Print Room."],
     "With the exception of the Print Room, photography is allowed in all galleries."),
    (["Photography is allowed in all galleries except the Print Room."],
     "Photography is allowed in all galleries, not including the Print Room."),
])
def test_f2_exception_kept_or_not_the_claims(an: Analyzer, contexts: list[str],
                                             answer: str) -> None:
    assert not flagged(evidence(an, contexts, answer, "Can I?"))


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Lockers are free in all changing rooms except the family changing room."],
     "Lockers are free in all changing rooms."),
    (["Refunds are available on all tickets other than sale tickets."],
     "Refunds are available on all tickets."),
])
def test_f2_control_dropped_exception_is_flagged(an: Analyzer, contexts: list[str],
                                                 answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, "Can I?"))


# --- F3 (high): "you can X" against "X-ing is not permitted ... before 6pm": the
# time of the denial is matched as one of its words, the claim's other time ignored.
@pytest.mark.parametrize(("contexts", "answer"), [
    (["Parking is not permitted on the street before 6pm."],
     "You can park on the street after 6pm."),
    (["Parking is not permitted on the street during school hours."],
     "You can park on the street outside school hours."),
    (["Swimming is not allowed in the quarry lake. You can swim in the outdoor pool."],
     "You can swim in the outdoor pool."),
])
def test_f3_allowed_at_another_time(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert not flagged(evidence(an, contexts, answer, "Can I park?"))


@pytest.mark.parametrize(("a", "b"), [
    ("singing", "single"), ("dining", "dinner"),
    pytest.param("training", "trainer", marks=_xf(
        "known limit: one 5-letter stem ('train'), as every check reads words")),
])
def test_f3_same_verb_prefix_is_no_verb(a: str, b: str) -> None:
    """same_verb's prefix match: "singing" is not "single", "dining" not "dinner"."""
    from ragassay.judge.offline.denial import same_verb

    assert same_verb("swimming", "swim") and same_verb("parking", "park")
    assert not same_verb(a, b)


# --- F4 (high): worked.py counts from the wrong clock: an event matched by a 4-letter
# prefix in another sentence ("closing" / "The car park closes at 6pm"), and "later" from
# the sentence before even when it is not the time the span is from.
_GALLERY = ["Last entry is 30 minutes before closing. The gallery is open 10am to 5pm. "
            "The car park closes at 6pm."]
_CHECKOUT = ["Check-out is at 11am. Breakfast is served until 10am. Late check-out is two "
             "hours later."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_GALLERY, "Last entry is 30 minutes before the gallery closes at 5pm.", False),
    pytest.param(_GALLERY, "Last entry is at 5:30pm.", True, marks=_xf(
        "known limit (at dbad969 too): a time's digits are evidence where the passage "
        "has them, here 5pm's 5 and 30 minutes' 30")),
    (_CHECKOUT, "Late check-out is until 12pm.", True),
    (["The museum opens at 10am and the café opens an hour later."],
     "The café opens at 10am.", True),
    (["The museum opens at 10am and the café opens an hour later."],
     "The café opens at 11am.", False),
])
def test_f4_worked_time_counts_from_the_right_clock(an: Analyzer, contexts: list[str],
                                                    answer: str, flags: bool) -> None:
    assert flagged(evidence(an, contexts, answer, "When?")) is flags


def test_f4_a_range_of_minutes_is_no_exact_span() -> None:
    """"30-45 minutes before the 7pm start" reads as exactly 45 minutes ("(at 6:15)"),
    so "Please arrive by 6:15pm" passes and "at 6:30pm" is flagged."""
    from ragassay.judge.offline.worked import with_worked_times

    out = with_worked_times(["Please arrive 30-45 minutes before the 7pm start."], [0])
    assert "(at 6:15)" not in out[0]


# --- F5 (medium): the size rule reads a count times a length as a size.
@pytest.mark.parametrize(("contexts", "answer"), [
    (["The main pool has six 25m lanes."], "The main pool has 6 x 25m lanes."),
    (["Each stall pitch is 3 by 3m."], "Each stall pitch is 3m x 3m."),
])
def test_f5_count_times_length_is_no_size(an: Analyzer, contexts: list[str],
                                          answer: str) -> None:
    assert not flagged(evidence(an, contexts, answer, "How big?"))


def test_f5_unit_words_count_times_length() -> None:
    from ragassay.judge.offline.measures import unit_words

    assert "6 metres" not in unit_words("The main pool has 6 x 25m lanes.")


# --- F6 (medium): asks_user's mending sets back to claims offers and referral
# questions that name an ordinary thing or two, or "when you arrive": faithful answers
# flagged (they passed at a224282; flagged at dbad969 too).
@pytest.mark.parametrize(("contexts", "answer", "question"), [
    pytest.param(["The pool opens at 7am. Lane swimming is for adults only."],
                 "The pool opens at 7am. Would you like a link to the timetable page?",
                 "When does the pool open?", marks=_xf(_OFFERS)),
    pytest.param(["Our opening hours are 9am to 5pm, Monday to Friday."],
                 "I'm sorry, I don't have that information. Could you ask the front desk "
                 "staff when you arrive?", "Is there wifi?", marks=_xf(_OFFERS)),
    pytest.param(["Our opening hours are 9am to 5pm, Monday to Friday."],
                 "I'm sorry, I don't have information about school uniform. Could you "
                 "contact the school office or the head of year?",
                 "What is the uniform policy?", marks=_xf(_OFFERS)),
    (["The pool opens at 7am. Lane swimming is for adults only."],
     "The pool opens at 7am. Would you like me to email you the timetable?",
     "When does the pool open?"),
])
def test_f6_offers_and_referrals_are_no_claims(an: Analyzer, contexts: list[str],
                                               answer: str, question: str) -> None:
    assert not flagged(evidence(an, contexts, answer, question))
