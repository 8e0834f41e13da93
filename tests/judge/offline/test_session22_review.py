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


_GYM = ["The gym opens at 6am on weekdays and at 10am on bank holidays."]
_PARK = ["Cycling is not allowed in the park. Dogs must be kept on a lead."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # text/sources.py: a labelled last line that states something is a claim, no key
    (_GYM, "The gym opens at 6am.¹\n\n¹ On bank holidays it opens at 8am", True),
    (["Entry is £8. Concessions pay £6."], "Entry is £8 [1].\n[1] Concessions pay £4", True),
    (["Entry is £8. Concessions pay £6."], "Entry is £8 [1].\n[1] Visitor guide", False),
    # deontic.py: a permission at another place than the ban's is about another thing
    (_PARK + ["The canal towpath is open to walkers and cyclists."],
     "Cycling is allowed on the towpath.", False),
    (["Dogs are not allowed on the south beach. The north beach welcomes dogs all year."],
     "Dogs are allowed on the north beach.", False),
    (_PARK, "Cycling is allowed in the park.", True),
    # ... and "can" of the senses grants nothing
    (["Visitors can't enter the castle from the pier; use the town gate."],
     "From the pier you can see the castle.", False),
])
def test_review_22a(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # answer.by_pieces: a first piece opened by a preposition qualifies the next: whole
    (["Allotment rent is £40 a year.", "Plot holders over 65 pay a reduced rent of £20."],
     "For plot holders over 65 [2], the rent is £40 a year [1].", True),
    (["Allotment rent is £40 a year.", "Plot holders over 65 pay a reduced rent of £20."],
     "Allotment rent is £40 a year [1], and plot holders over 65 pay £20 [2].", False),
    # hedged.open_days: a day the contexts name only as one something is shut on is no
    # time to go and ask
    (["The community hall is open Tuesday to Saturday. It is closed on Mondays."],
     "I don't have details about room hire. If you drop in on a Monday, one of the "
     "volunteers can tell you.", True),
    (["The community hall is open Tuesday to Saturday. It is closed on Mondays."],
     "I don't have details about room hire. If you drop in on a Saturday, one of the "
     "volunteers can tell you.", False),
    # source_scope: "here" makes the speaker's sources only with a word for a text
    (["Classes run on weekdays and weekends. The pool timetable covers weekends only."],
     "I don't have prices. The timetable here is only for weekends.", True),
])
def test_review_22c(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert judged(an, contexts, answer) is flags
