"""A figure inside a range the contexts state: "Children aged 6 to 15 travel free" holds
a 9-year-old, "between 95 and 100 kg" holds 98 kg. A slot that states such a range
gives the claim's value, read as a range's member, and is no rival of it (attached.py).
A range is two figures joined by "to", a dash, or "and" after "between"; "one or two",
"6 and 15" without "between" are two figures, no range."""

from __future__ import annotations

import re

_NUM = r"(\d+(?:\.\d+)?)"
_RANGE = re.compile(rf"\bbetween\s+{_NUM}\s*\w*\s+and\s+{_NUM}|(?<![\d.]){_NUM}\s*"
                    rf"(?:to|-|–)\s*{_NUM}", re.IGNORECASE)


def ranges(text: str) -> list[tuple[float, float]]:
    """The ranges the text states, (low, high), each written low bound first."""
    out = []
    for m in _RANGE.finditer(text):
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        lo, hi = float(a), float(b)
        if lo < hi:  # ("9am to 5pm": clock times, no range of one count)
            out.append((lo, hi))
    return out


def within(value: float, text: str) -> bool:
    """Whether the text states a range that holds the value (its bounds included)."""
    return any(lo <= value <= hi for lo, hi in ranges(text))
