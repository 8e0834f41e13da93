"""Session 25 (k197): what is paid for turned, a price the contexts give for nothing,
and what a unit says is open to someone denied them.

- A claim and a unit taking opposite stances on whether the same thing is paid for,
  in different words ("included" / "costs extra", "waived" / "charged", "complimentary"
  / "pay for", "free of charge" / "charged in full"), is a negation
  (`charges.turned_charge`); read of the clause that says it where a sentence says both
  ("X is free, but Y costs extra"); a condition or bound on one side only turns nothing.
- A price whose value the contexts state only as something else (an age, a count) is a
  key term no context has (`prices.unpriced`).
- "Y can't ..." against "open to X, including Y" (`inclusion.denied_inclusion`).
Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.charges import CHARGED, FREE, charge
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.prices import unpriced
from tests.support.offline import judged

_ROOM = ["Wi-Fi is included with every room."]
_FEE = ["The booking fee is waived for members."]
_CANCEL = ["Late cancellations are charged in full."]
_TOWELS = ["Towels are provided free of charge."]
_TOUR = ["The entry fee includes a guided tour."]
_GALLERY = ["Entry to the museum is free, but the special exhibition costs extra."]
_COTTAGE = ["Bedding and towels are included; cleaning is charged separately."]
_ADMIN = ["The admin fee is waived if you book online."]
_LOUNGE = ["Phone charging points are free to use in the lounge."]
_BAR = ["Guests pay for their own drinks at the bar."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_ROOM, "Wi-Fi costs extra.", True),
    (_ROOM, "Wi-Fi is included.", False),
    (_FEE, "Members are charged the booking fee.", True),
    (_FEE, "Members don't pay the booking fee.", False),
    (_CANCEL, "Late cancellations are free of charge.", True),
    (_CANCEL, "Late cancellations are not refunded.", False),
    (_TOWELS, "You have to pay for towels.", True),
    (_TOWELS, "Towels are free.", False),
    (_TOUR, "The guided tour costs extra.", True),
    (_TOUR, "A guided tour is included in the entry fee.", False),
    (_GALLERY, "The special exhibition is free.", True),
    (_GALLERY, "Museum entry costs extra.", True),
    (_GALLERY, "Entry to the museum is free.", False),
    (_GALLERY, "You pay extra for the special exhibition.", False),
    (_COTTAGE, "Cleaning is included.", True),
    (_COTTAGE, "Bedding costs extra.", True),
    (_COTTAGE, "Towels are included.", False),
    (_ADMIN, "The admin fee is charged if you book online.", True),
    (_ADMIN, "You don't pay the admin fee if you book online.", False),
    (_ADMIN, "The admin fee is charged.", False),  # (the unit's condition: not turned)
    (_LOUNGE, "You can charge your phone in the lounge.", False),
    (_BAR, "Drinks at the bar are complimentary.", True),
    (_BAR, "Guests pay for drinks at the bar.", False),
])
def test_charge_turned(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("text", "stance"), [
    ("Breakfast is included in the rate.", FREE),
    ("Breakfast isn't included.", CHARGED),
    ("Every room comes with Wi-Fi at no extra cost.", FREE),
    ("There is no charge for parking.", FREE),
    ("Members pay nothing for classes.", FREE),
    ("You don't have to pay for parking.", FREE),
    ("The hotel offers an extra bed on request.", None),
    ("Feel free to bring snacks.", None),
    ("You can charge your phone here.", None),
    ("Entry is free, but parking costs extra.", None),
])
def test_charge_stance(text: str, stance: str | None) -> None:
    assert charge(part(text)) == stance


_POOL = ["Day passes cost $14. Swimmers under 10 must be with an adult."]


@pytest.mark.parametrize(("answer", "flags"), [
    ("A day pass costs $10.", True),  # 10 is an age there, no price
    ("A day pass costs $14.", False),
    ("Swimmers under 10 must be with an adult.", False),
])
def test_price_given_for_nothing(an: Analyzer, answer: str, flags: bool) -> None:
    assert judged(an, _POOL, answer) is flags


def test_unpriced_reads_money_only() -> None:
    ctx = ["Lockers cost 50p.", "Groups of 6 get a discount."]
    assert unpriced("A group locker costs £6.", ctx, frozenset())
    assert not unpriced("A locker costs £0.50.", ctx, frozenset())
    assert not unpriced("A group locker costs £6.", ctx, frozenset({6.0}))  # (the question's)
    assert not unpriced("It takes 6 minutes.", ctx, frozenset())
    assert not unpriced("It costs £6.", ["Groups of 6 get a discount."], frozenset())


_WALK = ["The night walk is open to everyone, including children over 8."]
_LIST = ["The allotment waiting list is open to all residents of the parish, including tenants."]
_ROOMS = ["The library's study rooms are open to students and staff."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    (_WALK, "Children over 8 can't join the night walk.", True),
    (_WALK, "Children over 8 can join the night walk.", False),
    (_WALK, "Children under 8 can't join the night walk.", False),  # (a bound of its own)
    (_LIST, "Tenants are not allowed to join the allotment waiting list.", True),
    (_LIST, "Tenants can join the allotment waiting list.", False),
    (_ROOMS, "Staff cannot use the study rooms.", True),
    (_ROOMS, "Students can use the study rooms.", False),
    (["The gym is open to 9pm on Fridays."], "You can't train after 9pm on Fridays.", False),
    (["The contest is open to amateur painters only."],
     "Professional painters can't enter the contest.", False),
])
def test_inclusion_denied(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    # "open to X, including Y" grants Y leave: "Y can't ..." denies it
    assert judged(an, contexts, answer) is flags
