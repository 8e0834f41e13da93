"""Session 22: a claim's figure that the contexts attach to something else. A figure
counts what its slot of the contexts is about; a claim that gives the figure of one slot
to the thing another slot (saying more of the claim's words) prices otherwise is a
number change, though its figure occurs in the contexts. Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_LANES = ["Evening lanes (6-10pm) cost £15 for 50 minutes.", "Daytime lanes cost £9."]
_GALLERY = ["Members pay 6 GBP. Visitors pay 11 GBP, and under 16 go free."]
_CLASSES = ["Classes cost £30 per head, or £25 each for bookings of six or more."]
_KENNEL = ["A kennel costs £20 per night for one dog and £31 per night for two dogs sharing."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the figure of another slot, given to the thing this one prices
    (_LANES, "Evening lanes cost £9 for 50 minutes.", True),
    (_CLASSES, "For bookings of six or more it's £30 per head.", True),  # (qualifiers.py)
    (["A night in a dorm bed costs 25 EUR.", "The night bus runs every 40 minutes."],
     "A night in a dorm bed costs 40 EUR.", True),  # (a figure of nothing priced)
    # a figure the contexts give as an age, a rate of the other charge (flagged before)
    (["Plasma donors must weigh at least 40 kg and be aged between 18 and 60."],
     "You need to weigh at least 60 kg to give plasma.", True),
    (["The daily standing charge is 47 pence.", "The unit rate is 30 pence per kWh."],
     "The standing charge is 30p per day, and the unit rate is 30p per kWh.", True),
    pytest.param(["Riders must be at least 120 cm tall and aged between 8 and 65."],
                 "You need to be at least 65 cm tall to ride.", True,
                 marks=known_limit("the age's slot shares too few of the claim's words")),
    # faithful: each figure with its own slot's words
    (["Plasma donors must weigh at least 40 kg and be aged between 18 and 60."],
     "You need to weigh at least 40 kg to give plasma.", False),
    (["The daily standing charge is 47 pence.", "The unit rate is 30 pence per kWh."],
     "The standing charge is 47p per day, and the unit rate is 30p per kWh.", False),
    (_LANES, "Daytime lanes cost £9.", False),
    (_LANES, "An evening lane is £15 for 50 minutes.", False),
    (_GALLERY, "Visitors pay 11 GBP and under-16s go free.", False),
    (_CLASSES, "Bookings of six or more pay £25 each.", False),
    (_KENNEL, "Two dogs sharing a kennel cost £31 per night.", False),
    (["Adult passes (ages 18-64) cost £40 and junior passes £22."],
     "An adult pass, for ages 18 to 64, is £40.", False),
    (["Members may rent a locker every 12 weeks and guests every 16 weeks."],
     "Members can rent a locker once every 84 days.", False),
])
def test_a_figure_is_the_one_its_slot_gives(an: Analyzer, contexts: list[str], answer: str,
                                            flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
