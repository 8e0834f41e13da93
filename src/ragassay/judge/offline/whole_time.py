"""Time phrases that say "at every time" of a unit of the calendar without a universal
word of their own, read as one (clauses.Part.quantified): "daily" (open daily: every
day), "all week" (every day), "year-round" / "all year round" / "throughout the year"
(all year), "any day of the week" (any day).

`scope.time_bound` then reads them against a unit that bounds the days or the months
("Monday to Wednesday", "from May to September"), as it reads "every day" and "all
year" (review 15's limit: "all year round", "year-round" and "daily" were unread). The
phrase's own words that name no time ("round", "throughout", the "week" of "of the
week") are no content words of the claim: a unit that says "all year" restates it.
"""

from __future__ import annotations

import re

from .lexical import stem

DAY, YEAR, HOUR = stem("day"), stem("year"), stem("hour")
# the whole year said of a claim (scope.time_bound: "every year" says when, not how long)
ALL_YEAR = re.compile(r"\b(?:(?:all|the whole|the entire|throughout the) year|year[- ]round)\b",
                      re.IGNORECASE)
# a figure that counts every time of its span: "seven days a week", "24 hours a day"
_WHOLE_FIGURES = {(7.0, DAY): re.compile(r"\b(?:7|seven) days (?:a|per|each) week\b", re.I),
                  (24.0, HOUR): re.compile(r"\b24 hours (?:a|per|each) day\b", re.I)}
# "daily" as an adverb: at the end of its clause or before a preposition or a figure,
# not before a noun ("a daily limit", "the daily rate")
# ("daily during hot spells", "daily in summer", "daily except Sundays": bounded)
_AFTER_ADVERB = frozenset({"from", "at", "between", "until", "till", "to", "but", "and",
                           "or", "with", "for", "by",
                           # another time phrase of its own: "daily all year", "daily
                           # throughout the summer", "daily year-round"
                           "all", "throughout", "year"})


def whole_times(toks: tuple[str, ...]) -> tuple[list[str], frozenset[int]]:
    """The calendar units the text says "at every time" of (stems: day, year), and the
    indices of the phrase's tokens that are no content words."""
    heads: list[str] = []
    drop: set[int] = set()
    n = len(toks)
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < n else None
        if t == "daily" and (nxt is None or nxt in _AFTER_ADVERB or nxt[:1].isdigit()):
            heads.append(DAY)
            drop.add(i)
        elif t == "year" and nxt == "round":  # "year-round", "all year round"
            heads.append(YEAR)
            drop.add(i + 1)
        elif t == "throughout" and toks[i + 1:i + 3] in (("the", "year"), ("the", "week")):
            heads.append(YEAR if toks[i + 2] == "year" else DAY)
            drop.add(i)
        elif t in ("all", "whole") and nxt == "week":
            heads.append(DAY)  # "all week", "the whole week": every day of it
        elif (t == "day" and i >= 1 and toks[i - 1] in ("any", "every", "each")
              and toks[i + 1:i + 4] == ("of", "the", "week")):
            drop.add(i + 3)  # "any day of the week": any day
    return heads, frozenset(drop)


def whole_figure(n: float, key: str | None, text: str) -> bool:
    """Whether a figure of the text counts every time of its span ("open seven days a
    week", "24 hours a day"): no bound of "every day" or "at any time"."""
    found = _WHOLE_FIGURES.get((n, key or ""))
    return found is not None and found.search(text) is not None
