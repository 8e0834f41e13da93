"""Session 27 (scope): a universal narrowed by "only" (only_narrowed.only_narrowed,
read in alignment._conflicts and judge_part): the context says something of all of a
kind or at every time, the answer says it "only" of a part of that kind or one time.
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.only_narrowed import only_narrowed
from tests.support.offline import judged


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # "only" of a part of what the context says of all
    ("All tenants can use the bike store.", "Only ground-floor tenants can use the bike store.",
     True),
    ("Every parcel is insured up to $100.", "Only overseas parcels are insured up to $100.",
     True),
    ("The archive is open to all historians.", "The archive is open only to visiting historians.",
     True),
    ("The night bus runs every day.", "The night bus runs only on Saturdays.", True),
    ("All staff may work from home on Fridays.", "Only directors may work from home on Fridays.",
     True),
    # faithful near-misses: the same scope in other words, or "only" of what it names
    ("All tenants can use the bike store.", "Every tenant can use the bike store.", False),
    ("Only ground-floor tenants can use the bike store.",
     "Only tenants on the ground floor can use the bike store.", False),
    ("Every parcel is insured up to $100.", "Yes, all parcels are insured up to $100.", False),
    ("All tenants can use the bike store; only the caretaker can open the boiler room.",
     "Only the caretaker can open the boiler room.", False),
    ("Every tenant gets a parking permit, and only corner flats get two.",
     "Only corner flats get two parking permits.", False),
])
def test_only_narrows_a_universal(an: Analyzer, context: str, answer: str,
                                  flags: bool) -> None:
    assert judged(an, [context], answer) is flags


def test_only_narrowed_reads_the_only_phrase() -> None:
    every = part("Every volunteer gets a free lunch.")
    assert only_narrowed(part("Only weekend volunteers get a free lunch."), every)
    # the claim's "only" names nothing the unit lacks
    assert not only_narrowed(part("Only volunteers get a free lunch."), every)
    # a claim word beyond the "only" phrase: another claim, not a narrowed one
    assert not only_narrowed(part("Only weekend volunteers get a free hot lunch daily."),
                             part("Every volunteer gets a lunch."))
    # a unit with a negation or an "only" of its own is left to the other readings
    assert not only_narrowed(part("Only weekend volunteers get a free lunch."),
                             part("Every volunteer gets a free lunch, not just drivers."))
    assert not only_narrowed(part("Only weekend volunteers get a free lunch."),
                             part("Only volunteers get a free lunch."))
