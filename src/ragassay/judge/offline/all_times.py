"""A statement said of every time against a denial of it at some time (issue #38,
session 27).

"The helpline is staffed around the clock" holds at night too: "The helpline is not
staffed at night" denies part of it, though neither side negates a word the other
states with the opposite polarity (polarity.py reads none: "around the clock" and "at
night" are different words). A careful reader takes "around the clock", "24/7", "24
hours a day", "day and night", "at all times", "all year round", "every day of the
year" as covering every time of the day or year, and a denial of the same predicate
of the same subject at one time ("at night", "overnight", "in winter", "at weekends",
"on Sundays", "on public holidays") as its contradiction, whichever side says which.

The two sides must say the same thing apart from when: the same subject (the claim's
first content word), every content word of the shorter side's predicate the other's
(time words aside), the side with the time of every time not negated, and the other
negated once. A side with a condition or bound of its own ("unless", "if", "except",
"only", "until", "after") is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .clauses import Part
from .lexical import stem
from .units import Unit

_EVERY = re.compile(
    r"\b(?:a?round the clock|24 ?/ ?7|24 7|24 hours a day|day and night|night and day|"
    r"at all times|all (?:the )?year(?: round)?|year round|every day of the year|"
    r"all day and all night|365 days a year|every day and night)\b")
_DAY = r"(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)"
_SOME = re.compile(
    rf"\b(?:at night|overnight|at nights|in the (?:evenings?|mornings?|afternoons?|night)|"
    rf"at (?:the )?weekends?|on (?:the )?weekends?|on {_DAY}|"
    rf"on (?:public |bank )?holidays|during (?:the )?(?:night|holidays|winter|summer)|"
    rf"in (?:the )?(?:winter|summer|spring|autumn|off season|low season))\b")
_OWN_TERMS = frozenset({"unless", "if", "except", "only", "when", "until", "before", "after"})


def _reading(p: Part) -> tuple[str, frozenset[str]] | None:
    """("every" or "some", the stems of the time phrase's words) where the clause names
    one kind of time phrase; None for none or both."""
    text = " ".join(p.info.tokens)
    every, some = list(_EVERY.finditer(text)), list(_SOME.finditer(text))
    if bool(every) == bool(some):
        return None
    found = every or some
    words = frozenset(stem(w) for m in found for w in m.group(0).split())
    return ("every" if every else "some"), words


def _denials(p: Part) -> int:
    return sum(1 for h in p.negations if h is not None)


def all_times_turned(p: Part, u: Part) -> bool:
    """Whether one of the claim and the unit says its predicate of every time and the
    other denies it at some time (module docstring)."""
    mine, theirs = _reading(p), _reading(u)
    if mine is None or theirs is None or mine[0] == theirs[0] or p.first is None:
        return False
    if (_OWN_TERMS & set(p.info.tokens)) or (_OWN_TERMS & set(u.info.tokens)):
        return False
    every, some = (p, u) if mine[0] == "every" else (u, p)
    if _denials(every) or _denials(some) != 1:
        return False
    times = mine[1] | theirs[1]
    a, b = p.words - times, u.words - times
    if p.first not in b or len(a & b) < 2:
        return False
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return short <= long


def all_times_row(p: Part, near: Sequence[Unit]) -> int | None:
    """The context sentence of a unit that says the claim's predicate of every time
    where the claim denies it at some time, or the other way round; None if none."""
    return next((u.row for u in near if all_times_turned(p, u.part)), None)
