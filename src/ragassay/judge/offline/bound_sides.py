"""The side a comparison bounds a figure from: "over 65", "more than 40", "65 and over",
"18 or older", "at least 18" bound it from below; "under 5", "less than 40", "5 and
under", "18 or younger", "at most 2" from above ("no more than 3": from above).

A claim that bounds a figure from one side where a context sentence bounds the same
figure from the other, and never from the claim's ("Children over 5 travel free" for
"Children under 5 travel free"; "if you're under 70" for "aged 70 and over"), with a
content word of the claim besides the figure's said in that sentence, has reversed the
bound: a turned relation, as "after" for "before" (relations.relation_turned). "over" and
"under" are read only right beside a figure ("over the phone" is no bound), and a span
before something is left alone ("up to 24 hours before" is "at least 24 hours before").
"""

from __future__ import annotations

from .clauses import Part
from .lexical import STOPWORDS

_BEFORE = {
    ("over",): "min", ("above",): "min", ("exceeding",): "min", ("least",): "min",
    ("minimum",): "min", ("more", "than"): "min", ("older", "than"): "min",
    ("greater", "than"): "min", ("longer", "than"): "min", ("heavier", "than"): "min",
    ("under",): "max", ("below",): "max", ("most",): "max", ("maximum",): "max",
    ("less", "than"): "max", ("fewer", "than"): "max", ("younger", "than"): "max",
    ("shorter", "than"): "max", ("lighter", "than"): "max",
}  # fmt: skip
_AFTER = {"over": "min", "above": "min", "more": "min", "older": "min", "plus": "min",
          "under": "max", "below": "max", "less": "max", "fewer": "max", "younger": "max"}
_JOIN = frozenset({"and", "or"})
_DENY = frozenset({"no", "not"})
_SPAN = frozenset({"before", "after", "earlier", "ahead", "prior", "later", "ago"})
_OTHER = {"min": "max", "max": "min"}


def _number(t: str) -> float | None:
    try:
        return float(t) if t[:1].isdigit() else None
    except ValueError:
        return None


def sides(toks: tuple[str, ...]) -> dict[float, set[str]]:
    """Each figure's comparison sides in the tokens (module docstring)."""
    out: dict[float, set[str]] = {}
    for i, t in enumerate(toks):
        n = _number(t)
        if n is None or _SPAN & set(toks[i + 1:i + 4]):
            continue
        found = out.setdefault(n, set())
        for words, side in _BEFORE.items():
            k = i - len(words)
            if k >= 0 and toks[k:i] == words:
                denied = k > 0 and toks[k - 1] in _DENY
                found.add(_OTHER[side] if denied else side)
        # "65 and over", "18 or younger", "8 people or more"
        for j in (i + 1, i + 2):
            if j + 1 < len(toks) and toks[j] in _JOIN and toks[j + 1] in _AFTER and (
                    j == i + 1 or toks[i + 1].isalpha() and toks[i + 1] not in _JOIN):
                found.add(_AFTER[toks[j + 1]])
                break
    return {n: s for n, s in out.items() if s}


def bound_turned(p: Part, u: Part) -> bool:
    """Whether the claim bounds a figure from the side opposite to the sentence's, which
    never bounds it from the claim's (module docstring)."""
    mine, theirs = sides(p.info.tokens), sides(u.info.tokens)
    for n, side in mine.items():
        other = theirs.get(n)
        if len(side) != 1 or not other or other & side:
            continue
        shared = {s for t, s in zip(p.info.tokens, p.info.all_stems, strict=True)
                  if t not in STOPWORDS and not t[:1].isdigit()} & u.words
        if shared:
            return True
    return False
