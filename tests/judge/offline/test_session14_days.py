"""Issue #38, session 14: "every day" against a week made up of a range and a part of
it ("Monday to Friday ..., and at weekends"). Wording and domains none of the probe
batches use.

A claim quantified over days meets a unit that places what it says in parts of the week:
it is bound by them unless the unit's sentence's days (its ranges, days and parts of the
week) fill out the week (`scope.time_bound`, `weeks.week_days`): "Monday to Friday, and at
weekends" does (bound at c3a17f7, which read only "at weekends"; a whole answer may still
be flagged by the days the unit lists as alternatives). A range of days
alone against "every day" was withdrawn after review 14 (the rest of the week is often in
the passage's next sentence) and is read since session 15 with the days all the contexts
place statements on, as a range of months against "all year" is (test_session15.py)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.scope import time_bound
from ragassay.judge.offline.weeks import DAYS, ranges
from tests.support.offline import assert_judged


def test_a_range_spans_its_days_and_wraps_round() -> None:
    assert ranges(("open", "tuesday", "to", "saturday"), DAYS) == [
        frozenset({"tuesday", "wednesday", "thursday", "friday", "saturday"})]
    assert ranges(("friday", "to", "monday"), DAYS) == [
        frozenset({"friday", "saturday", "sunday", "monday"})]


@pytest.mark.parametrize(("claim", "unit", "bound"), [
    ("The yard is open every day.",
     "The yard is open Monday to Friday from 8am, and 9am to 1pm at weekends.", False),
    ("The yard is open every day.",
     "The yard is open Monday to Saturday, and on Sundays from 10am.", False),
    ("The yard is open every day.", "The yard is open on weekdays.", True),
    ("The yard is open every day.",
     "The yard is open Monday to Thursday, and 9am to 1pm at weekends.", True),
])
def test_every_day_against_the_days_of_a_sentence(claim: str, unit: str, bound: bool) -> None:
    u = part(unit)
    assert time_bound(part(claim), u, u) is bound


def test_every_day_against_a_range_of_days(an: Analyzer) -> None:
    # a known limit of session 14, read since session 15 with the passage's days
    # (test_session15.py)
    assert_judged(an, ["A 20% deposit secures your order. Our gallery shop in Keswick is "
                       "open Wednesday to Sunday, 10am to 4pm."],
                  "The Keswick gallery shop is open every day from 10am to 4pm.", flags=True)
