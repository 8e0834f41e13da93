"""Session 10 of issue #38: two readings of a claim's scope.

- "Of course, ..." opens an answer as "Yes, ..." does: its "course" is no word of the
  claim, so a claim that drops the context's exception still restates it closely
  enough to be read against it (and a faithful one is not flagged);
- a claim's own bound ("anyone 16 or older", "children 5 and under") restricts it as the
  context's "aged 16 and over" does: keeping the bound is not dropping it.
Each in other words and domains than the probes.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from tests.support.offline import assert_judged

GAMES = ["You may borrow up to three board games at a time, except during tournament "
         "weekends."]
POTTERY = ["Adults aged 18 and over can join the evening pottery class."]
FARM = ["Children 3 and under visit the farm park free of charge."]


@pytest.mark.parametrize("opener", ["Of course", "Sure thing"])
def test_a_phrase_opener_is_no_word_of_the_claim(opener: str) -> None:
    words = part(f"{opener}, you can borrow up to three board games at a time.").words
    assert not words & {"cours", "thing", "problem"}, words


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (GAMES, "Of course, you can always borrow up to three board games at a time.", True),
    (GAMES, "Of course! You can borrow up to three board games at a time, except during "
            "tournament weekends.", False),
])
def test_of_course_answers_are_read_against_the_exception(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags)


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (POTTERY, "Anyone 18 or older can join the evening pottery class.", False),
    (POTTERY, "Anyone can join the evening pottery class.", True),
    (FARM, "Kids 3 and under get into the farm park for free.", False),
])
def test_a_claims_own_bound_keeps_the_restriction(
        an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags=flags)


def test_a_bound_restricts_a_part() -> None:
    assert part("Anyone 18 or older can join.").restricted
    assert part("Children 5 and under travel free.").restricted
    assert not part("Anyone can join.").restricted
