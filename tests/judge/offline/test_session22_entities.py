"""Session 22: a claim that says what one context sentence says of its own named thing of
another named thing, one another sentence is about (`crossed.py`, issue #38's entity
swaps): the person, month or group moved into the other's fact. Cases in words of our
own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.crossed import crossed
from tests.support.offline import judged, units_of

_LAPTOPS = ["Laptop repairs are done by Marcus at the front desk.",
            "Helen looks after phone screens in the back office."]
_POTTERY = ["The pottery class is taught by Ruth in the garden studio.",
            "Dev runs the life drawing sessions upstairs."]
_KEYS = ["Keys handed in at the library are kept by Tomas at the issue desk.",
         "Greta sorts lost umbrellas in the basement store."]
_TALKS = ["March's talk is on beekeeping with Alan Price.",
          "In April, Nadia Khan will speak about composting."]
_RIDES = ["Our road bikes are carbon Giant frames; mountain rides are led on steel Dawes bikes."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # another sentence's person given this sentence's fact (passed before)
    (_LAPTOPS, "Helen does laptop repairs at the front desk.", True),
    (_POTTERY, "Dev teaches the pottery class in the garden studio.", True),
    (_KEYS, "Greta keeps the keys handed in at the library at the issue desk.", True),
    # ... and the pairing as the passages give it still passes, in other words, cited,
    # or with both things named right
    (_LAPTOPS, "Marcus does laptop repairs at the front desk.", False),
    (_POTTERY, "Ruth teaches the pottery class in the garden studio.", False),
    (_KEYS, "Tomas keeps keys handed in at the library at the issue desk.", False),
    (_LAPTOPS, "Laptop repairs are handled by Marcus at the front desk, and Helen looks "
               "after phone screens.", False),
    (_POTTERY, "Ruth teaches pottery in the garden studio [1], and Dev runs life drawing "
               "upstairs [2].", False),
    # a decline naming the other person
    (_POTTERY, "Sorry, I can't tell whether Dev teaches pottery.", False),
    # a month, a group of riders swapped (caught before too: kept)
    (_TALKS, "In March, Nadia Khan is speaking about composting.", True),
    (_TALKS, "Nadia Khan will talk about composting in April [2].", False),
    (_RIDES, "Road rides are led on steel Dawes bikes.", True),
    (_RIDES, "Mountain rides use steel Dawes bikes [1].", False),
])
def test_a_thing_moved_into_another_sentence_fact(an: Analyzer, contexts: list[str],
                                                  answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


def _crossed(contexts: list[str], claim: str) -> int | None:
    return crossed(part(claim), units_of(contexts))


def test_what_is_crossed() -> None:
    # the sentence whose fact is moved
    assert _crossed(_LAPTOPS, "Helen does laptop repairs at the front desk.") == 0
    # a bridge: the other sentence is about a place this one names (a faithful join)
    assert _crossed([*_LAPTOPS, "The front desk is open on Saturdays."],
                    "On Saturdays laptop repairs are done at the front desk.") is None
    # a pronoun: what the claim is about is not read here
    assert _crossed(_LAPTOPS, "She does laptop repairs at the front desk.") is None
    # a denial or a comparison is left alone
    assert _crossed(_LAPTOPS, "Helen does not do laptop repairs at the front desk.") is None
