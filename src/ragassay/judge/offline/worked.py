"""A clock time a context gives as a span from another: "Last entry is 30 minutes before
closing" beside "The gallery closes at 5pm" says last entry is at 4:30. A claim giving
that time ("Last entry is at 4:30pm") works it out; it adds no figure. Two new users
found such sums read as invented or contradicting figures (trials 71 and 72).

`with_worked_times` reads the time into the sentence that gives the span, as a reader
does ("Last entry is 30 minutes before closing (at 4:30)."; after a bare "later", in
its clause: "the café opens an hour later at 11:00"), so every check that reads
figures (key terms, support, claim alignment) finds it there. Only where the sum is
sure (reviews 17 and 17b):
- the span is exact and under a day, in minutes or hours as written, and the direction
  word follows it ("30 minutes before", "two hours later"), with no bound, rate or
  range before it ("at least 2 hours before", "up to", "within", "every 20 minutes
  after", "30-45 minutes before");
- it counts from a clock time named after the direction word ("15 minutes before the 7pm
  start"), or from the event it names ("before closing", "after the show") where another
  sentence of its passage times that event ("closes at 5pm") and no other clock time is
  given there; "later" / "earlier" count from the only clock time before it in its sentence
  ("Check-out is at 11am, and late check-out is two hours later").
"Take a tablet 30 minutes before breakfast" beside "The pharmacy opens at 9am" counts
from nothing. A time's half of the day is not read (judges.md, Known limits).

A clock time is checked as a time too (`ContextClocks.unstated`, with the missing key
terms):
its hour alone is no evidence where the contexts give it only as the hour of another
time ("at 4pm" beside "(at 4:30)").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .clauses import part
from .lexical import STOPWORDS, numbers

_CLOCK = "time"  # a clock time's key among a part's figures (12-hour: "17:00" is 5.0)
_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
          "forty-five": 45, "ninety": 90}
_SPAN = re.compile(
    r"(?P<pre>\b[\w-]+\s+)?(?<![\d\-–])\b(?P<n>\d+(?:\.\d+)?|half an|a quarter of an|"
    + "|".join(sorted(_WORDS, key=len, reverse=True))
    + r")\s+(?P<unit>minutes?|mins?|hours?|hrs?)\s+(?P<way>before|after|earlier|later)\b"
    r"(?P<rest>[^;!?]*)", re.IGNORECASE)
_BOUNDS = frozenset({"least", "to", "within", "every", "about", "around", "over", "under",
                     "than", "most", "nearly", "almost", "some"})


def _clocks(text: str) -> list[float]:
    return [v for v, k in part(text).figures if k == _CLOCK]


def _prefixes(text: str) -> set[str]:
    """Its words of four letters or more as 4-letter prefixes ("closing", "closes":
    "clos"), how an event and the sentence timing it are matched."""
    return {w[:4] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3}


def _clock_text(hours: float) -> str:
    """A 12-hour clock time as "H:MM" (4.5 -> "4:30"; 0.25 -> "12:15")."""
    hours %= 12
    whole = int(hours)
    minutes = round((hours - whole) * 60)
    if minutes == 60:
        whole, minutes = whole + 1, 0
    return f"{whole % 12 or 12}:{minutes:02d}"


def _span(text: str) -> re.Match[str] | None:
    """The sentence's one span with no bound, rate or range before it; None for none or
    several."""
    found = [m for m in _SPAN.finditer(text)
             if not (m["pre"] and m["pre"].strip().lower() in _BOUNDS)]
    return found[0] if len(found) == 1 else None


def _hours(m: re.Match[str]) -> float | None:
    """The span of a match in hours, None from a day on."""
    n = m["n"].lower()
    value = 0.5 if n == "half an" else 0.25 if n == "a quarter of an" else float(
        _WORDS.get(n, 0) or n)
    hours = value / 60 if m["unit"].lower().startswith("m") else value
    return hours if 0 < hours < 24 else None


def _event(rest: str) -> set[str]:
    """The first words the direction word governs, as `_prefixes`."""
    words = [w for w in re.findall(r"[a-z]+", rest.lower())[:4] if w not in STOPWORDS]
    return _prefixes(" ".join(words[:2]))


def _timed(event: set[str], passage: Sequence[str]) -> list[float]:
    """The clock time of the passage's sentence that times the event ("closes at 5pm" for
    "closing"), when it is the only clock time the passage's other sentences give (the
    car park's "closes at 6pm" beside the gallery's hours: no sum)."""
    timed = [(s, _clocks(s)) for s in passage]
    if len({c for _, cs in timed for c in cs}) != 1:
        return []
    return [c for s, cs in timed for c in cs if event & _prefixes(s)]


def _worked(m: re.Match[str], text: str, passage: Sequence[str]) -> str | None:
    """The clock time the span `m` of `text` works out to, or None (module docstring)."""
    span = _hours(m)
    if span is None:
        return None
    way = m["way"].lower()
    if way in ("later", "earlier"):
        clocks = _clocks(text[:m.start()])
    else:
        clocks = _clocks(m["rest"]) or _timed(_event(m["rest"]), passage)
    if len(set(clocks)) != 1:
        return None
    back = way in ("before", "earlier")
    return _clock_text(clocks[0] - span if back else clocks[0] + span)


def worked_time(text: str, passage: Sequence[str]) -> str | None:
    """The clock time the sentence's span works out to ("4:30" for "30 minutes before
    closing" beside "The gallery closes at 5pm"), or None when no sum is sure (module
    docstring). `passage`: the other sentences of its passage."""
    m = _span(text)
    return None if m is None else _worked(m, text, passage)


def with_worked_times(texts: Sequence[str], docs: Sequence[int]) -> list[str]:
    """The context sentences (`docs`: each one's passage), each that gives a clock time
    as a span from another with the time it works out to read in ("... before closing
    (at 4:30)."; after a bare "later", in its clause: "... an hour later at 11:00.")."""
    out = list(texts)
    for i, text in enumerate(texts):
        m = _span(text)
        if m is None:
            continue
        passage = [t for j, t in enumerate(texts) if docs[j] == docs[i] and j != i]
        worked = _worked(m, text, passage)
        if worked is None:
            continue
        if not m["rest"].strip(" ."):  # "... opens an hour later at 11:00.": in its clause
            out[i] = f"{text[:m.end('way')]} at {worked}{text[m.end('way'):]}"
        else:
            body = text.rstrip()
            end = body[-1] if body and body[-1] in ".!?" else ""
            out[i] = f"{body[:len(body) - len(end)]} (at {worked}){end or '.'}"
    return out


@dataclass(frozen=True)
class ContextClocks:
    """The clock times a sample's contexts give (as read: with their worked times) and
    every figure they say, counted, once per sample (`Prepared.clocks`): what a claim's
    clock time is checked against as a time."""

    times: frozenset[float]
    within: Counter[int]  # per hour, the times given with minutes ("4" of "4:30")
    said: Counter[str]  # every figure said, by value

    @classmethod
    def of(cls, texts: Sequence[str]) -> ContextClocks:
        times = [c for t in texts if any(ch.isdigit() for ch in t) for c in _clocks(t)]
        return cls(frozenset(times), Counter(int(c) for c in times if c != int(c)),
                   Counter(n for t in texts for n in numbers(t)))

    def unstated(self, claim: str) -> str | None:
        """The clock time the claim gives, as written ("4pm"), that the contexts do not
        give, whose hour they give only as the hour of other times ("at 4pm" beside "(at
        4:30)"); None when there is none. An hour given alone too ("7-10am", "at 7
        o'clock") leaves it to the other checks."""
        if not any(ch.isdigit() for ch in claim):
            return None
        for v in sorted(set(_clocks(claim)) - self.times):
            hour = str(int(v) or 12)
            if self.within[int(v)] and self.said[hour] <= self.within[int(v)]:
                written = re.search(rf"\b{hour}(?:[:.]\d\d)?\s?(?:[ap]\.?m\b\.?)?", claim)
                return written[0].strip().rstrip(".") if written else hour
        return None
