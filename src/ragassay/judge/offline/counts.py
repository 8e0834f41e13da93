"""What a sentence counts, and its words' base forms, as claim-level alignment reads them
(clauses.py): each figure with the word it counts ("5 devices", "8 am" as a time, a date's
day and year), and irregular verb forms read as their base ("won" is "win").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from .lexical import DAYS, MONTHS, STOPWORDS, stem

TIME_WORDS = frozenset({"am", "pm", "a.m", "p.m"})
_RANKS = ("first", "second", "third", "fourth", "fifth")
ORDINALS = frozenset(_RANKS)  # a rank, no count
# a weekday's rank in its month: "the second Tuesday", "the last Friday" (-1)
_DAY_RANKS = {r: float(k + 1) for k, r in enumerate(_RANKS)} | {"last": -1.0}
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_RANGE = frozenset({"to", "and", "or"})
_DASHES = frozenset({"-", "\u2013", "\u2014"})
# a unit named with its scale: a figure counts the pair ("degrees Celsius")
_SCALED_UNITS = {"degrees": frozenset({"celsius", "fahrenheit", "kelvin"})}


class Figured(Protocol):
    """What states figures: a claim's or a unit's part (clauses.Part)."""

    @property
    def figures(self) -> tuple[tuple[float, str | None], ...]: ...


def is_number(stem: str) -> bool:
    return stem[:1].isdigit()


def number_value(stem: str) -> float | None:
    """A numeral token as its value, None for any other token."""
    try:
        return float(stem)
    except ValueError:
        return None


_ABBREVIATED_MONTHS = "jan feb mar apr jun jul aug sep sept oct nov dec"
_MONTHS = MONTHS | frozenset(_ABBREVIATED_MONTHS.split())
# month names that are also verbs: a month only right beside the day ("may weigh 23 kg")
_MODAL_MONTHS = frozenset({"may", "march"})


def _clock(hour: str, minutes: str) -> bool:
    """Whether two tokens are the hour and minutes of a clock time ("18:00" reads "18",
    "00"; measures.py writes "6 pm" so)."""
    return (hour.isdigit() and len(hour) <= 2 and int(hour) <= 24 and len(minutes) == 2
            and minutes.isdigit() and int(minutes) < 60)


def _is_year(value: float) -> bool:
    return 1000 <= value <= 2999 and value == int(value)


# capitalised words before a figure that say how many, no name ("Nearly 30 people")
_APPROXIMATE = frozenset({"nearly", "almost", "about", "around", "over", "under", "only",
                          "just", "some", "roughly", "approximately", "up", "at", "exactly"})


_BOUND_TAILS = frozenset({"least", "most"})  # "at least 12", "at most 12"
# "4 of whom", "4 or more of them": a part of what another figure counts, no count of the
# word before it ("10 players registered, 4 or more of whom must be women")
_PARTITIVE = frozenset({"whom", "them", "which", "these", "those"})
_OR_MORE = frozenset({"more", "fewer", "less", "over", "under"})
# an age: "aged 12", "ages 4-15", "aged under 5", "12 years old", "a 12-year-old"
_AGE_WORDS = frozenset({"age", "ages", "aged"})
_AGE_BOUNDS = frozenset({"under", "over", "between", "from", "about", "around"})
AGE = "age"
DAY = "@day"  # a date's day: never a count of days


def _aged(toks: tuple[str, ...], i: int, j: int) -> bool:
    """Whether the figure at token i (its unit from token j) is someone's age: an age
    word before it (a bound between: "aged under 5") or "year(s) old" after it. An age
    counts no years of a duration ("children 4 to 15 years old" against "valid for 2
    years")."""
    if toks[j:j + 2] in (("year", "old"), ("years", "old")):
        return True
    k = i - 1 if i and toks[i - 1] not in _AGE_BOUNDS else i - 2
    return k >= 0 and toks[k] in _AGE_WORDS


def _partitive(toks: tuple[str, ...], j: int) -> bool:
    """Whether the tokens from j say "of whom"-like, an "or more" before it or not."""
    if toks[j:j + 1] == ("or",) and toks[j + 1:j + 2] and toks[j + 1] in _OR_MORE:
        j += 2
    return toks[j:j + 1] == ("of",) and toks[j + 1:j + 2] != () and toks[j + 1] in _PARTITIVE


def figures(toks: tuple[str, ...], stems: list[str], capitals: frozenset[int] = frozenset(),
            between: Sequence[str] | None = None) -> list[tuple[float, str | None]]:
    """Each number with the word it counts: the next token ("5 devices"; a time for
    "8 am"), else the content word before it ("Physics in 1903" counts Physics); in a
    date, a day beside its month counts the day and a year the year ("28 June 2019",
    "June 28"); "2018-19" is 2018 to 2019. A number right after a capitalised word
    (`capitals`: token positions) is part of a name ("Locker 1", "Gate 14"): it counts
    nothing but names its bearer ("#locker"), so it is set against "Locker 2" only.
    `between`: what joins each token to the next (normalise.separators): only a colon
    joins a clock's hour and minutes ("18:30"), a dash a range ("7-10 days", no 7:10);
    None: any pair that could be a clock is one."""
    out: list[tuple[float, str | None]] = []
    at: list[int] = []  # the token position of each figure of `out`
    n = len(toks)
    minutes = {i + 1 for i, t in enumerate(toks[:-1]) if _clock(t, toks[i + 1])
               and (between is None or between[i] == ":")}
    for i, s in enumerate(stems):
        if (rank := day_rank(toks, i) or place_rank(toks, i)) is not None:
            out.append(rank)
            at.append(i)
        if not is_number(s) or toks[i] in ORDINALS or (value := number_value(s)) is None:
            continue
        if i in minutes:
            continue  # the minutes of "18:30", read with its hour
        if i + 1 in minutes:
            out.append((value + int(toks[i + 1]) / 60, "time"))  # "18:30", "6 pm": a time
            at.append(i)
            continue
        if (i and len(toks[i]) == 2 and is_number(stems[i - 1])
                and _is_year(prev := number_value(stems[i - 1]) or 0)):
            value = prev // 100 * 100 + value  # "2018-19": the second year
        j = i + 1
        if j < n and toks[j] in _SCALES:
            value *= _SCALES[toks[j]]
            j += 1
        key: str | None = None
        near = toks[max(0, i - 2):i] + toks[j:j + 1]
        if j < n and toks[j] in TIME_WORDS:
            key = "time"
        elif _aged(toks, i, j):
            key = AGE
        elif value <= 31 and any(t in _MONTHS and (t not in _MODAL_MONTHS or t in (
                toks[i - 1] if i else "", toks[j] if j < n else "")) for t in near):
            key = DAY
        elif _is_year(value) and (j >= n or toks[j] in STOPWORDS or is_number(stems[j])
                                  or toks[j] in _MONTHS):
            key = "@year"  # a calendar year, never a count of years
        elif (i - 1 in capitals and toks[i - 1].isalpha() and toks[i - 1] not in STOPWORDS
              and toks[i - 1] not in _APPROXIMATE and toks[i - 1] not in _MONTHS):
            key = "#" + stems[i - 1]  # "Locker 1": a name's number
        elif j + 1 < n and toks[j] in _SCALED_UNITS and toks[j + 1] in _SCALED_UNITS[toks[j]]:
            key = f"{stems[j]} {toks[j + 1]}"  # "74 degrees Celsius": no 165 degrees F
        elif j < n and toks[j] not in STOPWORDS and not is_number(stems[j]):
            key = stems[j]
        elif not _partitive(toks, j):
            for k in range(i - 1, max(-1, i - 3), -1):
                if toks[k] in _BOUND_TAILS:
                    break  # "is at least 12": a bound, not what it counts
                if toks[k] not in STOPWORDS and not is_number(stems[k]):
                    key = stems[k]
                    break
        out.append((value, key))
        at.append(i)
    # a range's first figure counts what its last does ("between 2 and 8 degrees";
    # "7-10 days": two figures a dash joins, of no date or time)
    for k in range(len(out) - 2, -1, -1):
        i, nxt = at[k], at[k + 1]
        if (nxt == i + 2 and toks[i + 1] in _RANGE) or (
                nxt == i + 1 and between is not None and between[i] in _DASHES
                and not _dated(out[k][1]) and not _dated(out[k + 1][1])):
            # (an age word opens the range: "ages 4-15", "aged 4 to 15 years")
            key = AGE if AGE in (out[k][1], out[k + 1][1]) else out[k + 1][1]
            out[k], out[k + 1] = (out[k][0], key), (out[k + 1][0], key)
    return out


def day_rank(toks: tuple[str, ...], i: int) -> tuple[float, str] | None:
    """A rank of a weekday in its month ("the second Tuesday": 2, "@tuesday"), a date of
    its own: "the first Tuesday" is another day than "the second" or "the last Tuesday".
    Other ranks ("the first visit") count nothing."""
    if toks[i] in _DAY_RANKS and i + 1 < len(toks) and toks[i + 1] in DAYS:
        return _DAY_RANKS[toks[i]], "@" + toks[i + 1]
    return None


_RANK_WORDS = {w: float(k + 1) for k, w in enumerate(
    ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
     "tenth"))}
_RANK_DIGITS = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")
# nouns a rank is no position of: a length of time ("the first month": a span counted)
_SPANS = frozenset({"minute", "hour", "day", "week", "month", "year", "time", "half",
                    "quarter", "term", "night"})


def place_rank(toks: tuple[str, ...], i: int) -> tuple[float, str] | None:
    """A rank of a thing among its kind, in words or digits ("the third floor", "the 3rd
    floor": 3, "floor"), as "floor 3" counts it: another rank of the same thing is
    another one ("the first floor" is not "the second floor"). Only a rank right before
    its noun (no date's day: "21st March"; no time span: "the first month")."""
    t = toks[i]
    m = _RANK_DIGITS.fullmatch(t)
    value = float(m.group(1)) if m else _RANK_WORDS.get(t)
    if value is None or i + 1 >= len(toks):
        return None
    nxt = toks[i + 1]
    if not nxt.isalpha() or nxt in STOPWORDS or nxt in MONTHS or nxt in DAYS or nxt in (
            _RANK_WORDS) or stem(nxt) in _SPANS or nxt.rstrip("s") in _SPANS:
        return None
    return value, stem(nxt)


def ranked_values(toks: tuple[str, ...]) -> frozenset[float]:
    """The ranks of things the tokens give (`place_rank`), as figures' values."""
    return frozenset(r[0] for i in range(len(toks)) if (r := place_rank(toks, i)))


def _dated(key: str | None) -> bool:
    """Whether a figure's key is a date's, a clock time's or a name's ("@year", "time",
    "#gate"): no count a range shares."""
    return key is not None and (key[0] in "@#" or key == "time")


# Irregular verb forms, read as their base ("won" is "win"), both sides alike: a claim
# "did not win" restates "won" (the stemmer keeps prefixes: "won" and "win" differ).
# (forms also used as adjectives, "paid", "lost", "known", "left", are left alone)
IRREGULAR_TEXT = """
    won:win took:take taken:take gave:give went:go gone:go made:make held:hold sold:sell
    bought:buy built:build began:begin begun:begin wrote:write written:write led:lead
    met:meet ran:run said:say saw:see seen:see sent:send spent:spend stood:stand told:tell
    thought:think became:become came:come knew:know grew:grow grown:grow drew:draw
    drawn:draw drove:drive driven:drive fell:fall fallen:fall felt:feel kept:keep
    brought:bring caught:catch taught:teach chose:choose chosen:choose rose:rise
    risen:rise struck:strike spoke:speak spoken:speak broke:break ate:eat eaten:eat
    flew:fly flown:fly wore:wear sang:sing sung:sing threw:throw thrown:throw
    fought:fight sought:seek meant:mean dealt:deal lent:lend forgot:forget froze:freeze
    hung:hang shook:shake slept:sleep stole:steal swore:swear understood:understand
    withdrew:withdraw
"""
# Words of necessity, read as one ("Booking is essential" / "booking isn't needed" /
# "a booking is required"), so that a negation of one is set against another: claim
# alignment compares a claim's polarity with the sentence it restates on shared words.
NECESSITY_TEXT = """
    need needs needed require requires required essential necessary mandatory compulsory
    obligatory
"""
IRREGULAR = {form: stem(base) for form, base in
              (pair.split(":") for pair in IRREGULAR_TEXT.split())} | {
    form: stem("need") for form in NECESSITY_TEXT.split()}


def lemma_stems(toks: Sequence[str], stems: Sequence[str]) -> list[str]:
    """The sentence's stems with irregular verb forms read as their base. (k214's verb
    read with its particle, "check in" / "check out", was withdrawn in session 26: with
    it two held-out answers went right to wrong.)"""
    get = IRREGULAR.get
    return [get(t, x) for t, x in zip(toks, stems, strict=True)]


_DAYS = {stem(k): v for k, v in (("hour", 1 / 24), ("day", 1), ("week", 7), ("month", 30),
                                  ("year", 365))}


def durations_differ(claim: Sequence[tuple[float, str | None]],
                     figures: list[tuple[float, str | None]]) -> bool:
    """A duration of the claim (its figures) that a unit (`figures`) gives in other
    units with another length ("within 30 days" against "within 2 weeks"; "14 days" is
    "2 weeks")."""
    if not any(k in _DAYS for _, k in claim):
        return False  # (most claims: no length of time)
    spans = [m * _DAYS[k] for m, k in figures if k in _DAYS]
    return bool(spans) and any(
        key in _DAYS and key not in {k for _, k in figures}
        and all(abs(n * _DAYS[key] - x) > 1e-6 for x in spans)
        for n, key in claim)


def lengths_of_time(claim: Figured, unit: Figured, only_claim: frozenset[str],
                    only_unit: frozenset[str]) -> set[str]:
    """The words naming a unit of time that each side counts with a figure and the other
    does not state ("within 2 days" / "within 24 hours"): both say how long, so the one
    for the other is no word the claim adds; what the lengths are, the figures tell
    (`durations_differ`). A word with no figure ("monthly plans") names no length."""
    mine = only_claim & {k for _, k in claim.figures if k in _DAYS}
    theirs = only_unit & {k for _, k in unit.figures if k in _DAYS}
    return set(mine | theirs) if mine and theirs else set()
