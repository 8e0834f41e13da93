"""Session 23: a claim's figure whose value the contexts give only counting something
else (an age, a floor, a distance) while a slot the claim speaks of gives what the
claim's figure counts another value: a number change, though the value occurs in the
contexts. Cases in words of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_PASSES = ["Day passes cost 14 EUR. Seniors pay 10 EUR, and under 6 ride free."]
_FLOORS = ["Storage on Floor 1 is limited to 6 months. Floor 4 is reserved for archives."]
_FERRY = ["Ferries are suspended if waves exceed 3 metres. "
          "Passengers must check in at least 45 minutes early."]
_LOANS = ["The loan period is 2 weeks.", "Room 14 is the quiet study room."]
_CAMPS = ["Camping at Camp 2 is limited to 3 nights. Camp 5 is for scout groups only."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the value counts another thing in the contexts; the claim's unit has another value
    (_CAMPS, "You can stay at Camp 2 for up to 5 nights.", True),
    (["Guided walks cost £12. Students pay £7, and dogs over 9 kg must stay on a lead."],
     "A student place on a walk costs £9.", True),
    (_FERRY, "Ferries are called off if the waves go above 45 metres.", True),  # (an "if")
    # faithful: the value with what it counts, in other words or another clause
    (_PASSES, "Seniors pay 10 EUR.", False),
    (_PASSES, "Under-6s ride free, and seniors pay 10 EUR.", False),
    (_PASSES, "Kids under 6 get in free.", False),
    (_FLOORS, "Items on Floor 1 can be stored for up to 6 months.", False),
    (_FLOORS, "Floor 4 is kept for archives.", False),
    (_FERRY, "If the waves are higher than 3 metres, ferries are suspended.", False),
    (_FERRY, "Ferries are called off if the waves go above 3 metres.", False),
    (_FERRY, "Check in at least 45 minutes before you sail.", False),
    (_LOANS, "You can keep a loan for 14 days.", False),  # (2 weeks, not room 14)
    (_CAMPS, "Camping at Camp 2 is allowed for up to 3 nights.", False),
    (_CAMPS, "Camp 5 is only for scout groups.", False),
    (["Adult tickets cost £9 and child tickets (ages 4-15) cost £5.",
      "Passes for children are valid for 2 years."],
     "Children from 4 to 15 years pay £5.", False),  # (the ages in other words)
    # a rival that shares one word (one word was enough on dev, but flagged a held-out
    # cited answer): 6 is no price there, a price given for nothing (session 25,
    # prices.unpriced)
    (_PASSES, "A senior pass costs 6 EUR.", True),
    # the value's own slot a bracket of the rival's clause: no price there either
    (["Adult passes cost £30 and junior passes (ages 5-15) cost £12."],
     "Juniors aged 5 to 15 pay £5.", True),
])
def test_a_value_that_counts_something_else(an: Analyzer, contexts: list[str],
                                            answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer"), [
    (["The shop closes on 24 December and reopens on 2 January."],
     "The shop reopens on 24 December."),  # a date's day of another slot (session 23b)
    (["The quiz runs on the first Tuesday; the book club meets on the second Tuesday."],
     "The quiz is on the second Tuesday of the month."),  # a weekday's rank (23b)
])
def test_a_date_or_rank_of_another_slot(an: Analyzer, contexts: list[str],
                                        answer: str) -> None:
    assert judged(an, contexts, answer)
