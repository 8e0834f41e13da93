"""Session 28 (k235): negations a reader sees without a mirrored "not": an aspect
("no longer" / "still") and a ban carried by an active verb ("prohibits", "forbids")."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.carried_negation import aspect_marker
from tests.support.offline import judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("ctx", "ans"), [
    ("The ferry company no longer runs a night crossing.",
     "The ferry company still runs a night crossing."),
    ("Our bakery still delivers bread to the village.",
     "Our bakery no longer delivers bread to the village."),
    ("The marina forbids jet skis in the harbour.", "Jet skis are allowed in the harbour."),
    ("The allotment society prohibits bonfires on the plots.",
     "Bonfires are permitted on the plots."),
])
def test_turned_without_mirrored_not(an: Analyzer, ctx: str, ans: str) -> None:
    assert judged(an, [ctx], ans)


@pytest.mark.parametrize(("ctx", "ans"), [
    ("The ferry company no longer runs a night crossing.",
     "The night crossing is not run by the ferry company any more."),
    ("Our bakery still delivers bread to the village.",
     "Our bakery delivers bread to the village."),
    ("The marina forbids jet skis in the harbour.", "Jet skis are not allowed in the harbour."),
    ("The allotment society prohibits bonfires on the plots.",
     "Bonfires are not permitted on the plots."),
])
def test_same_polarity_in_other_words(an: Analyzer, ctx: str, ans: str) -> None:
    assert not judged(an, [ctx], ans)


def test_aspect_marker_leaves_bounds_and_adjectives() -> None:
    assert aspect_marker(("we", "no", "longer", "print"), 2)
    assert not aspect_marker(("no", "longer", "than", "an", "hour"), 1)
    assert aspect_marker(("we", "still", "print"), 1)
    assert not aspect_marker(("the", "still", "water"), 1)
    assert not aspect_marker(("still", "water", "is", "free"), 0)


def test_at_no_cost_is_free(an: Analyzer) -> None:
    ctx = ["The starter binder is given at no cost to new volunteers."]
    assert judged(an, ctx, "New volunteers have to pay for the starter binder.")
    assert not judged(an, ctx, "New volunteers get the starter binder for free.")


def test_a_ban_said_by_act_or_by_leave(an: Analyzer) -> None:
    ctx = ["Passengers may not carry open drinks onto the tram."]
    assert not judged(an, ctx, "Carrying open drinks onto the tram is not allowed.")
    assert judged(an, ctx, "Passengers may carry open drinks onto the tram.")
