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
from tests.support.offline import evidence as _ev
from tests.support.offline import flagged as _flagged

MEALS = ["On long-haul flights, a hot meal is served every 4 hours."]
HEDGES = ["In dry weather, the garden centre waters the hedges every day."]
CHOIR = ["For members of the choir, rehearsal rooms can be booked at any time."]
CARD = ["The Silver card earns 3 points per pound on fuel."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (MEALS, "On every flight a warm meal comes round every four hours."),
    (HEDGES, "The garden centre waters the hedges every day."),
    (CHOIR, "Rehearsal rooms can be booked by anyone at any time."),
])
def test_a_dropped_restriction_widens_a_universal_claim(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == ["quantifier"] and _flagged(ev), ev


@pytest.mark.parametrize(("contexts", "answer"), [
    (MEALS, "On long-haul flights a hot meal is served every 4 hours."),
    (HEDGES, "When the weather is dry, the garden centre waters the hedges every day."),
    (CHOIR, "Choir members can book the rehearsal rooms at any time."),
    (CARD, "With the Silver card you earn 3 points for every pound you spend on fuel."),
])
def test_a_kept_restriction_or_a_rate_passes(an: Analyzer, contexts: list[str],
                                             answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == [None] and not _flagged(ev), ev
