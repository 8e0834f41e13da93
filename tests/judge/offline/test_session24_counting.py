"""Session 24 (k177): faithful answers flagged by a counting word or a "not" beside them.

An everyday count read as a figure the passage lacks: a passage's "an hour" or "a
pound" states the 1 an answer writes "one hour", "one pound"; a range's bare first
bound takes its second's unit ("between 45 and 10 minutes": 45 minutes, so "three
quarters of an hour"); "one time" and "a single time" are "once", "two times" (no rate)
"twice". A correct answer beside a "not" in its own sentence: a negated claim that
restates a sentence's elliptic denial ("A, not B") keeps no flip against its "A"
clause; an elliptic "but not at X" against a negated unit denies what the unit denies;
the name of a passage's speaker stands where its sentence says "us". Cases in words of
our own, none from a probe batch; the mistakes each rule must still catch beside them.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import canonical_measures
from ragassay.judge.offline.normalise import normalise_text, written_values
from tests.support.offline import evidence, judged


def test_a_unit_after_a_or_an_states_one() -> None:
    assert {1.0, 60.0} <= written_values("There is an hour's pause at midday.")
    assert 1.0 in written_values("A locker costs a pound.")
    # the period of a rate counts another thing
    assert 1.0 not in written_values("Classes run twice a week.")
    assert 1.0 not in written_values("Hire costs 5 pounds a day.")
    assert 1.0 not in written_values("Bring a towel and a padlock.")


def test_a_range_first_bound_takes_the_unit() -> None:
    assert {45.0, 0.75} <= written_values("Arrive between 45 and 10 minutes early.")
    assert {0.5} <= written_values("Allow 30-40 minutes.")


@pytest.mark.parametrize(("text", "canon"), [
    ("You may swap seats one time per booking.", "You may swap seats once per booking."),
    ("It can be reheated a single time.", "It can be reheated once."),
    ("Passes can be extended two times online.", "Passes can be extended twice online."),
    ("Lessons run two times a week.", "Lessons run 2 times a week."),  # a rate: unchanged
    ("There is a one-time fee of 20 pounds.", "There is a one time fee of 20 pounds."),
])
def test_counted_times(text: str, canon: str) -> None:
    assert normalise_text(text) == canon
    assert canonical_measures("once a month") == "once a month"


_PAUSE = ["The pottery day runs from 9 am to 3 pm with an hour's pause at midday."]
_WINDOW = ["Drivers must sign in between 45 and 10 minutes before their slot."]
_LOCKER = ["Lockers cost a pound, which you get back when you open them."]
_SWAPS = ["Seats may be swapped only once per booking."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_PAUSE, "It runs from 9 am until 3 pm, with a one-hour pause at midday.", False),
    (_WINDOW, "Sign in between three quarters of an hour and 10 minutes before your slot.",
     False),
    (_LOCKER, "A locker costs one pound, and you get it back when you open it.", False),
    (_SWAPS, "You can swap your seat a single time per booking.", False),
    # the figure still checked: another value than the passage's
    (_PAUSE, "It runs from 9 am until 3 pm, with a two-hour pause at midday.", True),
    (_WINDOW, "Sign in between two hours and 10 minutes before your slot.", True),
    (_LOCKER, "A locker costs five pounds, and you get it back when you open it.", True),
])
def test_counting_words(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_PASSES = ["New staff get a laptop on day one. Door passes are printed by the Estates "
           "office, not by IT. Leave requests go through your manager."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the sentence's own denial restated beside its affirmed clause (an acronym the
    # word index reads as "it": the denial names nothing else)
    (_PASSES, "Door passes are printed by the Estates office; IT does not print them.",
     False),
    # ... the affirmed clause denied: still caught
    (_PASSES, "The Estates office does not print door passes.", True),
])
def test_denial_beside_its_clause(an: Analyzer, contexts: list[str], answer: str,
                                  flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


_PITCHES = ["Tents on small pitches are welcome at most sites.",
            "Tents are {} at sites on working farms; check the site details before you "
            "travel."]
_ELLIPTIC = ("Usually yes, on a small pitch [1], but not at sites on working farms, so "
             "check the site details before setting off [2].")


def test_elliptic_denial_of_a_negated_unit(an: Analyzer) -> None:
    denied = [c.format("not allowed") for c in _PITCHES]
    allowed = [c.format("allowed") for c in _PITCHES]
    assert not judged(an, denied, _ELLIPTIC)  # both deny: was a negation flip
    assert not judged(an, denied, _ELLIPTIC.replace(" [1]", "").replace(" [2]", ""))
    assert judged(an, allowed, _ELLIPTIC)  # the passage allows it: still turned


_CLINIC = ["Riverside Osteopathy is open Monday to Friday from 8am to 6pm. You do not need "
           "a GP letter to book with us."]


def test_speaker_name_for_us(an: Analyzer) -> None:
    ev = evidence(an, _CLINIC, "No letter is needed: you can book with Riverside Osteopathy "
                               "directly.")
    assert ev.contradicts == [None]  # was an entity swap: the clinic for the GP
    assert not judged(an, _CLINIC, "No letter is needed: you can book with Riverside "
                                   "Osteopathy directly.")
    # a name said of what another named sentence gives its own subject: still caught
    assert judged(an, ["Postal bids go to the auction secretary, Jo Marsh. Renewals are "
                       "handled by the treasurer, Ben Ward."],
                  "For postal bids, contact the treasurer, Ben Ward.")
