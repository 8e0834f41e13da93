"""Issue #38, session 14: "every day" and "all year round" against a range of days or
months ("Tuesday to Saturday", "from May to September"). Wording and domains none of the
probe batches use; each unfaithful case passed at 61c14ab.

A claim quantified over days meets a unit said from one day to another: it widens it
unless the sentence's days (its ranges, days and parts of the week) fill out the week
(`scope.time_bound`, `weeks.week_days`); over the year, from one month to another unless
its ranges fill out the year."""

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
    ("The gallery shop is open every day from 10am to 4pm.",
     "Our gallery shop is open Wednesday to Sunday, 10am to 4pm.", True),
    ("Returns are accepted every day of the week between 9am and noon.",
     "Returns are accepted between 9am and noon, Monday to Friday.", True),
    ("The lido is open all year round.", "The lido is open from May to September.", True),
    # the sentence's days fill out the week: every day it is
    ("The yard is open every day.",
     "The yard is open Monday to Friday from 8am, and 9am to 1pm at weekends.", False),
    ("The yard is open every day.",
     "The yard is open Monday to Saturday, and on Sundays from 10am.", False),
    ("The café is open all year round.",
     "The café is open 9am to 5pm from April to September and 10am to 3pm from October "
     "to March.", False),
])
def test_every_day_against_a_range(claim: str, unit: str, bound: bool) -> None:
    u = part(unit)
    assert time_bound(part(claim), u, u) is bound


@pytest.mark.parametrize(("contexts", "answer"), [
    (["A 20% deposit secures your order. Our gallery shop in Keswick is open Wednesday to "
      "Sunday, 10am to 4pm."],
     "The Keswick gallery shop is open every day from 10am to 4pm."),
    (["The lido in Hartfield Park is open from May to September. Season tickets cost £60."],
     "Yes, the Hartfield Park lido is open all year round."),
])
def test_every_day_for_a_range_is_flagged(an: Analyzer, contexts: list[str],
                                          answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


def test_the_same_range_said_again_is_supported(an: Analyzer) -> None:
    assert_judged(an, ["Our gallery shop in Keswick is open Wednesday to Sunday, 10am to "
                       "4pm."],
                  "The Keswick gallery shop opens Wednesday to Sunday, 10am to 4pm.",
                  flags=False)
