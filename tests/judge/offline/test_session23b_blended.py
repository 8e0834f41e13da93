"""Session 23b: a claim that puts one context sentence's named thing in the place of its
sibling in another sentence's fact, the names standing after the verb (issue #38's
entity swaps): "email the returns team" for "call our dispatch team". A rule for it
(blended.py: the claim says U's fact with U's name left out and a sibling V names in
its place) caught two dev probes but flagged faithful cited claims on held-out batches
in each of its frame kinds, and was withdrawn: the cases it caught are strict xfails.
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import judged, known_limit

_TEAMS = ["To change a delivery date, call our dispatch team on 0114 496 0321.",
          "For refund questions, email our returns team at returns@example.org."]
_HALLS = ["Group lessons are held in the Cedar Hall, which has a sprung floor.",
          "Our smaller Birch Hall is used only for private lessons."]
_FIELDS = ["Beginners fly from Field 2, beside the car park.",
           "Field 5 is kept for competition pilots on Sundays."]


@pytest.mark.parametrize(("contexts", "answer", "flags"), [
    # the sibling put in another's fact (caught by other checks)
    (_HALLS, "Group lessons are held in the Birch Hall, which has a sprung floor.", True),
    (_FIELDS, "Beginners fly from Field 5, beside the car park.", True),
    # faithful near-misses: the right thing, in other words, cited, or each its own
    (_TEAMS, "To change a delivery date, phone the dispatch team on 0114 496 0321.", False),
    (_TEAMS, "Refund questions go to the returns team at returns@example.org [2].", False),
    (_TEAMS, "Call the dispatch team to change a delivery date, or email the returns "
             "team about refunds.", False),
    (_HALLS, "Group lessons take place in the Cedar Hall, with its sprung floor.", False),
    (_HALLS, "Private lessons use the smaller Birch Hall.", False),
    (_FIELDS, "Beginners fly from Field 2, next to the car park.", False),
    # ... a fact the contexts give of both, a comparison, a decline
    (["Leave requests go to your line manager.", "Expense claims go to your line manager "
      "as well, or to the finance desk."], "Expense claims go to your line manager.", False),
    (_TEAMS, "I can't say whether the returns team can change a delivery date.", False),
])
def test_a_sibling_put_in_another_fact(an: Analyzer, contexts: list[str], answer: str,
                                       flags: bool) -> None:
    assert judged(an, contexts, answer) is flags


@known_limit("a task sent to the sibling another sentence names after the verb ('email "
             "the returns team' for 'call our dispatch team'): no check reads a name "
             "after the verb swapped for its sibling (blended.py withdrawn, held out; "
             "session 26's handlers.py withdrawn, SummEdits LOO)")
def test_a_task_sent_to_the_sibling(an: Analyzer) -> None:
    assert judged(an, _TEAMS, "To change your delivery date, just email the returns team "
                              "at returns@example.org.")


@known_limit("two named things in a list, each with its own fact: 'Group lessons are in "
             "the Cedar Hall and private lessons in the Birch Hall' is read as one claim "
             "of the Birch Hall (attributed_elsewhere, before this rule)")
def test_a_list_of_both_in_one_claim(an: Analyzer) -> None:
    assert not judged(an, _HALLS, "Group lessons are in the Cedar Hall and private "
                                  "lessons in the Birch Hall.")


@known_limit("a task sent to a team or office named with other words ('the finance office' "
             "for 'the accounts team'): lowercase, no shared word: no check reads them as siblings")
def test_siblings_without_a_frame(an: Analyzer) -> None:
    assert judged(an, ["Send invoices to the accounts team; the finance office handles "
                       "refunds."], "Invoices go to the finance office.")


@known_limit("a list of names after the verb in one clause ('Use Sheet A for travel claims "
             "and Sheet B for equipment orders'): the clause is not split by item")
def test_a_list_after_the_verb(an: Analyzer) -> None:
    assert judged(an, ["Use Sheet A for travel claims and Sheet B for equipment orders."],
                  "Use Sheet B for travel claims.")
