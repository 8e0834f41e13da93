"""Soft recall: how much of a sentence's content its evidence states, a synonym counting
by its static word vector; and which names a question gives a sentence.

Support features of features.py (`soft_recall_local`; `given_names` for it and for the
novel-name count), kept apart so that each module stays one concept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from .lexical import TermPool, name_present
from .words import word_vectors, word_weights

if TYPE_CHECKING:
    from .sentences import SentenceInfo


# A pronoun in the evidence that stands for a person the question may name ("She moved
# ..."); "they" and "it" are left out: they rarely stand for a named person.
PERSON_PRONOUNS = frozenset({"he", "she", "him", "her", "his", "hers"})


def given_names(
    s: SentenceInfo, given: TermPool | None, evidence: list[SentenceInfo]
) -> frozenset[str]:
    """The sentence's names that the question gives, where the evidence refers to a
    person by a pronoun and names no one of the question that the sentence leaves out:
    "Marie Curie moved to Paris" asked "When did Marie Curie move to Paris?" against
    "She moved to Paris". Nothing when the evidence names whom it means instead
    ("Einstein discovered radium", asked "Curie or Einstein?", against "Marie Curie ...
    She discovered radium"), when the names are all the sentence says ("Einstein."),
    and never a number: a figure the question states is no evidence for it."""
    if given is None or not any(PERSON_PRONOUNS.intersection(i.tokens) for i in evidence):
        return frozenset()
    said = set(s.tokens)
    if any(
        i.tokens[k] not in said and name_present(i.tokens[k], given.stems)
        for i in evidence
        for k in i.capitals
    ):
        return frozenset()
    caps = {s.tokens[i] for i in s.capitals}
    known = frozenset(w for w in s.words if w in caps and name_present(w, given.stems))
    return known if set(s.words) - known else frozenset()


CACHED_TABLE_WORDS = 64  # longer sentences' word tables are not kept (memory)


def _word_table(s: SentenceInfo) -> tuple[np.ndarray, np.ndarray]:
    """A sentence's content words: the static vectors (L2-normalised rows) of those made
    of letters (`s.soft`) and every word's inverse-frequency weight (cached for ordinary
    sentences: a claim is matched against every document for chunk usefulness)."""
    if len(s.words) > CACHED_TABLE_WORDS:
        return _word_table_uncached(s.words, s.soft)
    return _word_table_cached(s.words, s.soft)


def _word_table_uncached(
    words: tuple[str, ...], soft: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    vecs = word_vectors([words[i] for i in soft])
    return vecs, np.maximum(np.asarray(word_weights(words), dtype=np.float64), 1e-3)


# at most 64 words x 256 float32 each: bounded at about 130 MB, typically a tenth of it
_word_table_cached = lru_cache(maxsize=2048)(_word_table_uncached)


def soft_recall(
    s: SentenceInfo,
    evidence: list[np.ndarray],
    stems: frozenset[str],
    known: frozenset[str] = frozenset(),
) -> float:
    """Weighted share of the sentence's content words that the evidence has: a word whose
    stem is in `stems` counts 1; a word of letters that is not counts the cosine of its
    static vector to the nearest word of letters of the evidence (`evidence`: their
    vectors, per sentence; 0 at worst), and another (a number, "u.s") 0: "1995" is not
    nearly "1994". Each word is weighted by its inverse frequency (a BERTScore-style
    recall over static word vectors); a `known` word (a name the question gives,
    given_names) counts 1. 1.0 for a sentence without content words, as the other
    recalls."""
    if not s.words:
        return 1.0
    vecs, weights = _word_table(s)
    credit = np.fromiter(
        (x in stems or w in known for w, x in zip(s.words, s.word_stems, strict=True)),
        dtype=np.float64,
    )
    pools = [v for v in evidence if len(v)]
    if pools and len(s.soft) and credit[list(s.soft)].min() < 1.0:
        near = (vecs @ np.vstack(pools).T).max(axis=1)
        idx = list(s.soft)
        credit[idx] = np.maximum(credit[idx], np.clip(near, 0.0, 1.0))
    return float(weights @ credit / weights.sum())
