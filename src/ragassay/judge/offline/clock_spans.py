"""The length a clock span states (issue #38, session 27).

"Classes run from 19:00 to 20:30" states how long a class lasts as surely as "Classes
last 90 minutes" does: a reader restating it says "an hour and a half". A context's
span from one clock time to another ("7 pm to 8:30 pm", "10 am until 4 pm", after
`measures.clock_and_frequency` wrote both ends one way) offers its length among the
figures it states, in minutes, and in hours only where that is no whole number (a
span's "3" hours would read as a claim's "three in the afternoon": a clock time), so a
claim's "lasting 90 minutes" or "an hour and a half" reads as that span's figure. Only
a span whose two ends both name their half of the day counts ("from 10 until 4" could
be either), and only one shorter than a day ("10 pm to 6 am" runs through midnight:
480 minutes).
"""

from __future__ import annotations

import re

_END = r"(1[0-2]|[1-9])(?::([0-5]\d))? ([ap])m"
_SPAN = re.compile(rf"\b{_END}\s*(?:to|until|till|and|through|\u2013|-)\s*{_END}\b")


def _minutes(hour: str, minutes: str | None, half: str) -> int:
    return (int(hour) % 12 + (12 if half == "p" else 0)) * 60 + int(minutes or 0)


def span_lengths(normal: str) -> set[float]:
    """The lengths, in minutes and in hours, of each clock span of the normalised text."""
    out: set[float] = set()
    for m in _SPAN.finditer(normal.lower()):
        length = _minutes(*m.group(4, 5, 6)) - _minutes(*m.group(1, 2, 3))
        if length <= 0 and m.group(3) == "p" and m.group(6) == "a":
            length += 24 * 60  # through midnight: "10 pm to 6 am" is 8 hours
        if 0 < length < 24 * 60:
            out.add(float(length))
            if length % 60:
                out.add(length / 60)  # (a whole hour count reads as a clock time too)
    return out
