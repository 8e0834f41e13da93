"""A universal claim over a kind the contexts state its predicate of only in a narrower
form: the noun phrase the claim quantifies ("all the exams", "every treatment", "all our
courses and flights") against a context sentence that says the same predicate of the
same noun with a modifier the claim lacks ("The Foundation exam can be taken online",
"rat and mouse treatments", "Full pilot courses"). Saying it of all of the kind widens
what the sentence restricts to a sort of it.

The claim's phrase is the run of content words after its quantifier (determiners and
"of our" skipped, items joined by "and", "or" or a comma kept together); its predicate
is the rest of its clause (cut at a colon, semicolon or dash). A context sentence
restricts the noun when the content words right before it, from the start of its noun
phrase (a sentence start, a determiner, a preposition or a conjunction), include one the
claim does not use; a sentence saying the predicate of the bare noun, or of all of it,
leaves the claim supported, and nothing is found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .clauses import Part, part
from .lexical import STOPWORDS, stem
from .scope import TIMES
from .units import Unit

# ("each" distributes what is said of the kind: "each stage costs £25"; no widening)
_QUANTIFIERS = frozenset({"all", "every", "any"})
_PRONOUNS = frozenset({"it", "them", "they", "we", "you", "us", "at"})
# what may stand between the quantifier and its noun ("all of our", "every one of the")
_SKIP = frozenset({"the", "our", "of", "your", "their", "its", "these", "those", "one",
                   "kinds", "types", "sorts"})
# where a noun phrase of a context sentence may open (the modifier run starts after it)
_OPENERS = frozenset({"a", "an", "the", "our", "your", "their", "its", "this", "these",
                      "those", "to", "for", "of", "on", "in", "at", "with", "by", "from",
                      "and", "or", "only", "some"})
_JOINS = frozenset({"and", "or"})
_CUT = re.compile(r"\s*(?:[:;]|\s[-–—]\s|\s(?:if|when|unless|once|provided)\s)\s*")
_WORD = re.compile(r"[a-z][a-z'-]*")
MIN_PREDICATE = 2  # the claim's predicate words a sentence must state
PREDICATE_SHARE = 2 / 3


def _content(token: str) -> bool:
    return bool(_WORD.fullmatch(token)) and token not in STOPWORDS and token not in _QUANTIFIERS


def _phrase(toks: Sequence[str], heads: frozenset[str]) -> frozenset[str] | None:
    """The stems of the noun phrase a quantifier of the claim ranges over, the one that
    holds a head the claim is read to quantify, or None: none does, or the quantifier
    follows a pronoun ("get it all back") and ranges over no noun."""
    for at, t in enumerate(toks):
        if t not in _QUANTIFIERS or (at and toks[at - 1] in _PRONOUNS):
            continue
        j = at + 1
        while j < len(toks) and toks[j] in _SKIP:
            j += 1
        stems: set[str] = set()
        while j < len(toks) and (_content(toks[j]) or (toks[j] in _JOINS and stems)):
            if _content(toks[j]):
                stems.add(stem(toks[j]))
            j += 1
        if stems & heads:
            return frozenset(stems)
    return None


def _modifiers(toks: Sequence[str], at: int) -> frozenset[str]:
    """The stems of the content words that modify the noun at `at`: the run of content
    words (joined by "and", "or") before it back to its phrase's opening; none when the
    run opens on no noun-phrase boundary (a verb's object: "we run courses")."""
    mods: set[str] = set()
    j = at - 1
    while j >= 0 and (_content(toks[j]) or toks[j] in _JOINS):
        if _content(toks[j]):
            mods.add(stem(toks[j]))
        j -= 1
    if j >= 0 and toks[j] not in _OPENERS:
        return frozenset()
    return frozenset(mods)


def _mentions(sentence: Part, nouns: frozenset[str], own: frozenset[str]
              ) -> tuple[bool, bool]:
    """(mentions one of the nouns restricted by a word the claim lacks, mentions one bare
    or quantified) in the sentence."""
    toks = sentence.info.tokens
    narrow = bare = False
    for i, t in enumerate(toks):
        if not _content(t) or stem(t) not in nouns:
            continue
        if i and toks[i - 1] in _QUANTIFIERS:
            bare = True
            continue
        if _modifiers(toks, i) - nouns - own:
            narrow = True
        else:
            bare = True
    return narrow, bare


def modified_kind(p: Part, near: Sequence[Unit]) -> bool:
    """Whether the universal claim says of all of a kind what the near context sentences
    say only of a sort of it (module docstring)."""
    if not p.universal:
        return False
    clause = next((c for c in _CUT.split(p.text) if _QUANTIFIERS & set(part(c).info.tokens)),
                  None)
    if clause is None:
        return False
    q = part(clause)
    nouns = _phrase(q.info.tokens, frozenset(h for h in p.quantified if h and h not in TIMES))
    if nouns is None:
        return False
    predicate = q.words - nouns
    if len(predicate) < MIN_PREDICATE:
        return False
    narrowed = False
    for u in near:
        if u.clause:
            continue
        stated = predicate & u.sentence.words
        if len(stated) < max(MIN_PREDICATE, PREDICATE_SHARE * len(predicate)):
            continue
        narrow, bare = _mentions(u.sentence, nouns, p.stems)
        if bare:
            return False  # a sentence says it of the kind itself
        narrowed = narrowed or narrow
    return narrowed
