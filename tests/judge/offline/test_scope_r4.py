"""Round 4 of issue #38: a universal claim that drops the context's restriction.

- "every X" where the context says what it says of a kind of X named with a modifier
  ("long-haul flights"), though the claim restates it in other words;
- a universal claim that drops a sentence's fronted restriction ("In dry weather,
  ...", "For members of the choir, ...") altogether.
Counter-cases keep the restriction, or quantify a rate ("every pound" / "per pound").
In other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

MEALS = ["On long-haul flights, a hot meal is served every 4 hours."]
HEDGES = ["In dry weather, the garden centre waters the hedges every day."]
CHOIR = ["For members of the choir, rehearsal rooms can be booked at any time."]
CARD = ["The Silver card earns 3 points per pound on fuel."]


@pytest.mark.parametrize(("contexts", "answer", "kind"), [
    # a dropped restriction widens a universal claim
    (MEALS, "On every flight a warm meal comes round every four hours.", "quantifier"),
    (HEDGES, "The garden centre waters the hedges every day.", "quantifier"),
    (CHOIR, "Rehearsal rooms can be booked by anyone at any time.", "quantifier"),
    # a kept restriction or a rate passes
    (MEALS, "On long-haul flights a hot meal is served every 4 hours.", None),
    (HEDGES, "When the weather is dry, the garden centre waters the hedges every day.", None),
    (CHOIR, "Choir members can book the rehearsal rooms at any time.", None),
    (CARD, "With the Silver card you earn 3 points for every pound you spend on fuel.", None),
])
def test_a_universal_claim_keeps_the_contexts_restriction(
        an: Analyzer, contexts: list[str], answer: str, kind: str | None) -> None:
    assert_judged(an, contexts, answer, flags=kind is not None, kind=kind)


PASS = ["In the city, a transit pass is any ticket that lets you ride the buses without "
        "paying each time, whether a paper ticket or a mobile ticket bought in the app."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the claim's own opening clause keeps the fronted phrase (a BEGIN answer, "well in
    # the united states, health insurance is any program ...", was a scope contradiction)
    (PASS, "well in the city, a transit pass is any ticket that lets you ride the buses "
           "without paying each time.", False),
    (HEDGES, "Well, in dry weather, the garden centre waters the hedges every day.", False),
    # an opening clause without the phrase drops it still, and so does one that shares
    # a word of it only (review 6)
    (HEDGES, "Well, the garden centre waters the hedges every day.", True),
    (HEDGES, "The weather is mild, and the garden centre waters the hedges every day.", True),
    (HEDGES, "The garden centre waters the hedges every day, whatever the weather.", True),
    (PASS, "well in general, a transit pass is any ticket that lets you ride the buses "
           "without paying each time.", True),
])
def test_a_fronted_phrase_in_the_claims_own_first_clause_is_kept(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags, kind="quantifier" if flags else None)
