"""The places a clause names, and whether a claim and a unit name different ones
(issue #38). A phrase after a preposition of place names where the clause's statement
holds; its head, the last content word of the phrase, is the place ("in ground-floor
rooms": rooms). A unit turned against a claim on another place says nothing of the
claim's ("A permit is required to fish in the lake" is no flip of "You don't need a
permit to fish from the pier"): `polarity._turned_loosely` skips it; `deontic` reads
a claim word after a preposition of place as a place, no action."""

from __future__ import annotations

from .clauses import DETERMINERS, Part, lemma_stems
from .lexical import STOPWORDS, crude_root

# prepositions that open a place ("on the towpath", "from the pier")
PLACED = frozenset({"on", "in", "at", "into", "onto", "inside", "near", "along", "by",
                    "from", "across", "around"})
_REACH = 3  # tokens before a word a preposition of place stands within


def placed(p: Part, root: str) -> bool:
    """Whether the clause's word with this root follows a preposition of place within
    _REACH tokens ("on the towpath", "in the skate park"), so names a place, no action."""
    toks = p.info.tokens
    for t, w in p.pairs:
        if crude_root(w) == root and t in toks:
            i = toks.index(t)
            return any(x in PLACED for x in toks[max(0, i - _REACH):i])
    return False


def place_heads(p: Part) -> frozenset[str]:
    """The stems of the heads of the clause's places: after a preposition of place and
    its determiners, the last of the run of content words ("at the harbour wall": wall;
    "in ground-floor rooms": rooms)."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    out = set()
    for i, t in enumerate(toks):
        if t not in PLACED:
            continue
        j = i + 1
        while j < len(toks) and toks[j] in DETERMINERS:
            j += 1
        last = None
        while j < len(toks) and toks[j] not in STOPWORDS and toks[j].strip("'’-").isalpha():
            last = stems[j]
            j += 1
        if last is not None:
            out.add(last)
    return frozenset(out)


def other_place(p: Part, u: Part) -> bool:
    """Whether the claim and the unit each name a place the other does not name at all
    ("from the pier" / "in the lake"; not "in the hotel's rooms" / "in ground-floor
    rooms", one place)."""
    mine, theirs = place_heads(p), place_heads(u)
    return bool(mine - u.stems) and bool(theirs - p.stems) and not mine & theirs
