"""Session 28: the two parties of one relation exchanged in a claim that otherwise says
the context sentence's words (parties.py, through contradiction.role_swap) flagged; the
same parties in the same roles, reworded, in the passive, or with the object fronted,
left alone. Sentences in our own wording."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged

_SWAPS = [
    (["The agency pays the translator within 30 days of each job."],
     "The translator pays the agency within 30 days of each job."),
    (["The coach emails parents the match schedule every Monday."],
     "Parents email the coach the match schedule every Monday."),
    (["The seller refunds the buyer if the item arrives damaged."],
     "The buyer refunds the seller if the item arrives damaged."),
]

_KEPT = [
    (["The agency pays the translator within 30 days of each job."],
     "The translator is paid by the agency within 30 days of each job."),
    (["The coach emails parents the match schedule every Monday."],
     "Every Monday the coach emails parents the match schedule."),
    (["The seller refunds the buyer if the item arrives damaged."],
     "If the item arrives damaged, the seller refunds the buyer."),
    (["Volunteers and staff share the kitchen on weekdays."],
     "Staff and volunteers share the kitchen on weekdays."),
    (["Orders over $40 ship free to members."], "Members get free shipping on orders over $40."),
    (["The deadline for entries is Friday."], "Friday is the deadline for entries."),
]


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize("contexts,answer", _SWAPS)
def test_parties_exchanged_are_flagged(an: Analyzer, contexts: list[str], answer: str) -> None:
    assert judged(an, contexts, answer)


@pytest.mark.parametrize("contexts,answer", _KEPT)
def test_the_same_parties_reworded_are_left_alone(an: Analyzer, contexts: list[str],
                                                  answer: str) -> None:
    assert not judged(an, contexts, answer)
