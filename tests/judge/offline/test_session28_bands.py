"""Session 28: two groups told apart only by a bound on one shared figure ("under 12" /
"12 and over"), and a claim that gives one band the fact the passage ties to the other
(compared_sides.tied_elsewhere) flagged; each band's own fact restated, in other words
or with the band written another way, left alone. Sentences in our own wording."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_MUSEUM = ["Visitors under 16 enter the aquarium free.",
           "Visitors 16 and over pay a $14 entry fee."]
_LOANS = ["Repairs under $300 are paid from the reserve fund.",
          "Repairs over $300 need a vote of the board."]
_RINK = ["Skaters under 10 must skate with a steward.",
         "Skaters 10 and over can use the whole rink freely."]
_HIRE = ["Bookings of fewer than 4 nights pay a cleaning fee.",
         "Bookings of 4 or more nights get free cleaning."]

_SWAPS = [
    (_MUSEUM, "Visitors under 16 pay a $14 entry fee."),
    (_LOANS, "Repairs over $300 are paid from the reserve fund."),
    (_RINK, "Skaters under 10 can use the whole rink freely."),
    (_HIRE, "Bookings of 4 or more nights pay a cleaning fee."),
]

_KEPT = [
    (_MUSEUM, "Visitors under 16 enter the aquarium free."),
    (_MUSEUM, "Visitors 16 and older pay a $14 entry fee."),
    (_LOANS, "Repairs over $300 need a board vote."),
    (_RINK, "Skaters under 10 have to skate with a steward."),
    (_HIRE, "Bookings of fewer than 4 nights pay a cleaning fee."),
    (_HIRE, "Bookings of 4 or more nights get cleaning for free."),
    # the claim's band given with the claim's own fact elsewhere: a complement
    (["Tours go ahead with at least 6 guests.", "Tours with fewer than 6 guests are cancelled."],
     "Tours with fewer than 6 guests are cancelled."),
]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("contexts,answer", _SWAPS)
def test_a_band_given_the_other_bands_fact_is_flagged(an: Analyzer, contexts: list[str],
                                                      answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize("contexts,answer", _KEPT)
def test_a_bands_own_fact_is_left_alone(an: Analyzer, contexts: list[str],
                                        answer: str) -> None:
    assert not judged(an, contexts, answer)
