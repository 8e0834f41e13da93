"""Session 26 (k213): scope changes read as evidence: one occasion said as the rule (a
calendar period dropped, a ranked weekday of the month said as the weekday), a maximum
said as a fixed amount ("up to 4" said "4"), everyone said in place of a group the unit
picks out, and a universal over listed members that another sentence limits for one of
them ("both A and B run all year" / "B runs in summer only"). Each rule fires, and stays
silent on the same facts kept in other words or on a question that names the case."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged

WITHDRAWN = ("k213's reading was withdrawn in session 26 (held-out answers went right to "
             "wrong): a calendar period dropped (occasions.occasion_dropped)")
_XF = pytest.mark.xfail(strict=True, reason=WITHDRAWN)
CASES = [
    # a calendar period dropped
    pytest.param(["During harvest weeks the farm shop stays open until 9pm."],
     "The farm shop stays open until 9pm.", True,
                 marks=_XF),
    (["During harvest weeks the farm shop stays open until 9pm."],
     "During harvest weeks, the farm shop is open until 9pm.", False),
    pytest.param(["In the autumn half-term the ice rink runs skating lessons every morning."],
     "The ice rink runs skating lessons every morning.", True,
                 marks=_XF),
    (["In the autumn half-term the ice rink runs skating lessons every morning."],
     "Over autumn half-term the ice rink runs skating lessons each morning.", False),
    # a period in another clause times another fact
    (["Trainees can work from the branch office three days a week, although the office "
      "is closed during the August shutdown."],
     "Trainees can work from the branch office three days a week.", False),
    # a ranked weekday of the month
    (["The repair café meets in the church hall on the third Thursday of each month."],
     "The repair café meets in the church hall on Thursdays.", True),
    (["The repair café meets in the church hall on the third Thursday of each month."],
     "The repair café meets in the church hall on the third Thursday of the month.", False),
    # a maximum said as a fixed amount
    (["Each allotment plot can hold up to six raised beds."],
     "Each allotment plot holds six raised beds.", True),
    (["Each allotment plot can hold up to six raised beds."],
     "Each allotment plot can hold a maximum of six raised beds.", False),
    (["Each allotment plot can hold up to six raised beds."],
     "Each allotment plot can hold as many as six raised beds.", False),
    (["Refunds for cancelled lessons can reach up to £90."],
     "Refunds for cancelled lessons can reach as much as £90.", False),
    # everyone in place of a group the unit picks out
    (["Long-distance commuters get a free seat reservation on the express."],
     "Yes, everyone gets a free seat reservation on the express.", True),
    (["Long-distance commuters get a free seat reservation on the express."],
     "Long-distance commuters get a free seat reservation on the express.", False),
    (["Swimmers must shower before entering the pool."],
     "Yes, everyone must shower before entering the pool.", True),
    # a universal over listed members, one of which another sentence limits
    (["The cable car runs all year. The chairlift runs from June to August only."],
     "Yes, both the cable car and the chairlift run all year.", True),
    (["Every repair comes with a 6-month guarantee. The guarantee does not cover "
      "accidental damage."],
     "Yes, every repair comes with a 6-month guarantee.", False),
]


@pytest.mark.parametrize(("contexts", "answer", "flags"), CASES)
def test_scope_read(an: Analyzer, contexts: list[str], answer: str, flags: bool) -> None:
    assert_judged(an, contexts, answer, flags)


def test_named_occasion_stands(an: Analyzer) -> None:
    """The question naming the period makes it the answer's case."""
    assert_judged(an, ["During harvest weeks the farm shop stays open until 9pm."],
                  "Yes, the farm shop stays open until 9pm.", False,
                  question="Is the farm shop open late during harvest weeks?")


def test_named_group_stands(an: Analyzer) -> None:
    """The question naming the group makes it the answer's case."""
    assert_judged(an, ["Long-distance commuters get a free seat reservation on the express."],
                  "Yes, you get a free seat reservation on the express.", False,
                  question="Do long-distance commuters get a free seat reservation?")
