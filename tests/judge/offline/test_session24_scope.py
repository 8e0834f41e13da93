"""Session 24 (issue #38, scope): a universal claim ("at every gym", "anywhere on the
campsite") against a unit that says the same of named or counted things in that place
(`named_place.named_in_place`), and an exception the claim drops when its only
restriction is its subject's bound, restated from the unit ("Adults over 65 ... on all
buses" for "... on all buses except the airport express": `dropped.drops_exception`).
Both directions: the widened answers flagged, and near-misses (the unit universal
itself, the whole of a kind counted, the place restated, a side clause left out) that
stay unflagged. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_SAUNA = ["Gold members can use the sauna at the Elm Street and Harbour Road branches. "
          "Towels are provided at reception."]
_REFILLS = ["Free refills are offered on the two house blends. Cakes are baked daily."]
_BARBECUES = ["Barbecues are allowed in the North Field. Quiet hours start at 11pm."]
_SAUNA_ALL = ["Gold members can use the sauna at all our branches, including Elm Street."]
_BEDROOMS = ["Our 12 bedrooms have a kettle and a hairdryer. Breakfast is served until "
             "10am."]
_WIFI = ["Free Wi-Fi is available throughout the Grand Hotel. Parking costs extra."]
_CAMPSITE = ["Barbecues are allowed anywhere on the campsite. Quiet hours start at 11pm."]
_BUSES = ["Adults over 65 can ride free on all buses except the airport express. Tickets "
          "for the express are sold on board."]
_HELMETS = ["Riders under 14 must wear a helmet on every trail except the gravel loop. "
            "The bike shop opens at 9am."]
_GARDENS = ["Entry to the gardens is free for residents, and the cafe, which reopened in "
            "May, serves lunch daily."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # the unit's named or counted things widened to all of a kind it never names
    (_SAUNA, "Gold members can use the sauna at every gym."),
    (_SAUNA, "Yes, Gold members can use the sauna at any of our gyms."),
    (_REFILLS, "Free refills are offered on any coffee."),
    (_BARBECUES, "Barbecues are allowed anywhere on the campsite."),
    (_BARBECUES, "Yes, barbecues are allowed anywhere."),
])
def test_named_things_widened_to_all(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer) is True


@pytest.mark.parametrize(("contexts", "answer"), [
    # the names restated, or said without any quantifier
    (_SAUNA, "Gold members can use the sauna at the Elm Street and Harbour Road branches."),
    (_SAUNA, "Towels are provided at reception."),
    (_REFILLS, "Free refills are offered on the two house blends."),
    (_BARBECUES, "Barbecues are allowed in the North Field."),
    (_BARBECUES, "Yes, you can have a barbecue in the North Field."),
    # the unit is universal itself, or says the whole place
    (_SAUNA_ALL, "Gold members can use the sauna at every branch."),
    (_WIFI, "Free Wi-Fi is available in every room."),
    (_CAMPSITE, "Barbecues are allowed anywhere on the campsite."),
    (_CAMPSITE, "Yes, you can have a barbecue anywhere on the campsite."),
    # the whole of a kind counted, no part named
    (_BEDROOMS, "Every room has a kettle and a hairdryer."),
])
def test_named_things_near_misses(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer) is False


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the exception dropped, the subject's bound restated (missed before)
    (_BUSES, "Adults over 65 can ride free on all buses.", True),
    (_HELMETS, "Riders under 14 must wear a helmet on every trail.", True),
    # near-misses: the exception kept, another sentence, the exception said in other
    # words
    (_BUSES, "Adults over 65 can ride free on all buses except the airport express.", False),
    (_BUSES, "Tickets for the express are sold on board.", False),
    (_HELMETS, "Riders under 14 must wear a helmet on every trail except the gravel loop.",
     False),
    (_HELMETS, "Yes, riders under 14 must wear a helmet on every trail apart from the "
     "gravel loop.", False),
    (_HELMETS, "The bike shop opens at 9am.", False),
])
def test_exception_dropped_under_a_bound(an: Analyzer, contexts: list[str], answer: str,
                                         flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize("answer", [
    # a side clause left out: still faithful
    "Entry to the gardens is free for residents.",
    "Residents get into the gardens free.",
    "The cafe serves lunch daily.",
])
def test_side_clause_left_out(an: Analyzer, answer: str) -> None:
    assert judged(an, _GARDENS, answer) is False
