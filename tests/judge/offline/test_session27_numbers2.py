"""Session 27 round 2 (k228): a figure's home is its event.

verb_homes.py, checked both ways: the content word right before a figure ("collected
900", "opens at 8am") is the event it is given to; a claim that gives a value to the
word the sentence gives another value has moved it to the wrong event.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.sentences import sentence_info
from ragassay.judge.offline.verb_homes import anchors
from tests.support.offline import judged

SHELTER = ["This winter the shelter took in 86 dogs and rehomed 59 of them."]
FERRY = ["Check-in opens 90 minutes before sailing and closes 30 minutes before."]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


def _anchors(text: str) -> list[tuple[float, str]]:
    info = sentence_info(text)
    return anchors(info.tokens, info.all_stems, frozenset(info.stems))


def test_the_word_a_figure_is_given_to() -> None:
    assert [n for n, _ in _anchors(SHELTER[0])] == [86.0, 59.0]
    assert _anchors("Tickets for 2 adults and 3 children.") == []  # no event word
    assert _anchors("It costs £5 per night.")[0][0] == 5.0


@pytest.mark.parametrize(("answer", "flags"), [
    ("This winter the shelter rehomed 86 dogs.", True),
    ("The shelter took in 59 dogs this winter.", True),
    ("This winter the shelter rehomed 59 of the 86 dogs it took in.", False),
    ("The shelter took in 86 dogs this winter.", False),
])
def test_a_figure_moved_to_another_event(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, SHELTER, answer) is flags


def test_the_same_word_with_both_values_is_no_move(an: Analyzer) -> None:
    ctx = ["Single rooms cost £40 a night and doubles cost £65."]
    assert judged(an, ctx, "Single rooms cost £40 a night.") is False
