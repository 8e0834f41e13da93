"""A figure restated in another form (issue #38, session 28).

A faithful answer often gives a context's figure converted: "every six months" for
"every 180 days", "quarterly" for "every 90 days", "two working days" for "48 hours,
excluding weekends". measures.py writes most lengths of time one way (weeks and months
as days, "3 and a half hours" as 210 minutes) and normalise.written_values offers each
length in the next unit; two readings are left to this module:
- `frequencies`: a period in days that a year divides into months and a count a year
  are the same frequency ("every 180 days" offers 2, "2 times a year" offers 180), as
  measures.py already reads "every 6 months" as "2 times a year";
- `working_days`: a sentence that counts a length without weekends ("within 48 hours,
  excluding weekends") restricts what it says to working days, and a claim that counts
  "working days" or "business days" says that restriction (paraphrase.py's scope slot).
A changed figure ("three working days" for "48 hours, excluding weekends") still fails
paraphrase.py's figure check: both readings only add what the same value says.
"""

from __future__ import annotations

import re

# a period that a year (in days) or a day (in hours) divides ("every 180 days": twice a
# year, as "every 6 months" is written; "every 8 hours": 3 times a day), and a count a
# year or a day as its period ("4 times a year", "quarterly": every 90 days): the same
# frequency either way
_EVERY = re.compile(r"\bevery (\d+) (days|hours)\b")
_TIMES = re.compile(r"\b(\d+) times a (year|day)\b")
_WHOLE = {"days": 360, "year": 360, "hours": 24, "day": 24}
_DIVIDES = {360: (2, 3, 4, 6, 12, 30, 60, 90, 120, 180), 24: (2, 3, 4, 6, 8, 12)}


def frequencies(normal: str) -> set[float]:
    """The same frequency in the other form, of the normalised text (module docstring):
    "every 180 days" offers 2 (times a year), "2 times a year" offers 180 (days)."""
    out: set[float] = set()
    for m in [*_EVERY.finditer(normal), *_TIMES.finditer(normal)]:
        whole, n = _WHOLE[m[2]], int(m[1])
        if n in _DIVIDES[whole]:
            out.add(float(whole // n))
    return out


# days counted without weekends: what "working days" / "business days" say
_WORKING = re.compile(r"\b(?:working|business) days?\b|\bweekdays?\b", re.IGNORECASE)
_NO_WEEKENDS = re.compile(r"\b(?:excluding|except|not (?:including|counting)|other than)\s+"
                          r"(?:at\s+)?(?:the\s+)?weekends?\b", re.IGNORECASE)


# a restrictor word (clauses.RESTRICTORS, which this module, below clauses, cannot import)
_RESTRICTOR = re.compile(r"\b(?:only|solely|exclusively|unless|except|excluding|if)\b",
                         re.IGNORECASE)


def working_days(claim: str, sentence: str) -> bool:
    """Whether the sentence's one restriction is that weekends do not count ("within 48
    hours, excluding weekends") and the claim counts working days, which says it."""
    weekends = _NO_WEEKENDS.search(sentence)
    if weekends is None or not _WORKING.search(claim):
        return False
    rest = sentence[:weekends.start()] + " " + sentence[weekends.end():]
    return not _RESTRICTOR.search(rest)  # (no other restriction the claim could drop)
