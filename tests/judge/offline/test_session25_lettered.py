"""Session 25 of issue #38: a claim that gives one lettered item's words to another of the
same series ("Bay C" for "Bay A"; lettered.letter_swapped). A lone capital letter after a
capitalised noun is a label the word-level checks cannot see ("A", "D" are stopwords).

Each rule is checked both ways: a swap is caught, a faithful restatement is not.
"""

from __future__ import annotations

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.lettered import labels, letter_swapped
from tests.support.offline import assert_judged, units_of

DEPOT = ["Refrigerated lorries unload at Bay D, next to the cold store.",
         "Bay A is kept for parcel vans on weekday afternoons."]
GALLERY = ["School groups start in Room B, the one with the fossil casts.",
           "Room C holds the mineral cabinets and is closed on Mondays."]


def test_labels_tell_a_letter_from_an_article_and_an_initial() -> None:
    assert labels("Bay A is kept for vans.") == {("bay", "A")}
    assert labels("Meet at Gate D.") == {("gate", "D")}
    assert labels("Book A table online.") == frozenset()  # the article
    assert labels("Ask Maria J. Costa at reception.") == frozenset()  # an initial
    assert labels("On Monday I can help.") == frozenset()  # the pronoun


def test_a_lettered_item_given_anothers_words_is_a_swap() -> None:
    units = units_of(DEPOT)
    swapped = part("Refrigerated lorries unload at Bay A, beside the cold store.")
    assert letter_swapped(swapped, units) == 0
    faithful = part("Refrigerated lorries unload at Bay D, beside the cold store.")
    assert letter_swapped(faithful, units) is None
    other = part("Parcel vans use Bay A on weekday afternoons.")
    assert letter_swapped(other, units) is None


def test_a_comparison_of_two_items_and_an_unnamed_letter_are_not_read() -> None:
    units = units_of(GALLERY)
    both = part("School groups start in Room B, not Room C, which has the mineral cabinets.")
    assert letter_swapped(both, units) is None
    assert letter_swapped(part("School groups start in Room C, just as they do in Room B."),
                          units) is None
    shared = units_of(["Studio A has a sprung floor for the dance classes.",
                       "Studio F has one as well."])
    assert letter_swapped(part("The dance classes use Studio F, with its sprung floor."),
                          shared) is None  # (F's own sentence says it shares the fact)
    # (Room E is named nowhere: an invented item, for other checks, not a swap of two)
    assert letter_swapped(part("School groups start in Room E, with the fossil casts."),
                          units) is None


def test_the_judge_flags_the_swap_and_passes_the_restatement() -> None:
    an = Analyzer()
    assert_judged(an, GALLERY, "School groups begin in Room C, the one with the fossil "
                  "casts.", True, "entity")
    assert_judged(an, GALLERY, "School groups begin in Room B, the one with the fossil "
                  "casts.", False)
