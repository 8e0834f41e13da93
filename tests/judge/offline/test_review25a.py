"""Review 25a: faithful answers that keep a rule's restriction in their own words, which
session 25's new rules flagged (beneficiary, day_hours, only_who), and the violations
next to them that the rules must still catch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


_ASSEMBLY = ["Assembly is free for wardrobes that are delivered to addresses in Leeds."]


def test_benefit_case_named_by_the_claim_is_kept(an: Analyzer) -> None:
    # the claim names the qualified case in its own words ("going to Leeds addresses")
    assert_judged(an, _ASSEMBLY, "Assembly is free on wardrobes going to Leeds addresses.",
                  False)


def test_benefit_said_of_no_case_still_flagged(an: Analyzer) -> None:
    assert_judged(an, _ASSEMBLY, "Assembly is free.", True, "quantifier")


_STUDIO = ["The studio is open from 6am to 9pm on weekdays, and from 8am to 4pm at weekends."]


@pytest.mark.parametrize("answer", [
    "In the week the studio is open from 6am to 9pm.",
    "The studio is open from 6am to 9pm during the week.",
])
def test_hours_placed_in_the_week_are_kept(an: Analyzer, answer: str) -> None:
    assert_judged(an, _STUDIO, answer, False)


@pytest.mark.parametrize("answer", [
    "The studio is open from 6am to 9pm.",
    "The studio is open from 6am to 9pm, seven days a week.",
])
def test_hours_given_bare_or_for_every_week_still_flagged(an: Analyzer, answer: str) -> None:
    assert_judged(an, _STUDIO, answer, True, "quantifier")


_GYM = ["The staff gym is available to employees only."]


def test_whom_said_in_another_clause_of_own_words(an: Analyzer) -> None:
    # "people who work here" says the unit's "employees" in other words
    assert_judged(an, _GYM, "The staff gym is available, but just for people who work "
                  "here.", False)


def test_whom_dropped_beside_another_context_fact_still_flagged(an: Analyzer) -> None:
    contexts = [*_GYM, "The changing rooms are beside the main reception."]
    assert_judged(an, contexts, "The staff gym is available, and the changing rooms are "
                  "beside the main reception.", True, "quantifier")
