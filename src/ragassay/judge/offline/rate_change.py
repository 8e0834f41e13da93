"""A rate's period changed (alignment._conflicts, as a figure's "number" change): the
claim gives a rate the unit that restates it gives with the same figure over another
period: "twice a day" for "twice a week", "4 euros a day" for "4 euros per hour", "50
pages a week" for "50 pages per day". A rate is a figure and its period ("a day", "per
week", "each night", "daily"), the figure's few counted words between ("2 litres of
water a day", rate_period.py); "each night" and "a day" name one period.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .measures import canonical_measures
from .rate_period import NOT_COUNTED

# a rate: a figure ("2", "twice", "3 times", "4 euros", "50 pages") or none, then its
# period ("a day", "per week", "each night", "every hour", "daily"); a figure's few
# words ("litres of water") may stand between
_PERIODS = {"hour": "hour", "day": "day", "night": "day", "week": "week",
            "fortnight": "fortnight", "month": "month", "year": "year"}
_ADVERB_PERIODS = {"hourly": "hour", "daily": "day", "nightly": "day", "weekly": "week",
                   "fortnightly": "fortnight", "monthly": "month", "yearly": "year",
                   "annually": "year"}
_RATE_OF = re.compile(
    r"(?:\b(?P<fig>\d+(?:\.\d+)?|once|twice|thrice|one|two|three|four|five|six|seven|eight|"
    r"nine|ten)(?P<words>(?: [a-z][a-z'-]*){0,4}?) )?"
    r"(?:(?:a|an|per|each|every) (?P<period>hour|day|night|week|fortnight|month|year)\b"
    r"|(?P<adverb>hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually)\b)")
_FIG_WORDS = {"once": "1", "twice": "2", "thrice": "3", "one": "1", "two": "2", "three": "3",
              "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
              "ten": "10"}


@lru_cache(maxsize=4096)
def canonical_text(text: str) -> str:
    """The text lowercased with its figures written one way (measures.canonical_measures)."""
    return canonical_measures(text.replace(",", "").lower())


def _rates(text: str) -> set[tuple[str | None, str]]:
    out: set[tuple[str | None, str]] = set()
    for m in _RATE_OF.finditer(canonical_text(text)):
        fig = m["fig"]
        if fig is not None and any(w in NOT_COUNTED - {"times"}
                                   for w in (m["words"] or "").split()):
            fig = None  # ("2 days for a week": no rate of the 2)
        period = _PERIODS[m["period"]] if m["period"] else _ADVERB_PERIODS[m["adverb"]]
        out.add((_FIG_WORDS.get(fig, fig) if fig else None, period))
    return out


def period_changed(claim: str, unit: str) -> bool:
    """Whether the claim gives a rate the unit gives with the same figure over another
    period: "twice a day" for "twice a week", "4 euros a day" for "4 euros per hour",
    "50 pages a week" for "50 pages per day"; a figure the unit gives with no period, or
    gives over the claim's period too, is no change."""
    said = _rates(claim)
    if not said:
        return False
    stated = _rates(unit)
    for fig, period in said:
        if fig is None:
            continue  # ("weekly drill nights" / "an hourly rate": a noun's adjective, no rate)
        periods = {q for f, q in stated if f == fig}
        if periods and period not in periods:
            return True
    return False
