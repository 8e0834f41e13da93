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
from tests.support.offline import evidence as _ev
from tests.support.offline import flagged as _flagged

PLANS = ["The Duo plan allows 2 simultaneous streams.",
         "The Family plan allows 6 simultaneous streams and includes parental controls."]
KENNELS = ["The Maple kennel houses small dogs.",
           "The Rosewood kennel houses large dogs and has a heated floor."]
LOCKER = ["The locker opens with the blue key card."]
SHED = ["The garden shed is locked with a steel combination padlock."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (PLANS, "The Duo plan includes parental controls."),
    (KENNELS, "The Maple kennel has a heated floor."),
])
def test_a_clause_given_to_another_subject_is_an_entity_swap(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == ["entity"] and _flagged(ev), ev


@pytest.mark.parametrize(("contexts", "answer"), [
    (PLANS, "The Family plan includes parental controls."),
    (KENNELS, "The Rosewood kennel has a heated floor."),
])
def test_the_clause_with_its_own_subject_passes(an: Analyzer, contexts: list[str],
                                                answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == [None] and not _flagged(ev), ev


@pytest.mark.parametrize(("contexts", "answer", "new"), [
    (LOCKER, "The locker opens with a brass padlock key.", "brass padlock"),
    (SHED, "The garden shed is locked with a rusty chain padlock.", "rusty chain"),
])
def test_an_object_swapped_for_new_words_is_flagged(an: Analyzer, contexts: list[str],
                                                    answer: str, new: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.unstated == [new] and _flagged(ev), ev


@pytest.mark.parametrize(("contexts", "answer"), [
    (LOCKER, "The locker opens with the blue key card."),
    (LOCKER, "You open the locker with its blue key card."),
    (SHED, "A steel combination padlock locks the garden shed."),
])
def test_the_contexts_object_passes(an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.unstated == [None] and not _flagged(ev), ev
