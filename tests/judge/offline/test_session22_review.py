"""Session 22's review (b): faithful answers the session's new rules flagged, each a
class (crossed.py: two sentences joined, the other's figure said too; hours.py: a day
list cut after the hours; both.py: the second case stated in other words beside a
figure). Cases in the reviewer's words, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # crossed.py: a claim joining two sentences says the other's own figure too
    (["The probation period lasts 12 weeks. New starters get 25 days of annual leave."],
     "Probation lasts 12 weeks, and you get 25 days of annual leave.", False),
    # hours.py: the days after the hours, cut into clauses of their own, still count
    (["The pharmacy opens from 9am to 6pm on weekdays, and from 9am to 6pm on Saturdays "
      "and Sundays too."],
     "The pharmacy is open from 9am to 6pm every day of the week.", False),
    (["The pharmacy opens from 9am to 6pm on weekdays, and from 9am to 1pm on Saturdays."],
     "The pharmacy is open from 9am to 6pm every day of the week.", True),
    # both.py: the second case said in other words, with a figure of its own
    (["Our Leeds office offers free parking for visitors. The York office has a free car "
      "park for guests with 10 spaces."],
     "Both offices offer free parking for visitors.", False),
    (["Our Leeds office offers free parking for visitors. The York office has no parking; "
      "use the station car park."],
     "Both offices offer free parking for visitors.", True),
])
def test_review_22b(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
