"""Session 23 (issue #38, scope): a claim that says something of all of a kind, or of a
bare plural read as all of it ("Apprentices earn the full wage"), where the sentence it
restates says it of a part only and another sentence of the contexts says something
else of another part ("Younger apprentices are paid a training rate"): the contexts
partition the kind, so the claim widens it. Cases in words of our own, none from a
probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_WAGE = ["Apprentices over 21 earn the full wage. Younger apprentices are paid a "
         "training rate."]
_PLOTS = ["Plots on the north field come with a shed. Other plots share a tool store "
          "by the gate."]
_LOCKERS = ["Lockers and showers are free for season ticket holders. Other swimmers can "
            "rent a locker for £1."]
_HIRE = ["Canoes can be hired by the hour. Guided kayaks must be booked a day ahead."]
_WIFI = ["Wi-Fi is free in every cabin. Family cabins sleep six."]
_SEEDS = ["Seed packets are posted free of charge. Heavy seed trays are sent by courier."]



@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # a part given, another part said otherwise: the claim widens it (missed before)
    (_WAGE, "Apprentices earn the full wage.", True),
    # ... the part named in other words, so that no unit restates the claim
    (_LOCKERS, "Yes, lockers and showers are free for every swimmer.", True),
    (["Riders aged 12 and over can steer the pony cart. Younger children sit beside "
      "the driver."], "Yes, children can steer the pony cart.", True),
    pytest.param(_HIRE, "Yes, all our canoes and kayaks can be hired by the hour.", True,
                 marks=known_limit("the claim is split before 'and kayaks', a clause "
                                   "with no quantifier of its own")),
    (_PLOTS, "Every plot comes with a shed.", True),  # (flagged before too)
    # near-misses that keep passing: the part restated, the claim made general by the
    # contexts, another part that says the same, another sentence on something else
    (_WAGE, "Apprentices over 21 earn the full wage.", False),
    (_WAGE, "Apprentices aged over 21 are paid the full wage.", False),
    (_PLOTS, "Only plots on the north field come with a shed.", False),
    (_WIFI, "All cabins have free Wi-Fi.", False),
    (_WIFI, "Cabins have free Wi-Fi.", False),
    (_LOCKERS, "Season ticket holders get free lockers and showers.", False),
    (_HIRE, "Canoes can be hired by the hour.", False),
    (_SEEDS, "Seed packets are posted free.", False),
    (["Hire bikes are lent for 3 hours. Late bikes are then charged a fee."],
     "Bikes are lent for 3 hours before a fee is charged.", False),
    (["Children under 12 sail free. Older children pay half the adult fare."],
     "Under-twelves sail free.", False),
    # another part in another document: no split of this one's kind
    (["Apprentices over 21 earn the full wage.", "Younger apprentices are paid a "
      "training rate."], "Apprentices earn the full wage.", False),
    (["Apprentices earn the full wage. Younger apprentices also get a travel card."],
     "Apprentices earn the full wage.", False),
    (["Gold members get free towels. Other members get free towels as well."],
     "All members get free towels.", False),
])
def test_a_part_said_otherwise(an: Analyzer, contexts: list[str], answer: str,
                               flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    pytest.param(["Deposits for cancelled bookings are returned within a week."],
                 "Deposits are returned within a week.", True,
                 marks=known_limit("a restriction dropped with no other part named in the "
                                   "contexts reads as a paraphrase")),
    pytest.param(["Bookings are taken by phone, online or at the desk."],
                 "You can only book by phone.", True,
                 marks=known_limit("'only' of one of several ways the unit lists, the "
                                   "claim in other words than the unit's")),
])
def test_scope_limits_left(an: Analyzer, contexts: list[str], answer: str,
                           flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
