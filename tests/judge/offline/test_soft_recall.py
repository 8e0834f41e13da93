"""features.soft_recall: how much of a sentence's content the evidence has, a synonym
counting by its static word vector; and features.given_terms, what the question gives."""

from __future__ import annotations

import numpy as np
import pytest

from ragassay.judge.offline.features import (
    ContextIndex,
    DocView,
    given_terms,
    sentence_info,
    soft_recall,
)
from ragassay.judge.offline.lexical import TermPool

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
    assert _recall("It was.") == 1.0
    claim = "Curie moved to the city in forty countries."
    assert _recall(claim, known=frozenset({"curie"})) > _recall(claim)
    assert _recall("Curie.", known=frozenset({"curie"})) == 1.0


def test_given_terms_need_a_pronoun_in_the_evidence_and_something_else_said() -> None:
    q = TermPool.of("When did Marie Curie move to Paris in 1891?")
    claim = sentence_info("Marie Curie moved to Paris in 1891 to study physics.")
    by_pronoun = given_terms(claim, q, frozenset({"she", "moved"}))
    assert by_pronoun.words == {"marie", "curie", "paris"} and 1891.0 in by_pronoun.values
    assert given_terms(claim, q, frozenset({"curie", "moved"})).words == frozenset()
    assert given_terms(claim, None, frozenset({"she"})).words == frozenset()
    bare = sentence_info("Marie Curie.")
    assert given_terms(bare, q, frozenset({"she"})).words == frozenset()
