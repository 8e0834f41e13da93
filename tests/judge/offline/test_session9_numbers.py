"""Session 9 of issue #38: a figure the contexts bind to another slot (placed.py).

A claim that takes a figure from one slot of the contexts and gives it the words of
another is a number change, though the figure occurs in the contexts:

- another clause of the same sentence, told apart by a time of day ("open 9am-6pm ...
  and 10am-4pm on Sundays": "closes at 6pm on Sundays");
- another sentence about another step, once a range ("10-12 hours") is read as a range
  of hours and not as the clock time 10:12;
- a figure the contexts give only with another noun ("within 15 miles": "15 books");
- a figure of an exception ("unless ... a renewal of up to 42 days");
- a bound turned round ("at least 50 passengers" for "seats up to 50 passengers");
- another item of a "label: value" list.
Each in other words and domains than batch K's probes, with faithful answers that
restate the figures in their own slots (none of them flagged)."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from tests.support.offline import assert_judged

PHARMACY = ["The pharmacy is open 9am-6pm from Monday to Friday and 10am-4pm on Sundays."]
DOUGH = ["Let the dough rise for 10-12 hours at room temperature. After shaping, leave it "
         "2 hours in the fridge."]
LIBRARY = ["Each member may borrow up to 8 books per visit. For more books, ask for a home "
           "delivery; our mobile library visits villages within 15 miles."]
LOANS = ["Library books are kept on loan for 21 days. Overdue books are then charged a fine, "
         "unless the borrower has applied for a renewal of up to 42 days."]
TOURS = ["Guided tours are available for parties of 10 or more. Other visitors join a "
         "standard tour; a standard tour bus seats up to 50 passengers."]
TICKETS = ["Adult ticket: €12; child ticket: €7; family ticket: €30."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (PHARMACY, "On Sundays the pharmacy closes at 6pm."),
    (DOUGH, "The dough takes about 2 hours to rise at room temperature, then goes in the "
            "fridge after shaping."),
    (LIBRARY, "You can take out up to 15 books per visit."),
    (LOANS, "Books stay on loan for 42 days before a fine is charged."),
    (TOURS, "Guided tours need at least 50 passengers."),
    (TICKETS, "A child ticket costs €12."),
])
def test_a_figure_of_another_slot_is_a_number_change(an: Analyzer, contexts: list[str],
                                                     answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="number")


@pytest.mark.parametrize(("contexts", "answer"), [
    (PHARMACY, "On Sundays the pharmacy closes at 4pm."),
    (PHARMACY, "From Monday to Friday the pharmacy opens at 9am."),
    (PHARMACY, "The pharmacy opens at 10am on Sundays and closes at 4pm."),
    (DOUGH, "The dough rises for 10 to 12 hours at room temperature."),
    (DOUGH, "After shaping, leave the dough in the fridge for 2 hours."),
    (LIBRARY, "You can take out up to 8 books per visit."),
    (LIBRARY, "The mobile library visits villages within 15 miles."),
    (LOANS, "Books stay on loan for 21 days before a fine is charged."),
    # the exception's value with the exception's words, or under a condition of its own
    (LOANS, "A renewal of up to 42 days is available."),
    (LOANS, "If you apply for a renewal, you can keep library books for up to 42 days "
            "without a fine."),
    (TOURS, "A standard tour bus seats at most 50 passengers."),
    (TOURS, "You need at least 10 people for a guided tour."),
    # "up to 48 hours before" is "at least 48 hours before": no bound turned
    (["You can cancel free of charge up to 48 hours before your appointment."],
     "Cancel at least 48 hours before your appointment to avoid a charge."),
    (TICKETS, "A family ticket costs €30."),
    (TICKETS, "A child ticket is €7 and an adult ticket €12."),
    (["Adult ticket: €12. Child ticket: €7. Family ticket: €30."], "A child ticket costs €7."),
])
def test_a_figure_in_its_own_slot_passes(an: Analyzer, contexts: list[str],
                                         answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_a_dash_between_figures_is_a_range_and_a_colon_a_clock() -> None:
    assert part("Seeds germinate in 7-10 days.").figures == ((7.0, "day"), (10.0, "day"))
    assert part("Seeds germinate in 7\u201310 days.").figures == ((7.0, "day"), (10.0, "day"))
    assert part("The film starts at 18:30.").figures == ((6.5, "time"),)
    # two figures side by side are no range ("two 20-minute sessions")
    assert (20.0, "minut") in part("The pass includes two 20-minute sessions.").figures
    assert (2.0, "minut") not in part("The pass includes two 20-minute sessions.").figures
