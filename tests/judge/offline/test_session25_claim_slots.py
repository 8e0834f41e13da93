"""Session 25 (k189): faithful answers read as contradicting a sentence about another
slot. A rule of alignment must read the claim's own item: a figure inside a range the
contexts state, a figure of the unit's own in other units, figures that another sentence
gives together, a floating "all" over a listed subject, "neither ... nor", an
imperative's opening verb and an elliptic clause's inherited predicate (no entities).
Each is checked both ways, in words and domains of our own."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.clauses import part
from ragassay.judge.offline.figure_homes import in_other_units
from ragassay.judge.offline.spans import ranges, within
from tests.support.offline import evidence, flagged


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


# --- ranges (spans.py) -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "value", "held"), [
    ("Juniors aged 8 to 14 ride free.", 11, True),
    ("Riders between 40 and 60 kg need a harness.", 55, True),
    ("Delivery takes 3-5 working days.", 4, True),
    ("Juniors aged 8 to 14 ride free.", 16, False),  # outside the range
    ("Take one or two capsules.", 1.5, False),  # "or": two figures, no range
    ("Plus costs 8 and Pro costs 20.", 10, False),  # "and" without "between"
    ("Open from 9am to 5pm.", 7, False),  # clock times: the low bound written second
])
def test_within_a_stated_range(text: str, value: float, held: bool) -> None:
    assert within(value, text) is held


def test_ranges_read_low_bound_first() -> None:
    assert ranges("ages 8 to 14, groups of 2-6") == [(8.0, 14.0), (2.0, 6.0)]


def test_a_figure_inside_a_range_is_no_other_slot_value(an: Analyzer) -> None:
    contexts = ["Juniors under 8 ride free. Juniors aged 8 to 14 ride the forest trail free "
                "with a family pass when an adult with a ticket rides too."]
    ev = evidence(an, contexts, "Your 11-year-old can also ride the forest trail free "
                  "with a family pass.", question="My kids are 5 and 11, do they ride free?")
    assert ev.contradicts == [None]


# --- a figure at home elsewhere (figure_homes.py) ----------------------------------------

def test_values_in_other_units() -> None:
    u = part("An eye test is needed at least 48 hours before any lens fitting.")
    assert 2.0 in in_other_units(u)  # two days
    assert 48.0 not in in_other_units(u)  # written: it counts as itself


_SPRAY = ["Adults and teenagers over 14 may use one or two 5 ml sprays every 3 to 4 hours.",
          "Do not use more than 8 sprays in 24 hours."]


def test_figures_another_sentence_gives_together(an: Analyzer) -> None:
    ev = evidence(an, _SPRAY, "Adults and teenagers over 14 can use one or two sprays "
                  "every 3 to 4 hours, up to 8 sprays in 24 hours.")
    assert not flagged(ev) and ev.contradicts == [None]


def test_figures_of_another_named_thing_still_flag(an: Analyzer) -> None:
    contexts = ["The Willow room seats 10 to 12 people and has a projector.",
                "The Oak room has a whiteboard and seats 20 to 30 people."]
    assert flagged(evidence(an, contexts, "The Oak room has a whiteboard: it seats 10 to "
                            "12 people."))


# --- words that quantify nothing (unquantified.py) ---------------------------------------

def test_floating_all_over_a_list_quantifies_nothing() -> None:
    assert part("Rugs, runners and tapestries are all cleaned on site").quantified == ()
    assert part("The rooms are all cleaned daily").universal  # one kind: still all of it
    assert part("All rugs are cleaned on site").universal


def test_neither_nor_quantifies_nothing() -> None:
    assert part("If you neither renew nor return the book, we charge a fee").quantified == ()
    assert part("Neither plan includes phone support").universal  # of every plan


def test_listed_subject_with_floating_all_is_faithful(an: Analyzer) -> None:
    contexts = ["We clean and restore rugs, runners and tapestries, including stain "
                "cleaning and fringe repair."]
    ev = evidence(an, contexts, "Yes, rugs, runners and tapestries are all cleaned and "
                  "restored here, stain cleaning and fringe repairs included.")
    assert not flagged(ev)


# --- imperatives and elliptic clauses name no entity -------------------------------------

@pytest.mark.parametrize(("contexts", "answer"), [
    (["Buy the widest size for each window, not the narrowest.",
      "Only order blinds that fit inside the recess, not ones that overlap."],
     "Only buy blinds that fit inside the recess, not overlapping ones."),
    (["Read the meter on the first of each month, not the last.",
      "Only submit readings that show five digits, not estimates."],
     "Only read readings that show five digits, not estimates."),
])
def test_an_imperative_verb_is_no_subject(an: Analyzer, contexts: list[str],
                                          answer: str) -> None:
    ev = evidence(an, contexts, answer)
    assert not flagged(ev) and ev.contradicts == [None]


def test_subjects_of_two_sentences_still_swap(an: Analyzer) -> None:
    contexts = ["Contractors are not eligible for the bonus.",
                "Employees receive the bonus in March."]
    ev = evidence(an, contexts, "Contractors receive the bonus in March.")
    assert flagged(ev) and ev.contradicts == ["entity"]
