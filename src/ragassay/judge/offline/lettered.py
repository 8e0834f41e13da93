"""A claim that gives one lettered item's words to another of the same series ("Beginners
use Court B, beside the car park" for "Beginners use Court C, beside the car park. Court B
is kept for league matches.").

A single capital letter after a capitalised noun ("Court B", "Bay A", "Gate D") names one
item of a series; the tokenizer reads "A" and "D" as an article and a contraction's
letter (stopwords), and any other letter as a word too short to be a name, so a swap of
the letter alone passes every word-level check. Read on the text instead: the claim
names one lettered item; the context sentence sharing most of the claim's other words
(PREDICATE_SHARE of them, MIN_PREDICATE or more, no other sentence as many) names an item
of the same series by another letter and not the claim's, while another sentence names
the claim's: the claim says one item's words of the other. Not when a sentence naming
the claim's item says it shares the fact ("Bay A has one too": framed.shares), nor for a
claim naming two items or more of a series or comparing ("the same as"). One of the
entity conflicts of claim-level alignment (alignment.py); framed.py reads the same
letters in a sentence's subject, frame by frame.
"""

from __future__ import annotations

import re

from .clauses import Part
from .framed import COMPARES, shares
from .lexical import STOPWORDS, stem
from .units import Units

MIN_PREDICATE = 2  # content words besides the item's the claim must share with a sentence
PREDICATE_SHARE = 0.4  # ... and this share of them at least
# a capitalised noun and one capital letter, not an initial ("Anna B. Cole"), nor "I"
# ("Today I ..."), nor part of a hyphenated or dotted word; an "A" before a lower-case
# content word is the article ("Book A table")
_LABEL = re.compile(r"\b([A-Z][a-z]+)\s+([A-HJ-Z])\b(?![.'’-]\w)(?!\.\s+[A-Z][a-z])"
                    r"(?:\s+([a-z]+))?")


def labels(text: str) -> frozenset[tuple[str, str]]:
    """The lettered items a text names: (stem of the series' noun, letter)."""
    out = set()
    for m in _LABEL.finditer(text):
        head, letter, after = m.group(1).lower(), m.group(2), m.group(3)
        if head in STOPWORDS or (letter == "A" and after and after not in STOPWORDS):
            continue
        out.add((stem(head), letter))
    return frozenset(out)


def letter_swapped(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose words the claim says of another lettered item of its
    series (module docstring), or None."""
    mine = labels(claim.info.text)
    if len(mine) != 1 or COMPARES & set(claim.info.tokens):
        return None  # (two items, or one set against another: "the same as Bay A")
    (series, letter), = mine
    said = frozenset(w for w in claim.words if len(w) > 1) - {series}
    rows = units.rows_of(doc)
    row = units.closest(said, rows, max(MIN_PREDICATE, PREDICATE_SHARE * len(said)))
    if row is None:
        return None
    theirs = {x for s, x in labels(units.ctx.infos[row].text) if s == series}
    if not theirs or letter in theirs:
        return None
    holding = [j for j in rows if j != row and (series, letter) in labels(
        units.ctx.infos[j].text)]
    if not holding or any(shares(units.sentence(j).part) for j in holding):
        return None  # (named nowhere else; or its sentence shares the fact: "Bay A has
        # one too")
    return row
