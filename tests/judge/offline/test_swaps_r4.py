"""Round 4 of issue #38: a property moved to another entity the contexts describe, and
an object swapped for new words sharing its head word.

- a clause of a context sentence ("... and includes parental controls") whose subject
  is its sentence's ("The Family plan"): a claim giving it to the subject of another
  sentence ("The Duo plan includes parental controls") is an entity swap, though the
  claim holds the clause's words;
- "a brass padlock key" where the context says "the blue key card": the head word kept,
  two new words no context has put before it, is a detail stated in no context.
Counter-cases: the right entity, the context's own object in other order.
In other words than the probe batches."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

PLANS = ["The Duo plan allows 2 simultaneous streams.",
         "The Family plan allows 6 simultaneous streams and includes parental controls."]
KENNELS = ["The Maple kennel houses small dogs.",
           "The Rosewood kennel houses large dogs and has a heated floor."]
LOCKER = ["The locker opens with the blue key card."]
SHED = ["The garden shed is locked with a steel combination padlock."]


@pytest.mark.parametrize(("contexts", "answer", "kind"), [
    # a clause given to another subject is an entity swap
    (PLANS, "The Duo plan includes parental controls.", "entity"),
    (KENNELS, "The Maple kennel has a heated floor.", "entity"),
    # the clause with its own subject passes
    (PLANS, "The Family plan includes parental controls.", None),
    (KENNELS, "The Rosewood kennel has a heated floor.", None),
])
def test_a_clause_keeps_its_own_subject(an: Analyzer, contexts: list[str], answer: str,
                                        kind: str | None) -> None:
    assert_judged(an, contexts, answer, flags=kind is not None, kind=kind)


@pytest.mark.parametrize(("contexts", "answer", "new"), [
    # an object swapped for new words is flagged
    (LOCKER, "The locker opens with a brass padlock key.", "brass padlock"),
    (SHED, "The garden shed is locked with a rusty chain padlock.", "rusty chain"),
    # the context's object passes
    (LOCKER, "The locker opens with the blue key card.", None),
    (LOCKER, "You open the locker with its blue key card.", None),
    (SHED, "A steel combination padlock locks the garden shed.", None),
])
def test_an_object_is_the_contexts_or_new_words(an: Analyzer, contexts: list[str],
                                                answer: str, new: str | None) -> None:
    ev = assert_judged(an, contexts, answer, flags=new is not None)
    assert ev.unstated == [new], ev
