"""Session 28 round 3 (scope): a place, a definite limit and "of any X", widened.

- whole_place.place_quantified: "in every X" for a place the unit names and does not
  quantify ("throughout the Y" withdrawn, a strict xfail);
- carried_limit: a limit in the next sentence opening on a definite subject ("The
  rebate applies only to ...");
- unquantified.compared_any: "of any X" quantifies X unless a comparison precedes it.
Cases in words of our own, none from a probe batch."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.whole_place import wide_places
from tests.support.offline import judged


@pytest.mark.parametrize(("context", "answer", "flags"), [
    # a place widened to every one of its kind, or to the whole site
    ("Hand sanitiser stations are placed in wards 4 and 5.",
     "Hand sanitiser stations are placed in every ward.", True),
    ("Gluten-free options are served at the west kiosk.",
     "Gluten-free options are served at all kiosks.", True),
    # faithful: the unit quantifies the place too, or the same places in other words
    ("Hand sanitiser stations are placed in each ward.",
     "Hand sanitiser stations are placed in every ward.", False),
    ("Each gate has a ticket scanner.", "There is a ticket scanner at every gate.", False),
    ("Printers are available in the library and the student union.",
     "You can find printers in the student union and the library.", False),
    ("Staff are on duty at all times in the foyer.", "Staff are on duty in the foyer at all "
     "times.", False),
    # a limit carried by a definite subject in the next sentence
    ("You can pause your subscription for a month. The option is available only on annual "
     "plans.", "You can pause any subscription for a month.", True),
    ("Our technicians install smart meters at no cost. The scheme is limited to homes in "
     "Cardiff.", "Our technicians install smart meters at no cost in every home.", True),
    ("You can pause your subscription for a month. The option is available only on annual "
     "plans.", "On an annual plan you can pause your subscription for a month.", False),
    ("You can pause your subscription for a month. The option is available to every "
     "plan.", "You can pause any subscription for a month.", False),
    # "of any X": every X
    ("Refunds are given for lessons of the beginner course.",
     "Refunds are given for lessons of any course.", True),
    ("Refunds are given for lessons of every course.",
     "Refunds are given for lessons of any course.", False),
])
def test_scope_places(an: Analyzer, context: str, answer: str, flags: bool) -> None:
    assert judged(an, [context], answer) is flags


@pytest.mark.xfail(strict=True, reason="withdrawn in session 28: 'throughout the Y' read as "
                   "widening the unit's named places turned a held-out answer wrong (ZL)")
def test_throughout_a_place_widens_the_units_places(an: Analyzer) -> None:
    assert judged(an, ["Printers are available in the library and the student union."],
                  "Printers are available throughout the university.")


def test_wide_places_reads_quantified_place_and_time() -> None:
    assert wide_places(part("Lockers are on every floor of the gym.")) == (
        frozenset({"floor"}), False)
    assert wide_places(part("Staff are at the desk at all times."))[0] == frozenset()
    assert wide_places(part("Heating runs throughout the building."))[1]


def test_comparison_of_any_quantifies_nothing() -> None:
    assert not part("Our pool is the largest of any school in the county.").universal
    assert part("You can claim for tickets of any season.").universal
