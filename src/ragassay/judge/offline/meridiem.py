"""A claim's clock time read with its half of the day and its place among the times a
context sentence lists (claim-level alignment's figures).

The figures of a text give a clock time by its hour alone ("6 am" and "6 pm" are both
6.0: counts.figures), so a time moved to the other half of the day is the same figure
there. Two readings of the time on the clock (24-hour values) see what that misses:

- the half of the day turned: the claim gives a time ("closes at 6pm") that no context
  gives on the clock, where a context sentence sharing the claim's words gives the same
  hour in the other half of the day ("open from 6am to 9pm"): the claim took the hour
  of another end of the span;
- the wrong end of a list: the claim calls its time the last (latest, final) or the
  first (earliest) of something ("The last boat leaves at 2pm"), where a context
  sentence on it lists three or more times, one after another with nothing but commas
  and "and" between them ("Boats leave at 10am, 2pm and 5pm"), the claim's among them
  but not at that end.

A time the contexts give on the clock (in any sentence, "18:00" for "6pm") or the
question gives ("Are you open at 6pm?"), a claim with no half of the day ("at 6"), a
context that calls a time the last or first itself, and a span ("from 9am to 5pm") are
left alone.
"""

from __future__ import annotations

import re

from .clauses import Part
from .units import Units

_CLOCK = re.compile(
    r"\b(\d{1,2})(?:([:.])(\d{2}))?\s*(?:([ap])\.?\s?m\b\.?)?"
    r"|\b(noon|midday|midnight)\b", re.IGNORECASE)
_LIST_GAP = re.compile(r"^\s*(?:,|,?\s*(?:and|or|&))\s*(?:at\s+)?$", re.IGNORECASE)
_LAST = frozenset({"last", "latest", "final"})
_FIRST = frozenset({"first", "earliest"})
_ENDS = _LAST | _FIRST
MIN_LISTED = 3  # times a list must hold (two are as often a span: "9am and 5pm")
MIN_SHARED = 2  # content words a claim must share with the sentence of the other half


def clock_times(text: str) -> list[tuple[float, int, int, bool]]:
    """The clock times a text gives: (24-hour value, start, end, whether its half of the
    day is written), "6pm" 18.0, "18:30" 18.5, "midday" 12.0; a bare number no time."""
    out = []
    for m in _CLOCK.finditer(text):
        if m.group(5):
            out.append((0.0 if m.group(5).lower() == "midnight" else 12.0,
                        m.start(), m.end(), True))
            continue
        hour, colon, minutes, half = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if half is None and colon != ":":
            continue  # a bare number ("3 tours", "4.50"), no time
        if hour > 24 or (minutes is not None and int(minutes) > 59):
            continue
        value = hour + (int(minutes) / 60 if minutes else 0.0)
        if half is not None:
            if hour > 12:
                continue
            value = value % 12 + (12 if half.lower() == "p" else 0)
        out.append((value, m.start(), m.end(), half is not None))
    return out


def _rows(units: Units, doc: int | None) -> list[int]:
    return [j for j in units.rows_of(doc) if not units.ctx.infos[j].asks]


def _half_turned(p: Part, units: Units, rows: list[int]) -> int | None:
    """The context sentence giving the claim's written hour in the other half of the day,
    where no context gives the claim's time (module docstring), or None."""
    mine = {v for v, _, _, written in clock_times(p.text) if written}
    given = {j: clock_times(units.ctx.infos[j].text) for j in rows}
    known = {v for times in given.values() for v, *_ in times}
    asked = units.ctx.given.values if units.ctx.given is not None else frozenset()
    for value in sorted(mine - known):
        if {value, value % 12 or 12.0} & asked:
            continue  # a time the question gives ("Is it open at 6pm?")
        other = (value + 12) % 24
        for j, times in given.items():
            if any(v == other and written for v, _, _, written in times) and len(
                    p.words & units.sentence(j).words) >= MIN_SHARED:
                return j
    return None


def _listed(text: str) -> list[float]:
    """The times a sentence lists one after another (MIN_LISTED or more, nothing but a
    comma or "and" between two), else none."""
    times = clock_times(text)
    if len(times) < MIN_LISTED or not all(w for *_, w in times):
        return []
    for (_, _, end, _), (_, start, _, _) in zip(times, times[1:], strict=False):
        if not _LIST_GAP.match(text[end:start]):
            return []
    return [v for v, *_ in times]


def _wrong_end(p: Part, units: Units, rows: list[int]) -> int | None:
    """The context sentence listing the claim's time, not at the end the claim calls it
    (module docstring), or None."""
    ends = _ENDS & set(p.info.tokens)
    times = clock_times(p.text)
    if len(ends) != 1 or len(times) != 1 or not times[0][3]:
        return None
    value = times[0][0]
    for j in rows:
        info = units.ctx.infos[j]
        listed = _listed(info.text)
        if value not in listed or _ENDS & set(info.tokens) or not (
                p.words & units.sentence(j).words):
            continue
        end = max(listed) if ends <= _LAST else min(listed)
        if value != end:
            return j
    return None


def clock_moved(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose clock time the claim moves (to the other half of the
    day, or to the other end of a list), or None."""
    rows = _rows(units, doc)
    found = _half_turned(p, units, rows)
    return found if found is not None else _wrong_end(p, units, rows)
