"""The side a comparison bounds a figure from ("over 65", "65 and over", "more than 2 kg"
are its upper side; "under 65", "65 or younger", "fewer than 30" its lower side), and a
claim that restates a context sentence with only that side turned: "Parcels over 2 kg
ship for £3.50" for "Parcels under 2 kg ship for £3.50".

A complement is no reversal: the other side given with the other outcome ("Tours run
with at least 6 people" / "Tours with fewer than 6 people are cancelled") says a word the
sentence lacks, and a passage that gives the claim's side of the figure with the claim's
own words is left alone. Where every sentence giving the claim's side ties it to another
fact (`tied_elsewhere`), the claim gives one band the other's fact: "Children under 12
pay $8" beside "Children under 12 ride free" and "Passengers 12 and over pay $8". So the
claim must add no content word to the sentence (but the comparison's own), share at
least SHARED with it and more than with any sentence giving its side, and give the
figure counting the same thing (or either side an age: "visitors under 60" for "visitors
aged 60 and over"; or the same word before the comparison, `_head`). A negated claim is
left alone where the passage gives its side.
"""

from __future__ import annotations

from .clauses import Part
from .counts import AGE, is_number, number_value
from .lexical import STOPWORDS, stem
from .units import Units

# ("above"/"below" are relations.py's turned relation, its antonym conflict)
# a time bound is a side too: "within 14 days" and "before 6 pm" bound it from below,
# "after 14 days" and "from 6 pm" from above
_BEFORE = {"min": (("over",), ("more", "than"), ("greater", "than"),
                   ("older", "than"), ("longer", "than"), ("heavier", "than"),
                   ("after",), ("from",)),
           "max": (("under",), ("less", "than"), ("fewer", "than"),
                   ("younger", "than"), ("shorter", "than"), ("lighter", "than"),
                   ("within",), ("before",))}
_AFTER = {"min": (("and", "over"), ("or", "over"), ("or", "older"), ("or", "more")),
          "max": (("and", "under"), ("or", "under"), ("or", "younger"), ("or", "less"),
                  ("or", "fewer"))}
_WORDS = frozenset(stem(w) for d in (_BEFORE, _AFTER) for xs in d.values() for x in xs
                   for w in x) | {stem("aged")}  # ("aged 5 and over": the band's own word)
_RAW = frozenset(w for d in (_BEFORE, _AFTER) for xs in d.values() for x in xs for w in x)
SHARED = 2


def sides(toks: tuple[str, ...]) -> dict[float, set[str]]:
    """Each figure's sides a comparison bounds it from (right before it, or right after
    it or the word it counts)."""
    out: dict[float, set[str]] = {}
    for i, t in enumerate(toks):
        if not is_number(t):
            continue
        try:
            n = float(t)
        except ValueError:
            continue
        found = out.setdefault(n, set())
        for side in ("min", "max"):
            if any(toks[max(0, i - len(x)):i] == x for x in _BEFORE[side]) or any(
                    tuple(toks[i + k:i + k + 2]) == x for x in _AFTER[side] for k in (1, 2)):
                found.add(side)
    return out


def side_turned(p: Part, units: Units, rows: list[int]) -> int | None:
    """The context sentence the claim restates with a figure's comparison turned to the
    other side (module docstring), or None."""
    mine = {n: s for n, s in sides(p.info.tokens).items() if len(s) == 1}
    if not mine:
        return None
    infos = units.ctx.infos
    keys = {k for _, k in p.figures}
    own = p.words - keys - _WORDS - {w for w in p.words if is_number(w)}
    for n, side in mine.items():
        bands = [units.sentence(j).part.words for j in range(len(infos))
                 if not infos[j].asks and side <= sides(infos[j].tokens).get(n, set())]
        if bands and (any(p.negations) or not tied_elsewhere(own, bands)):
            continue  # (the passage gives the claim's side: a complement, `tied_elsewhere`)
        for j in rows:
            u = units.sentence(j).part
            if infos[j].asks or sides(infos[j].tokens).get(n, set()) != {"max", "min"} - side:
                continue
            if _denied(p) != _denied(u):
                continue  # ("can't be returned after 30 days" / "returned within 30 days")
            counted = {k for m, k in u.figures if m == n}
            mine_counted = {k for m, k in p.figures if m == n} - _WORDS
            if mine_counted and not mine_counted & counted and AGE not in counted | mine_counted \
                    and not _head(p.info.tokens, n) & _head(infos[j].tokens, n):
                continue  # (what the figure counts: the same, or an age it bounds)
            if len(own & u.words) >= SHARED and own <= u.words and all(
                    len(own & w) < len(own & u.words) for w in bands):
                return j
    return None


def _head(toks: tuple[str, ...], n: float) -> set[str]:
    """The word each bounded n qualifies: the content word before its comparison
    ("Visitors under 16", "Bookings of 4 or more nights"), as stems."""
    out = set()
    for i, t in enumerate(toks):
        if not is_number(t) or number_value(t) != n:
            continue
        j = i - 1
        while j >= 0 and (toks[j] in _RAW or toks[j] in STOPWORDS or toks[j] == "aged"):
            j -= 1
        if j >= 0 and not is_number(toks[j]):
            out.add(stem(toks[j]))
    return out


def tied_elsewhere(own: frozenset[str], bands: list[frozenset[str]]) -> bool:
    """Whether the sentences that bound the figure from the claim's side tie that band
    to another fact than the claim's ("Children under 12 ride free" beside "Passengers
    12 and over pay $8", for "Children under 12 pay $8"): none of them holds the claim's
    own words, so the band the claim gives its fact is the other sentence's, turned."""
    return not any(own <= w for w in bands)


def _denied(p: Part) -> bool:
    """Whether the clause is negated: the other side denied is the same bound."""
    return any(h is not None for h in p.negations)
