"""Session 24 (k180): negation flips the judge passed.

A four-letter -ed form is read as its base less the "d" ("used" is "use", "owed"
"owe"), so a passage's "X is not used" meets a claim's "we use X" (before, the base
"us" was too short to read and the flip passed). A clause granting something under its
sentence's condition ("may X if C") is no longer excused against a claim that flatly
denies it ("may not X"), where the claim says nothing the sentence lacks, no condition
and no figure: a flat denial contradicts a conditional grant. The excuse stays for a
negated clause ("should not X if C" / "you can X"). Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.inflection import bases
from ragassay.judge.offline.lexical import stem
from tests.support.offline import judged, known_limit

_PAINT = ["Oil paint is not used in the children's class; pupils work with poster paint."]
_WINE = ["Guests may bring their own wine if they pay a corkage fee of £5."]
_RETURNS = ["Items can be returned within 30 days if they are unopened."]
_DOGS = ["Dogs are allowed in the orchard if they are kept on a lead."]


def test_short_ed_forms_read_as_base() -> None:
    assert stem("use") in bases(("used",))
    assert stem("owe") in bases(("owed",))
    assert stem("tie") in bases(("tied",))
    assert not bases(("need",))  # no -ed form
    assert not bases(("seed", "red", "bed"))


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the passage's "not used" turned into an active "uses": caught now
    (_PAINT, "The children's class uses oil paint.", True),
    (_PAINT, "Yes, oil paint is used in the children's class.", True),
    # faithful restatements in either voice stay unflagged
    (_PAINT, "The children's class does not use oil paint.", False),
    (_PAINT, "Oil paint isn't used in the children's class.", False),
])
def test_negated_short_verb_in_either_voice(an: Analyzer, contexts: list[str], answer: str,
                                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a flat denial of a conditional grant: caught now
    (_WINE, "Guests may not bring their own wine.", True),
    (_DOGS, "Dogs are not allowed in the orchard.", True),
    (_RETURNS, "Items can't be returned.", True),
    # the grant restated with its condition, or its excluded case named in own words
    (_WINE, "Guests may bring their own wine if they pay corkage.", False),
    (_WINE, "Guests may not bring their own wine unless they pay a corkage fee.", False),
    (_RETURNS, "Opened items can't be returned.", False),
    (_RETURNS, "Items can't be returned after 30 days.", False),
    # a negated clause under a condition against a flat positive claim: left alone
    (["You should not swim in the lake if a red flag is flying."], "You can swim in the lake.",
     False),
])
def test_flat_denial_of_conditional_grant(an: Analyzer, contexts: list[str], answer: str,
                                          flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@known_limit("a denial restating the condition with 'without' is read as a flip of the "
             "grant by another rule (flagged before this session too)")
def test_denial_without_the_condition(an: Analyzer) -> None:
    assert not judged(an, _WINE, "You can't bring your own wine without a corkage fee.")


def test_denial_of_restricted_availability(an: Analyzer) -> None:
    ctx = ["Next-day printing is available for orders placed before noon, at a surcharge."]
    assert judged(an, ctx, "Sorry, we don't offer next-day printing.")  # (k185 mended it)
