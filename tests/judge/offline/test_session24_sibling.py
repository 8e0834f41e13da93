"""Issue #38, session 24 (k184): a claim about one of two sibling things (two tours,
plans or branches, each with its own figure) read against the other sibling's unit
through the swapped name (`sibling.own_sibling`): no contradiction when the unit naming
the claim's own thing gives its figure. The true swaps, one sibling's figure given to
the other, stay flagged. Wording and domains of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged, known_limit

TOURS = ["Our Harbour tour costs £18 and includes a stop at the lighthouse, a guided walk "
         "and tea. Booking is required.",
         "Island tour (£32) adds a picnic lunch and a seal colony visit."]
PLANS = ["The Starter plan costs $9 a month and includes 3 projects, email support and "
         "daily backups.", "Team plan ($29 a month) adds unlimited projects and phone support."]
BRANCHES = ["The Riverside branch opens at 9am and offers passport photos, key cutting and "
            "parcel drop-off.", "Hilltop branch (opens at 10am) adds shoe repairs."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # a word of its own beside the sibling's name: read against the other tour before
    (TOURS, "A basic Harbour tour is £18."),
    (TOURS, "A Harbour tour is £18 [1]."),
    (TOURS, "The Harbour tour costs £18, with a lighthouse stop and tea included."),
    (TOURS, "The Island tour is £32."),
    (PLANS, "The entry-level Starter plan is $9 a month."),
    (PLANS, "Starter is $9 a month [1]."),
    (BRANCHES, "Our main Riverside branch opens at 9am."),
    (BRANCHES, "The Hilltop branch opens at 10am."),
])
def test_a_claim_about_its_own_sibling_is_not_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # one sibling's figure given to the other, plain and cited
    (TOURS, "A basic Island tour is £18."),
    (TOURS, "The Harbour tour costs £32."),
    (TOURS, "An Island tour is £18 [2]."),
    (PLANS, "The entry-level Team plan is $9 a month."),
    (PLANS, "Starter costs $29 a month."),
    (BRANCHES, "Our main Hilltop branch opens at 9am."),
    (BRANCHES, "The Riverside branch opens at 10am."),
])
def test_a_sibling_given_the_others_figure_stays_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True)


@known_limit("the sibling's figure given in brackets after its name ('Team plan ($29 a "
             "month)') is read as named in another sentence (named_elsewhere, "
             "attributed_elsewhere), not as the sibling's own sentence")
@pytest.mark.parametrize("answer", ["The Team plan costs $29 a month.",
                                    "Team costs $29 a month."])
def test_a_bracketed_figure_of_its_own_sibling(an: Analyzer, answer: str) -> None:
    assert_judged(an, PLANS, answer, flags=False)


@known_limit("a parenthetical with 'and' inside ('(weekends and school holidays)') cuts "
             "the second sibling's clause, so its price slot loses its name, and the "
             "rate's 'per child' is only in the first sibling's clause")
def test_a_gapped_rate_of_the_second_sibling(an: Analyzer) -> None:
    assert_judged(an, ["Weekday swims (term time only) cost £4 per adult; weekend swims "
                       "(Saturdays and Sundays) cost £6."],
                  "Weekend swims cost £6 per adult.", flags=False)
