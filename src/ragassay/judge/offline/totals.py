"""A total an answer works out from the contexts' figures: "The blender costs £30.
Delivery is £10." gives "£40 in total"; "3 sessions of 2 hours" gives "6 hours";
"£20 per room" gives "£60" for "three rooms"; "£12 an adult, £6 a child" gives "£30"
for "two adults and one child". A careful reader checks the sum and finds the figure
stated by the contexts; a wrong sum ("£50 in total") stays a figure no context gives.

`with_worked_totals` reads the total into the context sentence whose figure completes
it ("Delivery is £10 (£40 in total)."), as worked.py reads a worked clock time, so every
check that reads figures finds it there. Only where the sum is sure:
- the figures added share their kind (the same currency sign, or the same unit word as
  the claim's figure) and come from one passage; a plain sum needs the claim to say it
  is one ("in total", "altogether", "including", "with");
- a product counts the claim's own figure of items ("three rooms", "4 weeks"), one the
  passage does not give a figure of its own, times a context figure, or two figures of
  one context sentence whose unit word the claim's figure carries ("3 sessions of 2
  hours" -> "6 hours").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations, product

from .clauses import Part
from .lexical import stem
from .sentences import ContextIndex

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_FIGURE = re.compile(
    r"(?P<sign>[£$€])?(?P<num>\d[\d,]*(?:\.\d+)?|\b(?:" + "|".join(_WORDS) + r")\b)"
    r"(?:[ -](?P<unit>[a-z]+))?", re.IGNORECASE)
_TOTAL = re.compile(r"\b(?:in total|total|altogether|in all|combined|overall|including|"
                    r"includ\w*|with|plus|comes? to|all in)\b", re.IGNORECASE)
_MAX_COUNT = 24  # items a claim counts ("three rooms"), not prices or years


@dataclass(frozen=True)
class _Figure:
    value: float
    sign: str  # currency sign, or ""
    unit: str  # stem of the word after it, or ""
    at: int  # context sentence index (-1: the claim)
    raw: str = ""  # as written ("three rooms")


def _figures(text: str, at: int) -> list[_Figure]:
    out = []
    for m in _FIGURE.finditer(text):
        num = m.group("num").lower()
        if num[:1].isdigit() and (m.start() > 0 and text[m.start() - 1].isalnum()):
            continue
        v = float(_WORDS[num]) if num in _WORDS else float(num.replace(",", ""))
        unit = m.group("unit") or ""
        out.append(_Figure(v, m.group("sign") or "", stem(unit.lower()) if unit else "", at,
                           m.group(0)))
    return out


def _same_kind(a: _Figure, b: _Figure) -> bool:
    return (a.sign or a.unit) != "" and a.sign == b.sign and (bool(a.sign) or a.unit == b.unit)


def _close(x: float, y: float) -> bool:
    return abs(x - y) < 1e-6


def _worked(x: _Figure, claim: str, figs: list[_Figure]) -> tuple[int, str] | None:
    """The context sentence whose figure completes the total `x`, and the claim's counts
    it takes ("three rooms"), or None."""
    said = _TOTAL.search(claim) is not None
    kin = [f for f in figs if _same_kind(f, x)]
    # (a count the passage states is priced there: "£50 for a 10-session card" is no
    # "10 sessions at £7")
    stated = {f.value for f in figs}
    counts = [f for f in _figures(claim, -1) if f.value != x.value and not f.sign
              and f.value == int(f.value) and 1 <= f.value <= _MAX_COUNT
              and f.value not in stated]
    named = " and ".join(f.raw for f in counts)
    if said:
        for a, b in combinations(kin, 2):
            if _close(a.value + b.value, x.value):
                return max(a.at, b.at), ""
    for a in kin:
        if any(k.value > 1 and _close(k.value * a.value, x.value) for k in counts):
            return a.at, named
    # (each count of the claim used once: "two adults and one child"; or one and a single)
    pairs = [(k.value, 1.0) for k in counts]
    pairs += [(k.value, m.value) for k, m in permutations(counts, 2)]
    for (a, b), (k, m) in product(permutations(kin, 2), pairs):
        if (k != 1 or m != 1) and _close(k * a.value + m * b.value, x.value):
            return max(a.at, b.at), named
    if x.unit:
        for a, b in combinations(figs, 2):
            if a.at == b.at and x.unit in (a.unit, b.unit) and _close(a.value * b.value, x.value):
                return a.at, ""
    return None


def with_worked_totals(texts: Sequence[str], docs: Sequence[int], answer: str) -> list[str]:
    """The context sentences, each with the totals of the answer it completes read in."""
    out = list(texts)
    stated = {f.value for i, t in enumerate(texts) for f in _figures(t, i)}
    for claim in re.split(r"(?<=[.!?])\s+", answer):
        for x in _figures(claim, -1):
            if x.value in stated or x.value <= 1:
                continue
            for d in dict.fromkeys(docs):
                figs = [f for i, t in enumerate(texts) if docs[i] == d for f in _figures(t, i)]
                found = _worked(x, claim, figs)
                if found is not None:
                    j, named = found
                    body = out[j].rstrip()
                    end = body[-1] if body[-1:] in ".!?" else ""
                    shown = f"{x.sign}{x.value:.2f}".replace(".00", "") if x.sign \
                        else f"{x.value:g}"
                    tail = f" for {named}" if named else ""
                    out[j] = f"{body[:len(body) - len(end)]} ({shown}{tail} in total){end or '.'}"
                    break
    return out


_READ_IN = re.compile(r"\((?P<total>[^()]*) in total\)")


def worked_values(text: str) -> frozenset[float]:
    """The figures a context sentence has read in as the answer's worked totals (with the
    claim's counts they take): what a claim's figure may be without counting anything
    the sentence counts otherwise."""
    return frozenset(f.value for m in _READ_IN.finditer(text)
                     for f in _figures(m.group("total"), -1))


def without_worked(parts: list[Part], ctx: ContextIndex) -> list[Part]:
    """The claim's clauses without the figures some context sentence reads in as their
    worked totals: such a figure counts nothing the sentence counts with another value."""
    worked = frozenset().union(*(worked_values(i.text) for i in ctx.infos))
    if not worked:
        return parts
    return [replace(p, figures=tuple((n, k) for n, k in p.figures if n not in worked))
            for p in parts]
