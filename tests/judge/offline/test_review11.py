"""Review 11 of session 11's judge round: faithful answers its new rules flagged.

- `dropped.limits_case` read a relative clause, a place or a purpose that describes
  another word of the unit ("walks that start at the harbour", "platforms above the flood
  line", "for a gentle lather") as the case a universal claim drops;
- `referents.referent_swapped` read a sentence saying it of a description of the
  referent ("Guests have a hot tub", "Crossings take two hours") as another subject;
- `polarity.turned_elsewhere` set a negated claim against the subject's sentence on
  another case while a sentence without the subject restates the claim;
- `polarity.even_so` read a unit's "unless" as denying its later "when", and its
  condition to the sentence's end.
Each in other words and domains than the probes."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from tests.support.offline import assert_judged


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Our guides lead walks that start at the harbour."], "All our guides lead walks."),
    (["Our volunteers read to children who visit the library."],
     "All our volunteers read to children."),
    (["Tents are pitched on raised platforms above the flood line."],
     "All tents are pitched on raised platforms."),
    (["Our soaps are made with olive oil for a gentle lather."],
     "All our soaps are made with olive oil."),
    (["Our candles are hand-poured in small batches for an even burn."],
     "All our candles are hand-poured in small batches."),
])
def test_a_phrase_on_another_word_is_no_case_the_claim_drops(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


@pytest.mark.parametrize(("contexts", "answer"), [
    # the same phrases after what the claim quantifies limit it
    (["Residents who register before March receive a free compost bin."],
     "All residents receive a free compost bin."),
    (["Rooms above the third floor have a sea view."], "All rooms have a sea view."),
    (["Guests whose rooms face the sea get a balcony."], "All guests get a balcony."),
    # a time after "for a" is a case
    (["The gallery is free for a limited time on weekday mornings."],
     "The gallery is always free."),
])
def test_a_phrase_on_what_the_claim_quantifies_is_still_a_case(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="quantifier")


@pytest.mark.parametrize(("contexts", "answer"), [
    (["Hilltop Cottage sleeps six. Guests have a hot tub on the terrace."],
     "Hilltop Cottage sleeps six, and it has a hot tub on the terrace."),
    (["The ferry leaves at 9am. Crossings take about two hours to reach the island."],
     "The ferry leaves at 9am, and it takes about two hours to reach the island."),
])
def test_a_description_of_the_referent_is_no_swapped_subject(
        an: Analyzer, contexts: list[str], answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_another_of_the_same_kind_is_still_a_swapped_referent(an: Analyzer) -> None:
    contexts = ["Linseed oil is best for outdoor furniture. Teak oil dries in about four "
                "hours."]
    assert_judged(an, contexts, "Linseed oil is the one to use: it dries in about four "
                                "hours.", flags=True, kind="entity")


def test_a_restatement_without_the_subject_outweighs_a_turned_case(an: Analyzer) -> None:
    contexts = ["The museum charges for entry to special exhibitions. Entry to the main "
                "galleries is free."]
    assert_judged(an, contexts, "The museum does not charge for entry to the main "
                                "galleries.", flags=False)


@pytest.mark.parametrize(("context", "answer"), [
    # "unless" denies no later "when"
    ("The outdoor market runs unless there is a storm warning, and stalls have covers for "
     "when it rains.", "The outdoor market runs even when it rains."),
    # "rain" is no part of the storm's condition
    ("The market runs unless there is a storm warning, and stalls are covered against rain.",
     "The market runs even when it rains."),
])
def test_even_so_reads_the_units_own_condition(an: Analyzer, context: str, answer: str
                                               ) -> None:
    assert_judged(an, [context], answer, flags=False)


def test_even_so_still_reads_a_denied_exception(an: Analyzer) -> None:
    assert_judged(an, ["The outdoor market runs unless it rains."],
                  "The outdoor market runs even when it rains.", flags=True, kind="negation")
