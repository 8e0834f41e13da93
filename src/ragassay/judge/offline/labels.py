"""A name's number ("Line 2", "Locker 14"; counts.figures keys it "#line") names its
bearer; it counts nothing. A context sentence about "Line 1" restates a claim about
"Line 2" only when no context sentence speaks of "Line 2": where one does, the claim is
about that one, and the other line's figures are no rival values of it ("Line 2 trains
run every 10 minutes" beside "Line 1 trains run every 10 minutes at peak times" and
"Line 2 runs every 10 minutes all day"). Where none does, or the one that does says
little of the claim, the claim's "2" is set against "Line 1" as before (a number change).
"""

from __future__ import annotations

from .clauses import Part
from .units import Unit, Units


def _labels(figures: tuple[tuple[float, str | None], ...]) -> set[tuple[float, str]]:
    return {(n, k) for n, k in figures if k is not None and k[0] == "#"}


MAX_UNSAID = 1  # claim words the sentence naming its bearer may leave unsaid ("trains")


def _borne(p: Part, units: Units, label: tuple[float, str]) -> bool:
    """Whether a context sentence names the label and says the claim, all but MAX_UNSAID
    of its words ("Line 2 runs every 10 minutes all day"; not "Screen 1 is our largest
    auditorium" for "Dolby Atmos is in Screen 1")."""
    return any(label in units.sentence(j).part.figures
               and len(p.words - units.sentence(j).words) <= MAX_UNSAID
               for j in range(len(units.ctx.infos)))


def other_bearer(p: Part, u: Unit, units: Units) -> bool:
    """Whether the unit names another bearer than the claim (another number of the same
    name) while a context sentence names the claim's own and says the claim."""
    mine = _labels(p.figures)
    if not mine:
        return False  # (most claims: no name's number)
    theirs = _labels(u.part.figures) | _labels(u.sentence.figures)
    return any(lab not in theirs and any(k == lab[1] for _, k in theirs)
               and _borne(p, units, lab) for lab in mine)
