"""Issue #38, session 13: what a universal claim quantifies. Wording and domains none of
the probe batches use; each faithful case was flagged "quantifier" at 7060f25.

- A unit that quantifies the claim's word itself, past its modifiers ("Each hire suit
  includes ..."), or prices each of what it names ("... cost £40 each"), is no kind of
  it the claim widens (`scope.widened_kind`).
- "each one" says of what went before, as "£40 each" does: it quantifies no word after
  it (`clauses._quantified`).
- A universal claim that restates the unit's modifier of the quantified word and drops
  the "in ..." or "with ..." phrase after it widens it (`scope._trailing`), as it did
  "to ..." and "for ..."."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged, evidence


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Wetsuits can be hired from the beach hut for £8 per session.",
      "Each hire suit includes boots, 2 gloves and a hood."],
     "Yes, the beach hut hires out wetsuits for £8 a session [1]. Each suit comes with "
     "boots, 2 gloves and a hood [2]."),
    (["Pilots must complete the three-stage flight safety course before booking solo "
      "slots.", "Safety stages can be booked individually and cost £40 each."],
     "Yes. You'll need to finish all three stages of the flight safety course before you "
     "can book a solo slot [1], and each stage can be booked separately for £40 [2]."),
    (["Taster sessions must be booked a week ahead.",
      "Sessions last two hours and include all materials."],
     "Taster sessions need booking a week ahead; each one lasts two hours and includes "
     "all materials."),
])
def test_a_unit_saying_it_of_each_is_no_kind_widened(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert "quantifier" not in ev.contradicts, ev
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    (["On long-haul flights a hot meal is served with a choice of drinks."],
     "On every flight a hot meal is served with a choice of drinks."),
    (["Members over 65 can book a free eye test each year."],
     "All members can book a free eye test each year."),
    (["Junior members can borrow a racket for each session."],
     "Every member can borrow a racket for each session."),
])
def test_a_claim_widening_a_kind_is_still_flagged(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (["Free delivery is available for orders over £40 in the city centre."],
     "Yes, delivery is free on any order over £40.", True),
    (["Members over 18 with a valid climbing card may use the wall unsupervised."],
     "Yes, any member over 18 can use the wall unsupervised.", True),
    (["Free delivery is available for orders over £40 in the city centre."],
     "Yes, delivery is free on any order over £40 in the city centre.", False),
    (["Members over 18 with a valid climbing card may use the wall unsupervised."],
     "Yes, any member over 18 with a valid climbing card can use the wall unsupervised.",
     False),
])
def test_a_dropped_in_or_with_phrase_widens(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags, kind="quantifier" if flags else None)
