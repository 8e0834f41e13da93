"""Issue #38, session 7: figures in other words. Clock times in words ("two in the
afternoon" is "2pm", "half past nine", "one o'clock") and a rate in months ("every six
months" is "twice a year") are written one way, so a faithful answer that says them so is
supported (the boiler's failed before) and its unfaithful twin (another time, another
rate) stays flagged."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.measures import canonical_measures
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("text", "canonical"), [
    ("from two in the afternoon until six in the evening", "from 2 pm until 6 pm"),
    ("at seven in the morning", "at 7 am"),
    ("until eleven at night", "until 11 pm"),
    ("by one o'clock", "by 1"),
    ("nine till half past four", "9 till 4:30"),
    ("every six months", "2 times a year"),
    ("once every 3 months", "4 times a year"),
    ("quarterly", "4 times a year"),
    ("every 5 months", "every 5 months"),  # no whole rate a year
    ("in the morning", "in the morning"),  # no clock time
])
def test_clock_times_and_month_rates_are_written_one_way(text: str, canonical: str) -> None:
    assert canonical_measures(text) == canonical


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Our opticians see walk-in patients between 2pm and 5pm every weekday."],
     "Walk-in patients are seen from two in the afternoon until five, every weekday."),
    (["Boilers should be serviced twice a year by a registered engineer."],
     "A registered engineer should service your boiler every six months."),
])
def test_a_faithful_answer_in_other_words_is_supported(an: Analyzer, contexts: list[str],
                                                       answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Our opticians see walk-in patients between 2pm and 5pm every weekday."],
     "Walk-in patients are seen from three in the afternoon until five, every weekday."),
    (["Boilers should be serviced twice a year by a registered engineer."],
     "A registered engineer should service your boiler every three months."),
])
def test_its_unfaithful_twin_is_still_flagged(an: Analyzer, contexts: list[str],
                                              answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)
