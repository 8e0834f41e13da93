"""Session 24 review (review24b): k177's "one time" read as "once" (measures._ONCE)
stood a rate's count of one down to "once", which is no figure, so "one time a week"
against "twice a week" passed. It now reads "one time" as "once" only where no rate's
period follows. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import clock_and_frequency
from tests.support.offline import assert_judged, known_limit

WASH = ["Towels are changed once a day and bed linen twice a week.",
        "Rooms are cleaned daily between 9am and 2pm."]
LINEN = ["Bed linen is changed twice a week.",
         "Rooms are cleaned daily between 9am and 2pm."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (WASH, "Bed linen is changed one time a week."),
    (LINEN, "Bed linen is changed one time a week."),
    (LINEN, "Bed linen is changed one time per week [1]."),
    (WASH, "Towels are changed one time a week."),
    (WASH, "Bed linen is changed three times a week."),
])
def test_a_rate_of_one_time_against_twice_is_flagged(an: Analyzer, contexts: list[str],
                                                     answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


@pytest.mark.parametrize(("contexts", "answer"), [
    (WASH, "Towels are changed one time each day."),
    (WASH, "Towels are changed once a day and bed linen twice a week."),
    (WASH, "Bed linen is changed two times a week."),
    (LINEN, "Bed linen gets changed twice a week [1]."),
])
def test_near_misses_stay_unflagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("text", "out"), [
    ("You only need to do it one time.", "You only need to do it once."),
    ("Pay a single time online.", "Pay once online."),
    ("Changed one time a week.", "Changed one time a week."),
    ("Checked one time per day.", "Checked one time per day."),
    ("Swap seats one time per booking.", "Swap seats once per booking."),
])
def test_one_time_is_once_unless_a_rate_follows(text: str, out: str) -> None:
    assert clock_and_frequency(text) == out


@known_limit("'once a week' is no figure, so it is not set against 'twice a week' "
             "(a gap before session 24 too)")
def test_once_against_twice_a_week(an: Analyzer) -> None:
    assert_judged(an, LINEN, "Bed linen is changed once a week.", flags=True)


@known_limit("k182's new decline phrasing ('no reference to') sets aside a referral whose "
             "email address is read as given: the address's domain stem ('fibrenet' as "
             "'fibre') and the question's word count as its tokens")
def test_a_made_up_email_beside_a_new_decline_phrasing(an: Analyzer) -> None:
    isp = ["Fibre broadband packages start at £28 a month on an 18-month contract.",
           "Installation is free and takes about two hours."]
    assert_judged(an, isp, "There's no reference to business lines in what I have. Please "
                  "email business@fibrenet.co.uk.", flags=True,
                  question="Do you offer business lines?")
