"""Session 27, round 2: polarity read claim by claim (issue #38).

Each reading is checked both ways: it flags the turned claim, and stays silent on a
faithful restatement of the same facts in other words. Sentences are our own.
"""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.all_times import all_times_turned
from ragassay.judge.offline.charges import FREE, charge
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.unless_without import must_as_without
from tests.support.offline import judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


# --- a denied word and its prefixed antonym agree ("haven't registered" / "unregistered")

def test_unprefixed_denial_restates_the_privative(an: Analyzer) -> None:
    ctx = ["Unlicensed drivers cannot hire the vans."]
    assert not judged(an, ctx, "Drivers who aren't licensed can't hire the vans.")
    assert judged(an, ctx, "Drivers who aren't licensed can hire the vans.")


# --- indoors / outdoors

def test_indoors_against_outdoors(an: Analyzer) -> None:
    ctx = ["The pottery workshop is held indoors in the barn."]
    assert judged(an, ctx, "The pottery workshop is held outdoors.")
    assert not judged(an, ctx, "The pottery workshop is held indoors in the barn.")


# --- "sold out" against "available": the stance word's lemma is no word of the subject

def test_sold_out_against_still_available(an: Analyzer) -> None:
    ctx = ["Places on the Friday canoe trip are sold out."]
    assert judged(an, ctx, "Places on the Friday canoe trip are still available.")
    assert not judged(an, ctx, "The Friday canoe trip is sold out.")


# --- exempt from a price against paying it

def test_exempt_reads_as_at_no_charge() -> None:
    assert charge(part("Carers are exempt from the entry fee.")) == FREE
    assert charge(part("Carers are exempt from jury service.")) is None


def test_exempt_against_paying(an: Analyzer) -> None:
    ctx = ["Carers are exempt from the entry fee."]
    assert judged(an, ctx, "Carers have to pay the entry fee.")
    assert not judged(an, ctx, "Carers don't have to pay the entry fee.")


# --- "can't X without Y" is "must Y to X"

def test_must_restates_cannot_without() -> None:
    need, denial = part("You must show a receipt to swap an item."), part(
        "You can't swap an item without a receipt.")
    assert must_as_without(need, denial, 1) == 1
    assert must_as_without(need, denial, 0) == 0  # (no denial counted against it)
    assert must_as_without(part("You can swap an item without a receipt."), denial, 1) == 0


def test_double_negative_judged(an: Analyzer) -> None:
    ctx = ["Climbers cannot use the top wall without a belay test."]
    assert not judged(an, ctx, "Climbers must pass a belay test before using the top wall.")
    assert judged(an, ctx, "Climbers can use the top wall without a belay test.")


# --- every time against a denial at some time

def test_all_times_reading() -> None:
    every = part("The ward pharmacy is staffed around the clock.")
    assert all_times_turned(part("The ward pharmacy is not staffed overnight."), every)
    assert all_times_turned(every, part("The ward pharmacy is not staffed overnight."))
    assert not all_times_turned(part("The ward pharmacy is staffed overnight."), every)
    # (another subject says nothing of the pharmacy)
    assert not all_times_turned(part("The ward shop is not open overnight."), every)
    # (a condition of its own)
    assert not all_times_turned(
        part("The ward pharmacy is not staffed overnight unless there is an emergency."), every)


def test_all_times_judged(an: Analyzer) -> None:
    ctx = ["The breakdown hotline is answered 24/7."]
    assert judged(an, ctx, "The breakdown hotline is not answered at weekends.")
    assert not judged(an, ctx, "The breakdown hotline is answered 24/7.")
