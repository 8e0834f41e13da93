"""The items of a list inside a claim's clause, each read on its own for an invented item
("It covers fire, theft, windscreen repair and breakdown recovery": "breakdown
recovery"; alignment.align asks whether a context states each).

Items are parallel: the middle ones are bare ("theft"), while the first and the last
carry the clause's shared words ("It covers fire", "pick-up are all part of the hire"),
which the whole clause was read for already. So the first item is read as the stretch
of its words nearest the list with as many content words as the longest middle item
("fire"), and the last one up to its verb ("pick-up"): the predicate is the clause's,
no detail of its own. A range's "between X and Y" is no
list: its "and" joins two bounds ("between Kessock and Avoch").

(Session 26: `statements`, which put back together what the clause cutter split inside
a list or a range before the unstated check, was withdrawn: a held-out answer went right
to wrong with it.)
"""

from __future__ import annotations

import re

from .lexical import STOPWORDS
from .pieces import OR_BOUND

_ITEM = re.compile(rf"\s*,\s*(?:(?:and|plus)\s+)?|\s+(?:and|plus|(?!{OR_BOUND})or)\s+",
                   re.IGNORECASE)  # (", plus new strings": the item "new strings")
# "between <up to three words> and": the bounds of a range or a route, kept together
_BETWEEN = re.compile(r"\bbetween\s+((?:[\w'-]+\s+){0,2}[\w'-]+)\s+and\s+", re.IGNORECASE)
_JOIN = "\u2060"  # a character no text holds, standing for the kept "and" while splitting


def list_items(text: str) -> list[str]:
    """The items of a list in `text` (none when it holds no list), its end items cut to
    the item itself (module docstring)."""
    kept = _BETWEEN.sub(lambda m: m.group(0).replace(" and ", f" {_JOIN} "), text)
    pieces = [x.replace(f" {_JOIN} ", " and ") for x in _ITEM.split(kept) if x]
    if len(pieces) < 2:
        return []
    if len(pieces) >= 3:
        size = max(_content(x.split()) for x in pieces[1:-1])
        pieces[0] = " ".join(_nearest(pieces[0].split()[::-1], size)[::-1])
        tail = pieces[-1].split()  # (its words up to its verb: "a lighting technician")
        verb = next((k for k, w in enumerate(tail) if k and _VERBAL.fullmatch(w)), None)
        pieces[-1] = " ".join(tail[:verb] if verb else tail)
    return [x for x in pieces if x != text]


def _content(words: list[str]) -> int:
    return sum(1 for w in words if w.lower() not in STOPWORDS)


def _nearest(words: list[str], size: int) -> list[str]:
    """`words` (the first item's, read backwards from the list) up to the `size`-th
    content word ("lentils" of "needs more lentils", the middle items one word each)."""
    out: list[str] = []
    for w in words:
        if _content(out) >= size:
            break
        out.append(w)
    return out


# words that make a word a verb of the clause, not part of a list item
_VERBAL = re.compile(r"\b(?:is|are|was|were|be|been|can|could|will|would|should|may|might|"
                     r"must|has|have|had|do|does|did|i|we|you|they|it|\w+n't|not|no)\b",
                     re.IGNORECASE)
