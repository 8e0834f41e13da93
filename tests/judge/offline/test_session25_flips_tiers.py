"""Session 25 (k188): permissions and inclusions turned, and one figure given to another
count or another tier.

- "prohibited", "banned", "excluded" are the antonyms of "allowed", "permitted",
  "covered": a claim saying the one of what the context says the other is turned, and
  a claim saying "not covered" of what a clause says is "excluded" agrees, though
  another clause of the sentence says "covered" of something else.
- "while you ..." opens a condition, read with the clause it conditions, as "if" does:
  "You can X while you have Y" against "You should not X while you have Y".
- A figure whose noun is left unsaid counts what the figure before it counts, in a
  coordinated clause ("we planted 500 trees and lost 120 to drought": 120 trees) or
  after the same verb ("Bronze members get 2 passes, Silver members get 6": 6 passes).
- A verb-opened clause after a semicolon takes the subject of the nearest clause with a
  subject of its own, not the sentence's first ("A costs ... and includes 5 seats; B
  costs ... and includes 20 seats": B includes 20).
Cases in words of our own.

Withdrawn in session 25 (strict xfails below): the cover/exclude antonyms, "while you"
as a condition and the elided-noun figure each turned a correct held-out answer wrong
(counts only, found by switching k188's readings off one at a time); the qualifier both
sides state, the framing phrase of a figure's sentence, a clause speaking for its
sentence (`sibling.own_clause`) and the tier subject after a semicolon stay."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_WITHDRAWN = pytest.mark.xfail(strict=True, reason="known limit: the reading was withdrawn "
                               "after held-out answers went wrong (session 25)")

_DENTAL = ["Routine check-ups are covered under the standard plan; cosmetic whitening is "
           "excluded."]
_THEFT = ["Loss of keys is excluded from this home policy."]
_HALL = ["Outside food and drinks are prohibited in the concert hall."]
_DIVING = ["You should not dive while you have a sinus infection; wait until it has fully "
           "cleared."]
_ORCHARD = ["This spring we grafted 60 apple trees and lost 9 to frost. About 12 helpers "
            "joined us."]
_SHELTER = ["Last month we took in 85 kittens and rehomed 52 through the website."]
_SEATS = ["The Team plan costs $12 a month and includes 5 seats; the Studio plan costs $30 "
          "a month and includes 25 seats."]
_STALLS = ["Adults pay £8 and children pay £4, while members get in free."]
_GUARANTEE = ["The guarantee covers faulty stitching but excludes wear from daily use."]
_LOCKERS = ["Day members get 1 locker key, weekly members get 3, and annual members get 5."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_DENTAL, "Cosmetic whitening is covered under the standard plan.", True),
    (_DENTAL, "Cosmetic whitening isn't covered by the standard plan.", False),
    (_DENTAL, "Routine check-ups are covered under the standard plan.", False),
    (_THEFT, "Loss of keys is covered by this home policy.", True),
    (_THEFT, "Loss of keys is not covered by this home policy.", False),
    (_HALL, "Outside food and drinks are allowed in the concert hall.", True),
    (_HALL, "Outside food and drinks are not allowed in the concert hall.", False),
    pytest.param(_GUARANTEE, "The guarantee covers wear from daily use.", True,
                 marks=_WITHDRAWN),
    (_GUARANTEE, "The guarantee doesn't cover wear from daily use.", False),
    (_GUARANTEE, "The guarantee covers faulty stitching.", False),
])
def test_permission_and_cover_antonyms(an: Analyzer, contexts: list[str], answer: str,
                                       flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


# (read again since session 27, narrower: a "while" clause joins only a clause too short
# to be aligned alone, "You should not dive", conditions.py)
@pytest.mark.parametrize(("answer", "flags"), [
    ("You can dive while you have a sinus infection.", True),
    ("You can dive while you have a sinus infection, as long as it has cleared.", True),
    ("No, you shouldn't dive while you have a sinus infection.", False),
])
def test_while_condition(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, _DIVING, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    pytest.param(_ORCHARD, "This spring 60 apple trees were lost to frost.", True,
                 marks=_WITHDRAWN),
    pytest.param(_ORCHARD, "This spring 9 apple trees were lost to frost.", False,
                 marks=_WITHDRAWN),
    (_SHELTER, "Last month the shelter rehomed 85 kittens through the website.", True),
    pytest.param(_SHELTER, "Last month the shelter rehomed 52 kittens through the website.", False,
                 marks=_WITHDRAWN),
    (_SHELTER, "The shelter took in 85 kittens last month.", False),
])
def test_elided_noun_figure(an: Analyzer, contexts: list[str], answer: str,
                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("answer", "flags"), [
    pytest.param("Weekly members get 3 locker keys.", False,
                 marks=_WITHDRAWN),
    pytest.param("Annual members get 5 locker keys.", False,
                 marks=_WITHDRAWN),
    ("Weekly members get 5 locker keys.", True),
    pytest.param("Annual members get 1 locker key.", True,
                 marks=_WITHDRAWN),
])
def test_figure_after_the_same_verb(an: Analyzer, answer: str, flags: bool) -> None:
    # "..., weekly members get 3": 3 keys, the noun left unsaid after the same verb
    assert judged(an, _LOCKERS, answer) is flags


@pytest.mark.parametrize(("answer", "flags"), [
    ("The Studio plan includes 25 seats.", False),
    ("The Studio plan includes 25 seats and costs $30 a month.", False),
    ("The Team plan includes 5 seats.", False),
    ("The Studio plan includes 5 seats.", True),
    ("The Team plan includes 25 seats.", True),
])
def test_tier_subject_after_semicolon(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, _SEATS, answer) is flags


def test_contrastive_while_is_no_condition(an: Analyzer) -> None:
    # "while members ..." sets another subject beside the first: no condition to read
    assert judged(an, _STALLS, "Children pay £4.") is False
    assert judged(an, _STALLS, "Children pay £8.") is True
