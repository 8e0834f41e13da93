"""Round 3 of issue #38: a figure, a name or a scope read in its slot of the sentence.

- a sentence that gives one thing two values in two clauses binds each value to its
  clause: a claim with the words of one clause and the other clause's value is a
  number change, though the sentence holds both values;
- a fronted phrase ("Under the Family tariff, ...") qualifies its clause, so a clause
  is not read without it (the claim that moves its figure to another tariff is an
  entity swap);
- a universal whose subject the context places ("Residents on the top floor may ...")
  is widened when the claim drops the place ("All residents may ...").
Each in other words than the probe batches, with counter-cases."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.pieces import clause_texts
from tests.support.offline import ANY_KIND, assert_judged, evidence

BAGS = ["Checked bags may weigh 23 kg on economy fares and 32 kg on business fares."]
LOANS = ["Library loans last 21 days for students and 42 days for staff."]


@pytest.mark.parametrize(("contexts", "answer", "kind"), [
    # a value bound to the other clause is a number change
    (BAGS, "On economy fares you can check a bag of up to 32 kg.", "number"),
    (LOANS, "Students can borrow books for 42 days.", "number"),
    # a value in its own slot still passes
    (BAGS, "On business fares you can check a bag of up to 32 kg.", None),
    # "may" is a verb here, no month: 23 is a weight, not a date's day
    (BAGS, "Economy passengers may check bags of 23 kg.", None),
    (LOANS, "Staff can borrow books for 42 days.", None),
    (LOANS, "Library loans last 21 days for students.", None),
])
def test_a_value_is_read_in_its_own_clause(an: Analyzer, contexts: list[str], answer: str,
                                           kind: str | None) -> None:
    assert_judged(an, contexts, answer, flags=kind is not None, kind=kind)


TARIFFS = ["Under the Family tariff, calls cost 5 pence a minute.",
           "Under the Solo tariff, calls cost 9 pence a minute and include voicemail."]


def test_a_fronted_phrase_stays_with_its_clause(an: Analyzer) -> None:
    assert clause_texts(TARIFFS[1])[0].startswith("Under the Solo tariff")
    assert len(clause_texts("With the card you pay no fee, and you earn points.")) == 2
    assert_judged(an, TARIFFS, "Under the Family tariff, calls cost 9 pence a minute and "
                               "include voicemail.", flags=True)
    assert_judged(an, TARIFFS, "On the Solo tariff calls cost 9 pence a minute and include "
                               "voicemail.", flags=False)


FLATS = ["Residents on the top floor may use the roof terrace after booking it with the "
         "caretaker."]


@pytest.mark.parametrize(("answer", "flags", "kind"), [
    # a dropped place of the subject widens a universal
    ("All residents may use the roof terrace after booking it with the caretaker.", True,
     "quantifier"),
    ("Residents on the top floor can use the roof terrace once they book it with the "
     "caretaker.", False, ANY_KIND),
    # a bare subject for a placed one widens a rule
    ("Residents may use the roof terrace after booking it with the caretaker.", True,
     "quantifier"),
    ("Top-floor residents may use the roof terrace after booking it with the caretaker.",
     False, ANY_KIND),
])
def test_a_dropped_place_of_the_subject_widens_a_rule(an: Analyzer, answer: str,
                                                      flags: bool, kind: str) -> None:
    assert_judged(an, FLATS, answer, flags=flags, kind=kind)


def test_a_dropped_place_in_a_report_widens_nothing(an: Analyzer) -> None:
    # a report, no rule: dropping where something was is no widened permission
    news = ["Shares in the bakery chain rose 4 percent on Monday after strong results."]
    ev = evidence(an, news, "Shares rose 4 percent on Monday after strong results.")
    assert ev.contradicts == [None], ev


RINK = ["The ice rink is open until midnight on Fridays only.",
        "The rink closes at 8 pm on other days."]


@pytest.mark.parametrize(("answer", "flagged"), [
    ("The ice rink is open until midnight every day.", True),
    ("The ice rink is open until midnight at any time of year.", True),
    ("The ice rink is open until midnight all year round.", True),
    ("The ice rink is open until midnight on Fridays.", False),
    ("On Fridays the ice rink stays open until midnight.", False),
])
def test_always_for_only_then_widens_the_claim(an: Analyzer, answer: str,
                                               flagged: bool) -> None:
    assert_judged(an, RINK, answer, flags=flagged)
