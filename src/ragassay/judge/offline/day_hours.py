"""Hours given bare ("The hall is open from 7am to 10pm") where the contexts give them
for part of the week only and other hours for the rest ("7am to 10pm on weekdays, and
8am to 6pm at weekends"): the claim states one day's hours as the hours, dropping the
days they hold on, as `hours.hours_widened` reads "every day" with them.

A claim that names days or parts of the day ("during the week" among them), is quantified
(hours_widened's), or answers a question that names the days keeps them; so does one whose
hours some clause gives on no day in particular, or when no clause gives other hours on
the other days.
"""

from __future__ import annotations

import re

from .clauses import Part, clause_parts
from .hours import clock_values
from .lexical import stem
from .scope import CLOCK
from .units import Units
from .weeks import WEEKDAYS, named_times, week_days
from .whole_time import ALL_YEAR

_MIN_TIMES = 2  # a span of hours ("from 9am to 8pm")
_DAY_WORDS = frozenset(stem(w) for w in ("weekday", "weekend", "monday", "tuesday",
                                         "wednesday", "thursday", "friday", "saturday",
                                         "sunday"))

# "during the week", "in the week": the weekdays, as "on weekdays" (not "a week", "all week")
_THE_WEEK = re.compile(r"\b(?:during|in|through)\s+the\s+week\b(?!\s*end)", re.I)


def hours_unplaced(p: Part, units: Units, doc: int | None = None,
                   said: frozenset[str] = frozenset()) -> int | None:
    """The context sentence whose hours for some days the claim gives as the hours, the
    sentence giving other hours for the other days (module docstring), or None; `said`:
    the words of the claim's whole sentence when `p` is a clause of it (its days)."""
    clock = clock_values(p)  # ("9am to 9pm": 9.0 twice)
    if p.universal or sum(k == CLOCK for _, k in p.figures) < _MIN_TIMES or named_times(
            p) or ALL_YEAR.search(p.text) or _DAY_WORDS & (p.stems | said | units.given) or (
            _THE_WEEK.search(p.text)):
        return None
    topic = p.words - {k for _, k in p.figures}
    for row in units.ctx.rows(doc) if doc is not None else range(len(units.ctx.infos)):
        s = units.sentence(row).part
        if len(topic & s.words) < 1 or not clock <= clock_values(s):
            continue
        held: set[str] = set()
        other: set[str] = set()
        for c in clause_parts(s.text):
            days = week_days(c, None)
            values = clock_values(c)
            if clock <= values:
                if not days:
                    return None  # these hours on no day in particular
                held |= days
            elif values and days:
                other |= days
        if held and other - held and held != WEEKDAYS:
            return row
    return None
