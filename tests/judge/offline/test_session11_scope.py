"""Session 11 of issue #38: a universal claim against a unit that limits what it says
to a case (dropped.limits_case).

"All", "every", "any", "always", "whenever" said of what a context sentence says only
for someone ("for residents"), within a bound ("within 10 miles", "until 6pm"), at some
times ("on Friday evenings", "in June and July"), in one case ("where the floor is
tiled") or of part of it ("some of our teas", "the first 100 visitors"): the claim says
it of every case. The claim's words no context has ("of charge") do not keep the unit
from being read. Each in other words and domains than the probes."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.dropped import limits_case
from tests.support.offline import assert_judged, evidence


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Parking permits are free for residents of the old town."],
     "Yes, all parking permits are free of charge."),
    (["Bike repairs are collected free within 10 miles of the workshop."],
     "Yes, every bike repair is collected free."),
    (["The reading room is open to visitors until 6pm."],
     "The reading room is open to visitors whenever they like."),
    (["Jam sessions are held for members on Friday evenings."],
     "Members can join jam sessions any evening of the week."),
    (["Outdoor swimming lessons run in June and July."],
     "Outdoor swimming lessons run every week of the year."),
    (["We lay vinyl flooring where the floor is already level."],
     "We lay vinyl flooring on every floor."),
    (["Some of our teas are caffeine-free."],
     "All of our teas are caffeine-free."),
    (["The first 100 visitors each morning get a free tote bag."],
     "Every visitor gets a free tote bag."),
    (["Members who have completed the induction may use the lathe when a supervisor is "
      "present."],
     "Members who have completed the induction can use the lathe at any time."),
])
def test_a_universal_claim_that_drops_the_case_is_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("contexts", "answer"), [
    # the unit says it of every case itself
    (["All parking permits are free for everyone."], "Yes, all parking permits are free."),
    # a rate: "each week" says how often, not of what
    (["Volunteers work two shifts a week at the food hall."],
     "Volunteers work two shifts each week at the food hall."),
    # "each" of each one: no scope ("Each team ..." for "Teams ...")
    (["Teams may field up to seven players during a match."],
     "Each team can field up to seven players."),
    # the claim keeps the case
    (["Parking permits are free for residents of the old town."],
     "Yes, parking permits are free for all residents of the old town."),
    # "anyone with ...": a case of its own
    (["Free eye tests are offered to people over 60 and anyone with diabetes."],
     "Free eye tests are offered to people over 60 and to anyone with diabetes."),
])
def test_a_claim_that_keeps_the_scope_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_the_unit_quantifying_the_same_word_is_no_dropped_case() -> None:
    """The claim's "always" and the unit's: the unit says it every time too."""
    claim = part("Surveyors always do their own inspection")
    unit = part("A survey is advised before you sign, as surveyors always carry out their "
                "own inspection")
    assert not limits_case(claim, unit, claim.words | unit.words)


@pytest.mark.parametrize(("contexts", "answer"), [
    # a span of time says when, of every refund
    (["Refunds are issued to the original card within 5 days."],
     "All refunds go back to the original card."),
    # "during their stay": when, of every guest
    (["Guests get free breakfast during their stay."], "Every guest gets free breakfast."),
])
def test_when_it_happens_is_no_case(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_a_property_bound_is_a_case(an: Analyzer) -> None:
    """"longer than 8 hours" says which trips: some of them."""
    contexts = ["Premium passengers on trips longer than 8 hours get a free meal."]
    assert_judged(an, contexts, "Premium passengers get a free meal on every trip.",
                  flags=True, kind="quantifier")


def test_the_speakers_choice_is_no_scope(an: Analyzer) -> None:
    """"whatever I want": what the speaker picks, not a case the unit limits."""
    contexts = ["The market is the largest farmers' market in the county after Ashford's."]
    ev = evidence(an, contexts, "I love buying whatever I want at the largest farmers' "
                                "market in the county.")
    assert ev.contradicts == [None], ev  # (unsupported, maybe: no dropped case)


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # free for some, and the contexts price the others
    (["Bike marking is free for students with a campus card. Other cyclists pay £8."],
     "Yes, bike marking is free.", True),
    (["Entry is free for carers. Everyone else pays £4 at the gate."],
     "No, entry is free.", True),
    # no price for the other case: "free for customers" said as "free"
    (["Parking is free for customers of the garden centre."], "Yes, parking is free.",
     False),
    # the claim keeps the case
    (["Bike marking is free for students with a campus card. Other cyclists pay £8."],
     "Bike marking is free for students with a campus card.", False),
])
def test_a_benefit_said_of_no_case_where_others_pay(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    ev = assert_judged(an, contexts, answer, flags=flags)
    if flags:
        assert ev.contradicts == ["quantifier"], ev


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a clock time bounds the hours of a day, not which days
    (["The bakery opens daily from 7am until 3pm."], "The bakery is open every day.", False),
    (["The launderette opens from 8am until 10pm."],
     "The launderette is open at any time.", True),
])
def test_a_clock_time_bounds_hours_not_days(an: Analyzer, contexts: list[str],
                                            answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags)
