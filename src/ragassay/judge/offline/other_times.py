"""A claim said of all times ("whenever you come", "at any time", "every day") against a
sentence that states it for one part of the week and gives the rest of the week to
something else ("Free parking is in the yard on weekdays; at weekends use the car park
on Mill Lane").

`scope.time_bound` reads a sentence whose times fill out the week as no bound: "open 9-5
on weekdays, and 10-4 at weekends" says the place opens every day. That holds when the
other times' clause says the claim's thing too, or is a bare continuation of it ("and
10-4 at weekends"); when it has a subject and a predicate of its own and shares none of
the claim's words, the claim's "whenever" widens the clause it restates.
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, clause_parts
from .scope import TIMES, time_bound
from .units import Unit
from .weeks import placed_times

MIN_OWN = 2  # content words (no times) that make another clause a statement of its own
MIN_SHARED = 2  # the claim's words a unit must state to restate it


def _own_words(c: Part) -> frozenset[str]:
    return frozenset(w for w in c.words if w not in TIMES)


def _elsewhere_else(p: Part, u: Unit, claim: frozenset[str]) -> bool:
    """Whether another clause of the unit's sentence places itself in other times and
    says something of its own, none of the claim's words."""
    for c in clause_parts(u.sentence.text):
        if c.text == u.part.text or not placed_times(c) - placed_times(u.part):
            continue
        own = _own_words(c)
        if len(own) >= MIN_OWN and not own & claim:
            return True
    return False


def other_times(p: Part, near: Sequence[Unit]) -> bool:
    """Whether the claim, quantified over time only, restates a clause bound to a part of
    the week whose sentence gives the other part to something else (module docstring)."""
    if not p.quantified or not all(h in TIMES for h in p.quantified):
        return False
    claim = _own_words(p)
    for u in near:
        if not u.clause or len(claim & u.part.words) < max(MIN_SHARED, len(claim) - 1):
            continue
        if time_bound(p, u.part) and not time_bound(p, u.part, u.sentence) and (
                _elsewhere_else(p, u, claim)):
            return True
    return False
