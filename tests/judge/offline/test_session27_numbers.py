"""Session 27 (k222): a figure moved from its home in the passage.

Two evidence readings, each checked both ways:

- meridiem.py: a clock time read with its half of the day (the figures give "6 am" and
  "6 pm" alike), and with its place among the times a sentence lists ("the last ferry"
  at a time the list gives before its end);
- qualifiers.py: where a sentence gives two values of one thing side by side, each in a
  phrase of one shape ("£18 for cars and £30 for vans"), the phrase after a value is
  what it is for; a claim that gives one value with the other's phrase changed it.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.meridiem import clock_times
from tests.support.offline import evidence, flagged, judged, known_limit

PLANT = ["The garden centre is open from 8am to 7pm every day."]
LAUNCH = ["Water taxis leave the pier at 9am, 12pm, 3pm and 6pm."]
TYRES = ["Wheel alignment costs £35 for cars and £55 for vans."]
CAMP = ["Pitches cost €16 per night, or €12 each for groups of six or more."]
NURSERY = ["We have one keyworker for every 3 babies under two, and one keyworker "
           "for every 7 children aged three to four."]


def test_clock_times_are_read_on_the_clock() -> None:
    assert [v for v, *_ in clock_times("from 8am to 7pm, or 19:30; noon")] == [
        8.0, 19.0, 19.5, 12.0]
    assert clock_times("3 tours at £4.50") == []  # bare numbers and prices: no times


@pytest.mark.parametrize(("answer", "flags"), [
    ("The garden centre closes at 8pm every day.", True),
    ("The garden centre opens at 8am every day.", False),
    ("Every day the garden centre shuts at 7 pm.", False),
    ("The garden centre closes at 19:00.", False),
])
def test_half_of_the_day_turned(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, PLANT, answer) is flags


def test_a_time_the_question_gives_is_no_turned_half(an: Analyzer) -> None:
    ev = evidence(an, PLANT, "Yes, the garden centre is open at 8pm... no, it closes at 7pm.",
                  "Is the garden centre open at 8pm?")
    assert not flagged(ev)


@pytest.mark.parametrize(("answer", "flags"), [
    ("The last water taxi leaves the pier at 3pm.", True),
    ("The first water taxi leaves the pier at 12pm.", True),
    ("A water taxi leaves the pier at 3pm.", False),
])
def test_the_wrong_end_of_a_list_of_times(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, LAUNCH, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (TYRES, "Wheel alignment for a van costs £35.", True),
    (TYRES, "Wheel alignment for a van costs £55.", False),
    (TYRES, "Cars cost £35 and vans £55 for wheel alignment.", False),
    (CAMP, "Groups of six or more pay €16 per night each.", True),
    (CAMP, "Groups of six or more pay €12 each per night.", False),
    (CAMP, "A pitch is €16 per night.", False),
    (NURSERY, "There is one keyworker for every 7 babies under two.", True),
    (NURSERY, "Babies under two have one keyworker for every 3.", False),
    (["Adults pay £10 and children £5."], "Children pay £5.", False),
])
def test_a_value_given_another_values_phrase(an: Analyzer, contexts: list[str], answer: str,
                                             flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@known_limit("the list's true end called the last is flagged by a reading older than "
             "meridiem.py (it was flagged at the session's base too)")
def test_the_right_end_of_a_list_is_faithful(an: Analyzer) -> None:
    assert not judged(an, LAUNCH, "The last water taxi leaves the pier at 6pm.")
