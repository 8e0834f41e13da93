"""How often a thing recurs: the period of a rate ("twice a month", "once a week",
"daily", "every 14 days", "3 sessions per week"), read so that alignment (`_conflicts`)
sees a claim that keeps the unit's count but puts it in another period ("twice a week"
for "twice a month", "weekly" for "daily") as a figure changed.

A period is its length in days; two periods agree within a tenth ("monthly" and "every
30 days"). A rate of a time unit ("7 days a week", "24 hours a day") says how long,
not how often, and is no period. Words are the closed class of English period words.
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, lemma_stems
from .lexical import STOPWORDS
from .units import Unit

_LENGTH = {"hour": 1 / 24, "day": 1.0, "night": 1.0, "week": 7.0, "fortnight": 14.0,
           "month": 30.0, "quarter": 91.0, "year": 365.0}
_ADVERBS = {"hourly": 1 / 24, "daily": 1.0, "nightly": 1.0, "weekly": 7.0,
            "fortnightly": 14.0, "monthly": 30.0, "quarterly": 91.0, "yearly": 365.0,
            "annually": 365.0, "annual": 365.0}
_RATE_WORDS = frozenset({"a", "an", "per", "each", "every"})
_TIME_UNITS = frozenset(_LENGTH) | {f"{w}s" for w in _LENGTH} | {"minute", "minutes"}
_EVERY_SKIP = frozenset({"other", "second", "single"})


def _unit(word: str) -> float | None:
    return _LENGTH.get(word[:-1] if word.endswith("s") else word)


def _number(word: str) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None


def periods(toks: Sequence[str]) -> list[float]:
    """The lengths, in days, of the periods the tokens put a rate in: "N times / once
    a|per|each PERIOD", "X per PERIOD" after a figure of something that is no time unit,
    "every [N|other] PERIOD", and the period adverbs ("weekly", "annually") where they
    say how often (last, or before a function word), not a kind ("monthly plans")."""
    out: list[float] = []
    for i, t in enumerate(toks):
        if t in _ADVERBS:
            # (before a noun it names a kind, not how often: "monthly plans", "a daily cap")
            if i + 1 == len(toks) or toks[i + 1] in STOPWORDS:
                out.append(_ADVERBS[t])
            continue
        if t != "every" and (t not in _RATE_WORDS or i == 0):
            continue
        j = i + 1
        scale = 1.0
        if t == "every" and j < len(toks):
            n = _number(toks[j])
            if n is not None:
                scale, j = n, j + 1
            elif toks[j] in _EVERY_SKIP:
                scale, j = 2.0 if toks[j] != "single" else 1.0, j + 1
        length = _unit(toks[j]) if j < len(toks) else None
        if length is None:
            continue
        if t != "every" and not _rate_before(toks, i):
            continue
        out.append(scale * length)
    return out


def _rate_before(toks: Sequence[str], i: int) -> bool:
    """Whether "a|per|each PERIOD" at `i` is a rate: after "N times" / "once", or after a
    figure (within two words) of something that is no time unit ("20 messages per day",
    not "7 days a week")."""
    before = toks[max(0, i - 3):i]
    if "once" in before or "times" in before:
        return True
    for k in range(max(0, i - 3), i):
        if _number(toks[k]) is not None:
            counted = toks[k + 1] if k + 1 < i else ""
            return counted not in _TIME_UNITS
    return False


def _agree(a: float, b: float) -> bool:
    return abs(a - b) <= 0.1 * max(a, b)


def period_changed(p: Part, u: Part) -> bool:
    """Whether the claim puts a rate in a period the unit states none like, where the
    unit states one of its own: the same thing said to recur on another clock."""
    mine, theirs = periods(p.info.tokens), periods(u.info.tokens)
    return bool(mine and theirs) and not any(_agree(a, b) for a in mine for b in theirs)


def _period_words(toks: Sequence[str], stems: Sequence[str]) -> frozenset[str]:
    return frozenset(s for t, s in zip(toks, stems, strict=False)
                     if t in _ADVERBS or _unit(t) is not None)


def period_moved(p: Part, near: Sequence[Unit]) -> int | None:
    """The row of a unit the claim restates but for the period of its rate ("You can
    bring a guest twice a week" / "Members can bring a guest twice a month"): at least
    two of the claim's other content words and two thirds of them are the unit's."""
    toks = p.info.tokens
    own = p.words - _period_words(toks, lemma_stems(toks, p.info.all_stems))
    for u in near:
        shared = own & u.words
        if len(shared) >= 2 and 3 * len(shared) >= 2 * len(own) and period_changed(p, u.part):
            return u.row
    return None
