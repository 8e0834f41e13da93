"""Session 26 (k206): a "not" in a context clause of its own, which the claim draws no
word from, is no polarity of the claim's. Own sentences and domains."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.negated_clause import negation_bears, unrelated_negation_dropped
from ragassay.judge.offline.paraphrase import restated_in_other_words
from ragassay.judge.offline.sentences import sentence_info
from tests.support.offline import judged

MOWER = "The heater burns kerosene with a flash point above 38C; do not add petrol."


@pytest.fixture(scope="module")
def an() -> Analyzer:
    return Analyzer()


def test_negation_in_a_clause_apart() -> None:
    apart = sentence_info("It takes kerosene with a flash point over 38C.")
    assert not negation_bears(apart, sentence_info(MOWER))
    # ... a claim on the negated clause's topic: the negation bears on it
    near = sentence_info("You can add petrol to it.")
    assert negation_bears(near, sentence_info(MOWER))
    # ... the verb alone shared is no shared topic ("does not include radiators")
    cover = sentence_info("The plan includes 2 annual visits.")
    assert not negation_bears(cover, sentence_info(
        "The plan includes 2 annual visits, though it does not include repairs."))


def test_dropped_clause() -> None:
    words = frozenset(sentence_info("It takes kerosene with a flash point over 38C.").word_stems)
    kept = unrelated_negation_dropped(words, MOWER)
    assert kept is not None and "petrol" not in kept and "38" in kept
    assert unrelated_negation_dropped(words, "Do not add petrol.") is None


KILN = ("The kiln needs a 32-amp supply on a dedicated circuit; do not plug it into an "
        "extension lead.")


def test_rewording_beside_an_unrelated_not() -> None:
    ctx = sentence_info(KILN)
    assert restated_in_other_words(sentence_info("The kiln needs a dedicated 32-amp circuit."),
                                   ctx, 0.9)
    # ... a changed figure, or the negated clause's own topic, is no rewording
    assert not restated_in_other_words(
        sentence_info("The kiln needs a dedicated 40-amp circuit."), ctx, 0.9)
    assert not restated_in_other_words(
        sentence_info("The kiln on a 32-amp circuit can be plugged into an extension lead."),
        ctx, 0.9)


def test_flip_of_the_negated_clause_still_caught(an: Analyzer) -> None:
    assert judged(an, [KILN], "You can plug it into an extension lead.")
    assert not judged(an, [KILN], "It needs its own circuit delivering 32 amps.")
