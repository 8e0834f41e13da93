"""Session 10 of issue #38: a hyphenated name ("Wi-Fi", "Audio-Technica") is in the
contexts when its parts are: the tokenizer splits it, so its whole was never among a
context's stems and a faithful answer naming it read as naming something the contexts
do not have. A hyphenated name the contexts lack is still missing."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.lexical import name_present
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import assert_judged

TRAIN = ["Free Wi-Fi is available in every carriage, although the signal does not reach "
         "the tunnels."]  # (a first part under five letters: no stem of the whole has it)
GYM = ["We stock rowing machines from Concept2 and Pro-Form, from £499."]


def test_a_hyphenated_name_is_present_by_its_parts() -> None:
    stems = sentence_info(GYM[0]).stem_set
    assert name_present("pro-form", stems)
    assert not name_present("pro-line", stems)


@pytest.mark.parametrize(("contexts", "answer"), [
    (TRAIN, "Yes, there's free Wi-Fi in every carriage."),
    (GYM, "Yes, we sell rowing machines by Concept2 and Pro-Form, starting at £499."),
])
def test_an_answer_naming_it_is_not_flagged(an: Analyzer, contexts: list[str],
                                            answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)


def test_a_hyphenated_name_the_contexts_lack_is_flagged(an: Analyzer) -> None:
    assert_judged(an, GYM, "We sell rowing machines by Concept2 and Pro-Line, from £499.",
                  flags=True)


CONTACTS = ["Lost key cards are replaced by the front desk manager, Maria Lopez. Parking "
            "permits are issued by the facilities manager, Tom Byrne."]
SEEDLINGS = ["Seedlings can be collected from the Mill Lane greenhouse on Sundays.",
             "The Quarry Road shed is for tool hire only."]
VENUE = ["The award dinner is held at the Assembly Rooms.",
         "The Assembly Rooms are in Bath, near the Abbey."]


@pytest.mark.parametrize(("contexts", "answer"), [
    (CONTACTS, "For a lost key card, ask the facilities manager, Tom Byrne."),
    (SEEDLINGS, "Pick up your seedlings from the Quarry Road shed on Sundays."),
])
def test_a_name_of_another_sentence_is_an_entity_swap(an: Analyzer, contexts: list[str],
                                                      answer: str) -> None:
    assert_judged(an, contexts, answer, flags=True, kind="entity")


@pytest.mark.parametrize(("contexts", "answer"), [
    (CONTACTS, "For a lost key card, ask the front desk manager, Maria Lopez."),
    (SEEDLINGS, "Pick up your seedlings from the Mill Lane greenhouse on Sundays."),
    # a sentence links the two names: the place is where the venue is
    (VENUE, "The award dinner is held in Bath."),
])
def test_the_sentences_own_name_or_a_linked_one_passes(an: Analyzer, contexts: list[str],
                                                       answer: str) -> None:
    assert_judged(an, contexts, answer, flags=False)
