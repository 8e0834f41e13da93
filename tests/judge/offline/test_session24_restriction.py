"""Session 24 (issue #38, scope): a restriction on whom or what a fact applies to, dropped
so that it becomes everyone's (`subject_scope.restriction_dropped`): the unit's subject
narrowed ("Members of the Rewards Club", "Landlords letting more than three rooms",
"Guests who book directly") and the claim keeping its bare noun or no subject; a
quantified noun bounded by a figure ("of 6 months or more", "at least 48 hours ahead"); a
condition whose other case the unit states ("if ...; otherwise it costs £3"); a recurring
time narrowed by "during" ("on weekend afternoons during the summer holidays"). Both
directions: the widened answers flagged, and near-misses (the restriction restated or
asked about, a subject that restricts nothing, a side clause left out) that stay
unflagged. Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import evidence, flagged, judged

_WRAPPING = ["Members of the Rewards Club get free gift wrapping on every order. Orders "
             "ship within two days."]
_LICENCE = ["Landlords letting more than three rooms pay an annual licence fee of £300."]
_BREAKFAST = ["Guests who book directly receive a free breakfast every morning."]
_PADLOCK = ["Hire periods of 6 months or more include a free padlock."]
_DESSERT = ["Tables booked at least 48 hours ahead get a complimentary dessert."]
_TOURS = ["Guided tours are offered to groups of 8 or more on weekday mornings."]
_PARKING = ["Parking at the library is free on the last Friday of each month."]
_STORAGE = ["Bag storage is free if you show a museum ticket; otherwise it costs £3."]
_GARDENERS = ["Our gardeners water the greenhouse plants every evening."]
_COURTS = ["Court hire is £12 per hour, with a discount after the first hour."]
_LIFEGUARDS = ["Lifeguards patrol the north beach on weekend afternoons during the summer "
               "holidays."]
_REPORT = ["Volunteers at the harbour branch collected 300 kilos of litter last spring."]


@pytest.mark.parametrize(("contexts", "answer"), [
    # the subject's restriction dropped: its bare noun, or no subject at all
    (_WRAPPING, "Gift wrapping is free on every order."),
    (_LICENCE, "Landlords pay an annual licence fee of £300."),
    (_BREAKFAST, "Guests receive a free breakfast every morning."),
    # a quantified noun the unit bounds by a figure
    (_PADLOCK, "Every hire period includes a free padlock."),
    (_DESSERT, "Any table booked ahead gets a complimentary dessert."),
    (_TOURS, "Guided tours are offered to groups of any size on weekday mornings."),
    # a condition dropped whose other case the unit states
    (_STORAGE, "Bag storage is free."),
    # a recurring time said without the season "during" narrows it to
    (_LIFEGUARDS, "Lifeguards patrol the north beach on weekend afternoons."),
])
def test_restriction_dropped_is_flagged(an: Analyzer, contexts: list[str],
                                        answer: str) -> None:
    assert judged(an, contexts, answer) is True


@pytest.mark.parametrize(("contexts", "answer"), [
    # the restriction restated, in its words or others
    (_WRAPPING, "Rewards Club members get free gift wrapping on every order."),
    (_LICENCE, "Landlords letting more than three rooms pay a £300 annual licence fee."),
    (_PADLOCK, "Every hire period of 6 months or more includes a free padlock."),
    (_TOURS, "Guided tours are offered to groups of 8 or more on weekday mornings."),
    (_PARKING, "Parking at the library is free on the last Friday of the month."),
    (_STORAGE, "Bag storage is free if you show your museum ticket."),
    (_LIFEGUARDS, "During the summer holidays, lifeguards patrol the north beach on "
     "weekend afternoons."),
    # a subject that restricts nothing; a noun the unit names unranked too
    (_GARDENERS, "The greenhouse plants are watered every evening."),
    (_COURTS, "Court hire is £12 per hour."),
    # a side sentence left out
    (_WRAPPING, "Orders ship within two days."),
    # a report of what some did, no rule or benefit of whom it names
    (_REPORT, "Volunteers collected 300 kilos of litter last spring."),
])
def test_restriction_kept_is_not_flagged(an: Analyzer, contexts: list[str],
                                         answer: str) -> None:
    assert judged(an, contexts, answer) is False


@pytest.mark.parametrize(("contexts", "question", "answer"), [
    # the question names the restriction: the answer's "you" is its case
    (_WRAPPING, "Do Rewards Club members get free gift wrapping?",
     "Yes, gift wrapping is free on every order."),
    (_STORAGE, "Is bag storage free if I show a museum ticket?", "Yes, bag storage is free."),
    (_LIFEGUARDS, "Is the north beach patrolled during the summer holidays?",
     "Yes, lifeguards patrol the north beach on weekend afternoons."),
])
def test_restriction_in_question_is_not_flagged(an: Analyzer, contexts: list[str],
                                                question: str, answer: str) -> None:
    assert flagged(evidence(an, contexts, answer, question)) is False


def test_rank_dropped(an: Analyzer) -> None:
    assert judged(an, _PARKING, "Parking at the library is free on Fridays.") is True
