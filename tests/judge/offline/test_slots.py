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
from ragassay.judge.offline.clauses import clause_texts
from tests.support.offline import evidence as _ev
from tests.support.offline import flagged as _flagged

BAGS = ["Checked bags may weigh 23 kg on economy fares and 32 kg on business fares."]
LOANS = ["Library loans last 21 days for students and 42 days for staff."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (BAGS, "On economy fares you can check a bag of up to 32 kg."),
    (LOANS, "Students can borrow books for 42 days."),
])
def test_a_value_bound_to_the_other_clause_is_a_number_change(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == ["number"] and _flagged(ev), ev


@pytest.mark.parametrize(("contexts", "answer"), [
    (BAGS, "On business fares you can check a bag of up to 32 kg."),
    # "may" is a verb here, no month: 23 is a weight, not a date's day
    (BAGS, "Economy passengers may check bags of 23 kg."),
    (LOANS, "Staff can borrow books for 42 days."),
    (LOANS, "Library loans last 21 days for students."),
])
def test_a_value_in_its_own_slot_still_passes(an: Analyzer, contexts: list[str],
                                              answer: str) -> None:
    ev = _ev(an, contexts, answer)
    assert ev.contradicts == [None] and not _flagged(ev), ev


TARIFFS = ["Under the Family tariff, calls cost 5 pence a minute.",
           "Under the Solo tariff, calls cost 9 pence a minute and include voicemail."]


def test_a_fronted_phrase_stays_with_its_clause(an: Analyzer) -> None:
    assert clause_texts(TARIFFS[1])[0].startswith("Under the Solo tariff")
    assert len(clause_texts("With the card you pay no fee, and you earn points.")) == 2
    bad = _ev(an, TARIFFS, "Under the Family tariff, calls cost 9 pence a minute and "
                           "include voicemail.")
    assert _flagged(bad), bad
    ok = _ev(an, TARIFFS, "On the Solo tariff calls cost 9 pence a minute and include "
                          "voicemail.")
    assert not _flagged(ok), ok


FLATS = ["Residents on the top floor may use the roof terrace after booking it with the "
         "caretaker."]


def test_a_dropped_place_of_the_subject_widens_a_universal(an: Analyzer) -> None:
    bad = _ev(an, FLATS, "All residents may use the roof terrace after booking it with "
                         "the caretaker.")
    assert bad.contradicts == ["quantifier"] and _flagged(bad), bad
    ok = _ev(an, FLATS, "Residents on the top floor can use the roof terrace once they "
                        "book it with the caretaker.")
    assert not _flagged(ok), ok


def test_a_bare_subject_for_a_placed_one_widens_a_rule(an: Analyzer) -> None:
    bad = _ev(an, FLATS, "Residents may use the roof terrace after booking it with the "
                         "caretaker.")
    assert bad.contradicts == ["quantifier"] and _flagged(bad), bad
    ok = _ev(an, FLATS, "Top-floor residents may use the roof terrace after booking it "
                        "with the caretaker.")
    assert not _flagged(ok), ok
    # a report, no rule: dropping where something was is no widened permission
    news = _ev(an, ["Shares in the bakery chain rose 4 percent on Monday after strong "
                    "results."], "Shares rose 4 percent on Monday after strong results.")
    assert news.contradicts == [None], news


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
    ev = _ev(an, RINK, answer)
    assert _flagged(ev) is flagged, ev
