"""When a statement holds: the days and parts of the week and of the year it is placed in.

"on weekdays", "at weekends", "on Tuesday afternoons", "Monday to Friday": scope reads
these to tell whether a claim said "every day" of what a context bounds (scope.time_bound:
not where the context's days fill out the week, `week_days`), dropped whether a claim left
a time out (`day_range`, `placed_times`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part
from .lexical import DAYS, MONTHS, YEAR, stem

# parts of the week, the day and the year that recur: "on weekdays" bounds "every day"
# (a month dates an event: "released in February 2010" is no limit of "in 2010")
WEEKDAYS = frozenset(DAYS)
WEEK = WEEKDAYS | {"weekday", "weekend"}  # the recurring parts of the week
# the stems of the days and the months: times, not names (a later clause is about no
# "Monday"; "November" is no alternative of "Paine")
CALENDAR = frozenset(stem(w) for w in WEEKDAYS | MONTHS)
_NARROW_TIMES = WEEK | {  # words (a stem of "afternoon" is "after"'s)
    "morning", "afternoon", "evening", "night", "spring", "summer", "autumn", "winter",
    "holidays", "term"}  # ("during term time"; "terms" are conditions: time_word)
_TIME_PLACES = frozenset({"on", "in", "at", "during"})


_TO = frozenset({"to", "through", "until", "till"})
_PARTS = {"weekday": frozenset(DAYS[:5]), "weekend": frozenset(DAYS[5:])}


def ranges(toks: Sequence[str], names: Sequence[str]) -> list[frozenset[str]]:
    """Each "X to Y" (or "between X and Y") range of the text over `names` (days, months:
    wrapping round), as the names it spans ("Tuesday to Saturday": five days)."""
    out = []
    for i in range(len(toks) - 2):
        joined = toks[i + 1] in _TO or (toks[i + 1] == "and" and i > 0
                                         and toks[i - 1] == "between")
        if toks[i] in names and joined and toks[i + 2] in names:
            a, b = names.index(toks[i]), names.index(toks[i + 2])
            out.append(frozenset(names[(a + k) % len(names)]
                                 for k in range((b - a) % len(names) + 1)))
    return out


def year_months(u: Part) -> frozenset[str]:
    """The months the unit's ranges span ("from May to September": five)."""
    return frozenset[str]().union(*ranges(u.info.tokens, YEAR))


def day_range(u: Part) -> bool:
    """Whether the unit names a range of days of the week ("Monday to Thursday",
    "Mon-Fri" written out): a recurring part of the week, with or without "on"."""
    return bool(ranges(u.info.tokens, DAYS))


def week_days(u: Part, sentence: Part | None) -> frozenset[str]:
    """The days of the week the unit and its sentence place what they say on: ranges
    ("Monday to Friday"), days and parts of the week ("at weekends")."""
    out: set[str] = set()
    for x in (u, sentence or u):
        placed = placed_times(x)
        out.update(*ranges(x.info.tokens, DAYS), placed & WEEKDAYS,
                   *(_PARTS[w] for w in placed & set(_PARTS)))
    return frozenset(out)


def named_days(p: Part) -> frozenset[str]:
    """The days of the week a text names, placed or not ("every weekday morning", "every
    Monday to Thursday", "at weekends"): its ranges, its days, its parts of the week."""
    named = named_times(p)
    return frozenset().union(*ranges(p.info.tokens, DAYS), named & WEEKDAYS,
                             *(_PARTS[w] for w in named & set(_PARTS)))


def whole_week(times: frozenset[str]) -> bool:
    """Whether the times a unit places its statement in make up the week ("on weekdays
    at 11am, and on Saturdays and Sundays at 2pm"): no bound of "every day"."""
    return "weekday" in times and ("weekend" in times or {"saturday", "sunday"} <= times)


def time_word(token: str) -> str | None:
    """The narrowing time a token names ("afternoons": afternoon), or None."""
    if token == "terms":
        return None  # (conditions, not a term's time)
    t = token[:-1] if token.endswith("s") and token[:-1] in _NARROW_TIMES else token
    return t if t in _NARROW_TIMES else None


def named_times(p: Part) -> frozenset[str]:
    """The narrowing times a claim or unit names."""
    return frozenset(w for t in p.info.tokens if (w := time_word(t)) is not None)


def placed_times(u: Part, recurring: bool = False) -> frozenset[str]:
    """The unit's narrowing times placed by a preposition at most three tokens before
    ("on weekdays", "on the first Thursday", "at weekends"); `recurring`: in the plural
    only ("on Tuesday afternoons", not the day of one event, "on a Sunday in 1901")."""
    toks = u.info.tokens
    return frozenset(w for i, t in enumerate(toks) if (w := time_word(t)) is not None
                     and (not recurring or t != w)
                     and _TIME_PLACES & set(toks[max(0, i - 3):i]))
