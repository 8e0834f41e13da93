"""A clock time a context gives as a span from another: "Last entry is 30 minutes before
closing" beside "The gallery closes at 5pm" says last entry is at 4:30. A claim giving
that time ("Last entry is at 4:30pm") works it out; it adds no figure. Two new users
found such sums read as invented or contradicting figures (trials 71 and 72).

`with_worked_times` reads the time into the sentence that gives the span, as a reader
does ("Last entry is 30 minutes before closing (at 4:30)."), so every check that reads
figures (key terms, support, claim alignment) finds it there. Only where the sum is
sure: one span in minutes or hours, one direction word ("before", "after", "earlier",
"later"), and one clock time to count from, the sentence's own or else the only one
its passage states ("Appointments run from 9am to 5pm" gives two: no sum). A span of
days or more is a date's, left alone.

A clock time is checked as a time too (`clock_unstated`, with the missing key terms):
its digits alone are no evidence, since "4:30" holds the "4" of "at 4pm".
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import part

_BEFORE = frozenset({"before", "earlier", "prior"})
_AFTER = frozenset({"after", "later"})
_SPANS = {"minut": 1 / 60, "hour": 1.0}  # a figure's key -> hours per unit
_CLOCK = "time"  # a clock time's key among a part's figures (12-hour: "17:00" is 5.0)


def _counts(text: str) -> bool:
    """Whether the sentence may state a span or a clock (a cheap test before parsing)."""
    low = text.lower()
    return any(ch.isdigit() for ch in text) or "hour" in low or "minute" in low


def _clock_text(hours: float) -> str:
    """A 12-hour clock time as "H:MM" (4.5 -> "4:30"; 0.25 -> "12:15")."""
    hours %= 12
    whole = int(hours)
    minutes = round((hours - whole) * 60)
    if minutes == 60:
        whole, minutes = whole + 1, 0
    return f"{whole % 12 or 12}:{minutes:02d}"


def worked_time(text: str, clocks: Sequence[float]) -> str | None:
    """The clock time the sentence's span works out to ("4:30" for "30 minutes before
    closing" when its passage's only clock is 5pm), or None when no sum is sure (module
    docstring). `clocks`: the clock times its passage states."""
    p = part(text)
    toks = set(p.info.tokens)
    before, after = bool(_BEFORE & toks), bool(_AFTER & toks)
    spans = [v * _SPANS[k] for v, k in p.figures if k in _SPANS]
    if before == after or len(spans) != 1:
        return None
    own = {v for v, k in p.figures if k == _CLOCK}
    start = own or set(clocks)
    if len(start) != 1:
        return None
    (clock,) = start
    return _clock_text(clock - spans[0] if before else clock + spans[0])


def with_worked_times(texts: Sequence[str], docs: Sequence[int]) -> list[str]:
    """The context sentences (`docs`: each one's passage), each that gives a clock time
    as a span from another with the time it works out to read in ("... before closing
    (at 4:30).")."""
    clocks: dict[int, set[float]] = {}
    for text, doc in zip(texts, docs, strict=True):
        if _counts(text):
            clocks.setdefault(doc, set()).update(
                v for v, k in part(text).figures if k == _CLOCK)
    out = []
    for text, doc in zip(texts, docs, strict=True):
        worked = worked_time(text, sorted(clocks.get(doc, ()))) if _counts(text) else None
        if worked is None:
            out.append(text)
            continue
        body = text.rstrip()
        end = body[-1] if body and body[-1] in ".!?" else ""
        out.append(f"{body[:len(body) - len(end)]} (at {worked}){end or '.'}")
    return out


def clock_unstated(claim: str, texts: Sequence[str]) -> bool:
    """Whether the claim gives a clock time that none of the sentences (`texts`, as read:
    with their worked times) gives, whose hour is another time's there: "at 4pm" beside
    "(at 4:30)" ("4" is there, 4:00 is not). (A time whose digits are not there is a
    missing key term already; one written in a range, "6-9pm", may read as no time.)"""
    if not any(ch.isdigit() for ch in claim):
        return False
    mine = {v for v, k in part(claim).figures if k == _CLOCK}
    if not mine:
        return False
    theirs = {v for t in texts if _counts(t) for v, k in part(t).figures if k == _CLOCK}
    return any(int(c) == int(v) for v in mine - theirs for c in theirs)
