"""What a figure measures: its unit's kind (a length of time, a distance, a weight, a
volume, an amount of data, an amount of money or a share of one), and the rate it is
charged per ("£2 per day").

A claim that gives a context's value in another unit of the same kind ("expire after 30
minutes" for "after 30 days"; "12 miles" for "12 km"; "£25 off" for "25% off"; "£2 per
hour" for "£2 per day") has changed the number's unit: a number change. Read only where
no context sentence gives the claim's value in the claim's own unit (or per the claim's
own rate), a context sentence that gives it in the other unit says at least SHARED of the
claim's content words (it is about the same thing), and the claim's sentence does not
give the value in that other unit too (it may say both). A value in other units that
counts.py or measures.py converts ("2 weeks": 14 days; "48 hours": 2 days) is no swap:
it is the same length, and no value these rules read.
"""

from __future__ import annotations

from .clauses import Part
from .counts import is_number
from .lexical import stem
from .units import Units

_KINDS = (
    ("minut", "hour", "day", "year"),  # (weeks and months are read as days)
    ("kilom", "mile", "metre", "centi", "feet", "ft", "inche", "yard"),
    ("kilog", "gram", "g", "lb", "lbs", "oz", "ounce", "stone"),
    ("litre", "gallo"),
    ("mb", "gb", "tb"),
    ("pound", "dolla", "euro", "pence", "perce"),
)
_SAME = {"lbs": "lb", "ft": "feet", "g": "gram", "ounce": "oz"}  # one unit's spellings
_KIND = {k: i for i, kind in enumerate(_KINDS) for k in kind}
_PER = frozenset({"per", "a", "an", "each", "every"})
_SPANS = frozenset({"minute", "hour", "day", "night", "week", "month", "year"})
SHARED = 2  # content words the claim shares with the sentence giving the value


def _unit(key: str | None) -> str | None:
    return None if key is None else _SAME.get(key, key)


def _rates(toks: tuple[str, ...]) -> frozenset[str]:
    """The spans a sentence's figures are charged per: "per day" or "a night" right after
    a figure ("2 pounds per day", "£70 a night"; "5 gb a month")."""
    out = set()
    for i in range(2, len(toks)):
        if toks[i].rstrip("s") in _SPANS and toks[i - 1] in _PER and (
                is_number(toks[i - 2]) or i > 2 and is_number(toks[i - 3])):
            out.add(toks[i].rstrip("s"))
    return frozenset(out)


def _written(toks: tuple[str, ...]) -> set[tuple[float, str]]:
    """The figures a sentence writes as a number right before its unit ("30 minutes", "£25"
    as "25 pounds"), none read from a pronoun "one" or a unit's article ("a year")."""
    out = set()
    for a, b in zip(toks, toks[1:], strict=False):
        key = _unit(stem(b))
        if is_number(a) and key in _KIND:
            try:
                out.add((float(a), key))
            except ValueError:
                continue
    return out


def _shared(p: Part, u: Part) -> int:
    keys = {k for _, k in p.figures} | {k for _, k in u.figures} | {"per"} | _SPANS
    return len({w for w in p.words & u.words - keys if not is_number(w)})


def unit_swapped(p: Part, units: Units, rows: list[int],
                 said: set[tuple[float, str | None]]) -> int | None:
    """The context sentence that gives the claim's value in another unit of its kind, or
    at another rate (module docstring), or None."""
    figures = {(m, _unit(k)) for m, k in p.figures}
    claimed = sorted(f for f in _written(p.info.tokens) if f in figures)
    if not claimed:
        return None
    infos = units.ctx.infos
    parts = {j: units.sentence(j).part for j in range(len(infos)) if not infos[j].asks}
    given = {(m, _unit(k)) for u in parts.values() for m, k in u.figures}
    mine = {(m, _unit(k)) for m, k in said} | set(claimed)
    rates = _rates(p.info.tokens)
    for n, key in claimed:
        for j in rows:
            u = parts.get(j)
            if u is None or _shared(p, u) < SHARED:
                continue
            theirs = {k for m, k in _written(u.info.tokens) if m == n}
            other = {k for k in theirs if k != key and k in _KIND and _KIND[k] == _KIND[key]}
            if other and (n, key) not in given and not {(n, k) for k in other} & mine:
                return j
            their_rates = _rates(units.ctx.infos[j].tokens)
            if key in theirs and rates and their_rates and not rates & their_rates and not (
                    any(_rates(parts[i].info.tokens) & rates for i in parts
                        if (n, key) in {(m, _unit(k)) for m, k in parts[i].figures})):
                return j
    return None
