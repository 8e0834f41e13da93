"""A claim that asserts, of one item of a list a context sentence denies something of,
what the sentence denies: "Yes, we can move pianos as part of our standard removal"
against "We cannot move pianos, gas cylinders, paint or hazardous chemicals";
"personalised items can be returned within 30 days" against "Personalised items and
opened earphones cannot be returned unless they are faulty".

Alignment finds no conflict there: the list's other items are words the claim lacks, so
the denial restates it too little, and another sentence ("You can return most items
within 30 days") may restate it well. Read from the sentence's main part (what comes
before its first "unless", "except", "if", "but" or semicolon): one negation, a list
(items joined by commas, "and" or "or") on one side of it, and the other side's words
all the claim's: its verb (by its root, an -ing form as the verb), and, for a list
of objects, its subject, a person's pronoun the claim's own ("We cannot move ..." /
"we can move ..."); for a list of subjects the claim's subject is one item. Not when the
claim denies anything itself, or says a word of the condition the main part is cut
from ("... can be returned if they are faulty"). One of the conflicts claim-level
alignment checks (alignment.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .clauses import Part, is_negation, part, subject_words
from .denial import verb_of
from .lexical import STOPWORDS, root, stem
from .pieces import AUXILIARIES
from .units import Unit

# where a sentence's main part ends: a condition, an exception, a contrast
_MAIN_END = re.compile(r"\s*(?:;|,?\s+(?:unless|except|if|but|when|provided|as long as)\b)",
                       re.IGNORECASE)
_SEPARATOR = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_PERSONS = frozenset({"we", "you", "they", "i"})
# a phrase closing a list of objects bounds every item ("... or merchandise at the gate")
_BOUNDS = ("away from", "out of", "at", "on", "in", "into", "through", "from", "by", "during",
           "before", "after", "within", "outside", "inside")
_BOUND = re.compile(r"\s(?:" + "|".join(_BOUNDS) + r")\s", re.IGNORECASE)


def _words(text: str) -> frozenset[str]:
    return part(text).words if text.strip() else frozenset()


def _sides(main: str) -> tuple[str, str, str] | None:
    """The main part cut at its one negation: what comes before it, the negation with
    its auxiliaries and the verb it bears on, and what comes after."""
    toks = list(re.finditer(r"[\w'’-]+", main))
    at = [k for k, m in enumerate(toks) if is_negation(m.group().lower())]
    if len(at) != 1:
        return None
    lo = hi = at[0]
    while lo and toks[lo - 1].group().lower() in AUXILIARIES:
        lo -= 1
    while hi + 1 < len(toks) and toks[hi + 1].group().lower() in AUXILIARIES | {"be", "been"}:
        hi += 1
    if hi + 1 >= len(toks):
        return None
    hi += 1  # the verb
    return (main[:toks[lo].start()], main[toks[lo].start():toks[hi].end()],
            main[toks[hi].end():])


def _item(items: tuple[str, ...], claim: frozenset[str]) -> bool:
    """Whether the claim names one item of the list, whole, and no other's own words."""
    words = [_words(x) for x in items]
    if not all(words):
        return False  # "Courts 5 and 6": items told apart by a figure only
    named = [w for w in words if w <= claim]
    others = frozenset().union(*words) - frozenset().union(*named)
    return len(named) == 1 and not (others & claim)


@dataclass(frozen=True, slots=True)
class _Denial:
    """What a context sentence's main part denies of a list, read once per sentence: the
    words of what the main part is cut from, the denied verb, the text before and after
    the negation, the list's items on each side, and the phrase closing a list of objects
    ("at the gate"), cut from its last item."""

    rest: frozenset[str]
    verb: str
    before: str
    after: str
    subjects: tuple[str, ...]
    objects: tuple[str, ...]
    bound: str | None


@lru_cache(maxsize=4096)
def _denial(text: str) -> _Denial | None:
    """The sentence's denial of a list (`_Denial`), None when its main part has no one
    negation before a verb."""
    cut = _MAIN_END.search(text)
    main, rest = (text[:cut.start()], text[cut.start():]) if cut else (text, "")
    sides = _sides(main.rstrip(" ."))
    if sides is None:
        return None
    before, negated, after = sides
    verb = re.findall(r"[\w'’-]+", negated)[-1].lower()
    if verb in STOPWORDS:
        return None
    objects = _SEPARATOR.split(after)
    bound = None
    if len(objects) > 1 and (m := _BOUND.search(objects[-1])) is not None:
        bound = objects[-1][m.start():]
        objects[-1] = objects[-1][:m.start()]
    return _Denial(_words(rest), verb, before, after, tuple(_SEPARATOR.split(before)),
                   tuple(objects), bound)


def listed_denial(p: Part, near: list[Unit]) -> int | None:
    """The context sentence that denies, of a list's item the claim names, what the
    claim asserts of it (module docstring); None when there is none."""
    toks = p.info.tokens
    if any(h is not None for h in p.negations) or any(is_negation(t) for t in toks):
        return None
    subject = subject_words(p)
    sentences = {u.row: u.sentence for u in near}
    for row in sorted(sentences):
        d = _denial(sentences[row].info.text)
        if d is None or d.rest & p.words:
            continue
        # (the claim's verb, not a word of its subject: "flood cover can be added" has no
        # "cover" of its own, review 20)
        if not any((root(t) == root(d.verb) or verb_of(t, d.verb)) and stem(t) not in subject
                   for t in toks):
            continue
        # "We don't sell tickets, programmes or merchandise at the gate": the bound is
        # every item's, and the claim must state it, its preposition too (review 20: "we
        # sell tickets through our website" was read as a flip)
        if d.bound is not None and not (
                _words(d.bound) <= p.words
                and re.search(rf"\b{re.escape(d.bound.strip().lower())}\b", " ".join(toks))):
            continue
        if len(d.objects) > 1 and len(d.subjects) == 1:
            head = d.before.split()
            pronoun = head[0].lower() if len(head) == 1 and head[0].lower() in _PERSONS else None
            if (pronoun is not None and pronoun not in toks[p.info.lead:p.info.lead + 2]) or (
                    not _words(d.before) <= p.words) or (
                    pronoun is None and not _words(d.before)):
                continue
            if _item(d.objects, p.words):
                return row
        elif len(d.subjects) > 1 and len(d.objects) == 1 and _words(d.after) <= p.words and (
                _item(d.subjects, subject) and subject <= _words(d.before)):
            return row
    return None
