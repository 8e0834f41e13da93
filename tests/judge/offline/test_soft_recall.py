"""recall.soft_recall: how much of a sentence's content the evidence has, a synonym
counting by its static word vector; and recall.given_names, what the question gives."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.judge.offline.lexical import TermPool
from ragassay.judge.offline.recall import given_names, soft_recall
from ragassay.judge.offline.sentences import ContextIndex, DocView, sentence_info

EVIDENCE = "The match was shown on television in forty countries."


def _recall(claim: str, evidence: str = EVIDENCE, known: frozenset[str] = frozenset()) -> float:
    infos = [sentence_info(evidence)]
    ctx = ContextIndex(infos, np.zeros((1, 2)))
    return soft_recall(sentence_info(claim), [ctx.word_vectors(0)], DocView.of(infos).stems, known)


def test_exact_words_count_in_full() -> None:
    assert _recall("The match was shown on television.") == pytest.approx(1.0)


def test_a_synonym_counts_more_than_another_word() -> None:
    tv, radio, fruit = (_recall(f"The game aired on {w} in forty countries.")
                        for w in ("TV", "radio", "bananas"))
    assert 1.0 > tv > radio > fruit > 0.0


def test_rare_words_weigh_more_than_common_ones() -> None:
    """A missing rare word ("xylophone") costs more than a missing common one ("good")."""
    assert _recall("The match was shown on television, xylophone.") < _recall(
        "The match was shown on television, good.")


def test_a_sentence_without_content_words_and_known_words() -> None:
    """No content words: 1.0, as the other recalls. A known word counts 1, so knowing a
    word the evidence already has changes nothing (it never lowers recall)."""
    assert _recall("It was.") == 1.0
    claim = "Curie moved to the city in forty countries."
    assert _recall(claim, known=frozenset({"curie"})) > _recall(claim)
    assert _recall("Curie.", known=frozenset({"curie"})) == 1.0
    shown = "The match was shown on television."
    assert _recall(shown, known=frozenset({"match"})) == pytest.approx(_recall(shown))


def _given(claim: str, question: str, evidence: str) -> frozenset[str]:
    infos = [sentence_info(evidence)]
    return given_names(sentence_info(claim), TermPool.of(question), infos)


def test_numbers_and_dotted_words_count_only_when_found() -> None:
    """A year is not nearly another year: soft credit is for words of letters only."""
    evidence = "The match was shown on television in 1994."
    assert _recall("The match was shown on television in 1995.", evidence) < _recall(
        "The match was shown on television, vroom.", evidence)
    assert _recall("The match was shown on television in 1994.", evidence) == pytest.approx(1.0)


def test_given_names_need_a_person_pronoun_and_no_other_name_of_the_question() -> None:
    claim = "Marie Curie moved to Paris in 1891 to study physics."
    q = "When did Marie Curie move to Paris?"
    known = {"marie", "curie", "paris"}
    assert _given(claim, q, "She moved to the capital in 1891.") == known
    # the evidence names people of the question only where the claim does too
    assert _given(claim, q, "Curie came to Paris in 1891; she studied physics.") == known
    # no person pronoun ("they", "it" do not count)
    assert _given(claim, q, "They moved to the capital in 1891.") == frozenset()
    assert _given(claim, q, "It moved to the capital in 1891.") == frozenset()
    # the evidence names whom it means, and the claim names someone else
    pick = "Who moved to Paris, Marie Curie or Albert Einstein?"
    assert _given("Albert Einstein moved to Paris in 1891.", pick,
                  "Marie Curie came in 1891. She moved to Paris.") == frozenset()
    # nothing when the names are all the sentence says
    assert _given("Marie Curie.", q, "She moved.") == frozenset()
    assert given_names(sentence_info(claim), None, [sentence_info("She moved.")]) == frozenset()
