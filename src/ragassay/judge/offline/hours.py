"""The hours a claim gives for "every day" or "all year", read against the context clause
that gives the same hours: the clock times are the evidence that ties the two, whatever
the claim's other words ("Check-in is between 9am and 11am, every day of the week" has
one content word besides its times, too few to align). Where each clause with those hours
holds them on part of the week or of the year only ("... Monday to Thursday from 9am to
8pm and on Fridays from 9am to 5pm", "8am to 6pm from April to October and 9am to 4pm
from November to March"), the claim widens what they say to every day; a clause that
places them on no days, or on every day ("daily", "seven days a week"), bounds nothing.
"""

from __future__ import annotations

from .clauses import Part, clause_parts
from .lexical import YEAR
from .scope import CLOCK, TIMES
from .units import Units
from .weeks import WEEKDAYS, named_days, week_days, year_months
from .whole_time import ALL_YEAR

_MIN_TIMES = 2  # a span of hours ("from 9am to 8pm"): one time is too easily shared


def clock_values(p: Part) -> frozenset[float]:
    """The clock times a text states (8.0 for "8 am" and "8 pm" alike)."""
    return frozenset(n for n, k in p.figures if k == CLOCK)


def needed_days(p: Part) -> frozenset[str]:
    """The days of the week a claim says its hours hold on: those it names ("every
    weekday", "every weekend"), else the whole week."""
    return named_days(p) or WEEKDAYS


def _bound(c: Part, s: Part, year: bool) -> frozenset[str]:
    """The days (or, for `year`, the months) a clause holds on: its own, else its
    sentence's; none when it is quantified over time itself ("open daily")."""
    if any(h in TIMES for h in c.quantified if h):
        return frozenset()
    for x in (c, s):
        found = year_months(x) if year else week_days(x, None)
        if found:
            return found
    return frozenset()


def hours_widened(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose hours a claim quantified over the days or the year
    says of more days or months than each clause giving those hours holds them on (the
    union of those clauses' days falls short of what the claim needs), or None."""
    heads = {h for h in p.quantified if h}
    if not heads or not heads <= TIMES or CLOCK in heads:
        return None  # ("at any time between 9 and 5": within the hours, not the days)
    if sum(k == CLOCK for _, k in p.figures) < _MIN_TIMES:
        return None
    clock = clock_values(p)  # ("7am to 7pm": 7.0 twice)
    year = ALL_YEAR.search(p.text) is not None
    need = frozenset(YEAR) if year else needed_days(p)
    topic = p.words - TIMES
    held: set[str] = set()
    first: int | None = None
    for row in units.ctx.rows(doc) if doc is not None else range(len(units.ctx.infos)):
        s = units.sentence(row).part
        if not topic & s.words or not clock <= clock_values(s):
            continue
        cs = clause_parts(s.text)
        for i, c in enumerate(cs):
            if not clock <= clock_values(c):
                continue
            bound = _bound(c, s, year)
            # a list of days the splitter cut after the hours ("... on Saturdays | and
            # Sundays too"): the clauses that follow with no times of their own
            for d in cs[i + 1:]:
                if clock_values(d) or any(d.negations):
                    break
                if bound and not year:
                    bound |= named_days(d)
            if not bound:
                return None  # these hours on no day in particular: the claim's
            held |= bound
            first = row if first is None else first
    return first if first is not None and not need <= held else None
