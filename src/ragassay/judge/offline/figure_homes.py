"""Where a claim's figures are at home, beside the unit alignment reads them against
(alignment._numbers): a figure is no other value of what the unit counts when

- it is one of the unit's own figures in other units ("two days" of "at least 48
  hours": `in_other_units`), or
- another context sentence gives every figure of the claim together, and the claim's
  sentence states every word of it ("..., up to 6 tablets in 24 hours" of "Do not take
  more than 6 tablets in 24 hours", a clause whose subject, taken from its sentence,
  pulls it toward "Adults ... may take one or two tablets every 4 to 6 hours":
  `stated_together`).

A single figure is never at home so: the contexts may give it to another thing (a
number change takes its figure from elsewhere in the passages); two together, in a claim
saying every word of that sentence, restate it.
"""

from __future__ import annotations

import math
import re

from .clauses import Part
from .normalise import HEDGES, hedged_near, written_values
from .totals import worked_values
from .units import Units

_FIGURE = re.compile(r"\d+(?:\.\d+)?")
MIN_FIGURES = 2  # figures a claim must share, all of them, with the other sentence


def in_other_units(u: Part) -> frozenset[float]:
    """The values the unit gives its figures in other units as well ("48 hours": 2 days,
    2880 minutes), none it writes."""
    return written_values(u.text) - {float(x) for x in _FIGURE.findall(u.text)}


def stated_together(p: Part, row: int, units: Units, said: frozenset[str]) -> bool:
    """Whether a context sentence other than `row` gives all of the claim's figures (at
    least MIN_FIGURES), each counting what the claim's counts, and the claim's sentence
    (`said`, its words; p's own where empty) states every content word of it: the claim
    restates that sentence, no word of another thing's in it ("The Jungle arena ... is
    recommended for ages 7-10" is no home of "The Space Station arena ...: it's
    recommended for ages 7 to 10")."""
    figures = set(p.figures)
    worked = worked_values(units.ctx.infos[row].text)
    if worked and all(n in worked or n == 1 for n, _ in figures):
        return True  # (a total the answer works out of the sentence's figures: totals.py)
    if len(figures) < MIN_FIGURES or any(k is None for _, k in figures):
        return False
    words = (said or p.words) | p.words | {k for _, k in figures if k is not None}
    for j in range(len(units.ctx)):
        if j == row or units.ctx.infos[j].asks:
            continue
        other = units.sentence(j).part
        if figures <= set(other.figures) and other.words <= words:
            return True
    return False


def rounded_from(p: Part, figure: tuple[float, str | None],
                 figures: list[tuple[float, str | None]]) -> bool:
    """Whether the claim writes its `figure` (n, key) hedged ("almost 200", "around 40")
    and a figure of the unit counting the same (its key) rounds to it at the digits n
    states and stands near it (198, 38; not 140 for "about 100", `normalise.hedged_near`;
    not 21 days for "about 20 books"): the rounded value of the unit's own, no other."""
    n, key = figure
    toks = p.info.tokens
    if not any(t in HEDGES for t in toks):
        return False  # (most claims)
    at = [i for i, t in enumerate(toks) if t[:1].isdigit() and _FIGURE.fullmatch(t)
          and float(t) == n]
    if not at or not all(i and toks[i - 1] in HEDGES for i in at):
        return False
    digits = _significant(f"{n:g}")
    hedge = toks[at[0] - 1]
    return any(m != n and m and k == key and _round_to(m, digits) == n
               and hedged_near(hedge, n, m) for m, k in figures)


def _significant(num: str) -> int:
    digits = num.replace(".", "").lstrip("0")
    return max(1, len(digits.rstrip("0") if "." not in num else digits) or 1)


def _round_to(x: float, digits: int) -> float:
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))
