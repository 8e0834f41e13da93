"""Surface normalisation before lexical matching: numbers, units, money, hyphens.

The same fact is written many ways: "24-hour" / "24 hours", "$4.2B" / "4.2 billion
dollars", "1,000" / "1000", "12%" / "12 percent", "twenty-four" / "24", "U.S." /
"United States", "under-16s" / "under 16". Answer and
context are normalised the same way before tokenising, and numbers are compared by
value (at the precision the answer states), so these are matches, not hallucinations.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ragassay.text import WORD_TOKEN as TOKEN

from .clock_spans import span_lengths
from .converted import frequencies
from .measures import canonical_measures

_MAG_WORD = {"k": "thousand", "m": "million", "mn": "million", "mln": "million",
             "b": "billion", "bn": "billion", "t": "trillion", "tn": "trillion"}  # fmt: skip
_CURRENCY = {"$": "dollars", "€": "euros", "£": "pounds", "¥": "yen"}
_NUM = r"\d+(?:\.\d+)?"
_NUMERAL = re.compile(_NUM)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_MONEY = re.compile(
    rf"([$€£¥])\s?({_NUM})(?:\s?(thousand|million|billion|trillion|bn|mn|mln|[kKmMbBtT])\b)?"
)
_ABBREVIATED = re.compile(rf"\b({_NUM})\s?(bn|mn|mln|[KMB])\b")  # "4.2B", "3bn", "20K"
_PERCENT = re.compile(rf"({_NUM})\s?%")
# "20p": pence, a figure ("6pm", "6p.m." are clock times)
_PENCE = re.compile(r"\b(\d+)p\b(?!\.?\s?m\b)")
# a decade, "the 1860s": its first year, a figure ("1900s" is no "1860s")
_DECADE = re.compile(r"\b(1[0-9]\d0|20\d0)s\b")
_HYPHEN = re.compile(r"(?<=[A-Za-z0-9])-(?=[A-Za-z0-9])")  # "24-hour" -> "24 hour"
# a hyphen between figures ("7-10 days", "2018-19") is a range's dash: tokens part there
# as at a space, and `separators` still tells a range from two figures ("2 20-minute")
_FIGURE_HYPHEN = re.compile(r"(?<=\d)-(?=\d)")
# an age band named by its bound: "Under-16s", "over 65s" are those under 16, over 65
# (a hyphen or a capital: "under 2s" is two seconds)
_BAND = re.compile(r"\b(Under|Over)[- ](\d+)s\b|\b(under|over)-(\d+)s\b")
_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_COMPOUND = re.compile(rf"\b({'|'.join(_TENS)})[- ]({'|'.join(_UNITS)})\b", re.IGNORECASE)


# an acronym of a common noun is that noun, no name a context must state: "TV", "ID" ("as
# ID" where the contexts list "a passport or driving licence"), "PIN"
_COMMON_NOUNS = {"TV": "television", "ID": "identification",
                 "PIN": "personal identification number"}
# the commonest abbreviated place names (and common nouns' acronyms), spelled out; dotted
# forms in any case ("u.s" is how a lower-cased name reads), bare capitals only as written
# ("us" is a pronoun)
_ALIASES = (
    (re.compile(r"\bU\.S\.A\b\.?|\bU\.S\b\.?", re.IGNORECASE), "United States"),
    (re.compile(r"\bUSA\b|\bUS\b"), "United States"),
    (re.compile(r"\bU\.K\b\.?", re.IGNORECASE), "United Kingdom"),
    (re.compile(r"\bUK\b"), "United Kingdom"),
    (re.compile(r"\bE\.U\b\.?", re.IGNORECASE), "European Union"),
    (re.compile(r"\bEU\b"), "European Union"),
    *((re.compile(rf"\b{a}s?\b"), noun) for a, noun in _COMMON_NOUNS.items()),
)
COMMON_ACRONYMS = frozenset(a + s for a in _COMMON_NOUNS for s in ("", "s"))

# a bound before a figure, said one way: "a maximum of 6", "no more than 6", "as many as
# 6", "at most 6" are "up to 6"; "a minimum of 10", "no fewer than 10" are "at least 10"
# (the same limit in other words is a restatement, not a claim of its own)
_FIGURE_AHEAD = (r"(?=(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                 r"twelve|twenty|thirty|forty|fifty|hundred)\b))")
_BOUND_WORDS = (
    (re.compile(r"\b(?:(?:a\s+)?maximum\s+of|(?:no|not)\s+more\s+than|as\s+many\s+as|"
                r"at\s+most)\s+" + _FIGURE_AHEAD, re.IGNORECASE), "up to "),
    (re.compile(r"\b(?:(?:a\s+)?minimum\s+of|(?:no|not)\s+(?:fewer|less)\s+than)\s+"
                + _FIGURE_AHEAD, re.IGNORECASE), "at least "),
    # an exception after a whole denial restricts, it denies nothing: "nothing but
    # vegetarian food" is "only vegetarian food", "no one but the holder" "only the holder"
    (re.compile(r"\b(?:nothing|none|no\s+one|nobody)\s+(?:but|except|other\s+than)\s+"
                r"(?=[^\W\d_])", re.IGNORECASE), "only "),
)
# a limit named before its figure: "The maximum rider weight is 95 kg" says "rider weight
# is up to 95 kg", "the minimum age is 12" "age is at least 12"
_NAMED_LIMIT = re.compile(r"\b(maximum|minimum)\s+((?:[a-z]+\s+){1,3}?)(is|are)\s+"
                          + _FIGURE_AHEAD, re.IGNORECASE)


def _named_limit(m: re.Match[str]) -> str:
    bound = "up to" if m[1].lower() == "maximum" else "at least"
    return f"{m[2]}{m[3]} {bound} "


def _compound(m: re.Match[str]) -> str:
    return str(20 + 10 * _TENS.index(m.group(1).lower()) + 1 + _UNITS.index(m.group(2).lower()))


def _money(m: re.Match[str]) -> str:
    mag = m.group(3)
    word = _MAG_WORD.get(mag.lower(), mag.lower()) if mag else ""
    return f"{m.group(2)} {word + ' ' if word else ''}{_CURRENCY[m.group(1)]}"


def _abbreviated(m: re.Match[str]) -> str:
    return f"{m.group(1)} {_MAG_WORD[m.group(2).lower()]}"


@lru_cache(maxsize=16384)
def normalise_text(text: str) -> str:
    """Text with numbers, money, percentages, number words, units and durations
    spelled one way (`measures.canonical_measures`)."""
    return canonical_measures(_surface(text))


@lru_cache(maxsize=16384)
def _surface(text: str) -> str:
    text = _THOUSANDS.sub("", text)
    text = _MONEY.sub(_money, text)
    text = _ABBREVIATED.sub(_abbreviated, text)
    text = _PERCENT.sub(r"\1 percent", text)
    text = _PENCE.sub(r"\1 pence", text)
    text = _DECADE.sub(r"\1", text)
    text = _BAND.sub(lambda m: f"{m[1] or m[3]} {m[2] or m[4]}", text)
    text = _HYPHEN.sub(" ", _FIGURE_HYPHEN.sub("\u2013", text))
    for pattern, name in _ALIASES:
        text = pattern.sub(name, text)
    for pattern, name in _BOUND_WORDS:
        text = pattern.sub(name, text)
    text = _NAMED_LIMIT.sub(_named_limit, text)
    return _COMPOUND.sub(_compound, text)


@lru_cache(maxsize=16384)
def cased_tokens(text: str) -> tuple[str, ...]:
    """The word tokens of the normalised text, case kept (`ragassay.text`'s token rule)."""
    return tuple(TOKEN.findall(normalise_text(text)))


@lru_cache(maxsize=16384)
def separators(text: str) -> tuple[str, ...]:
    """What joins each of `cased_tokens` to the next in the normalised text, blanks
    stripped: a colon joins a clock's hour to its minutes ("18:30"), a dash the ends of
    a range ("7-10 days"), which reads no clock."""
    normal = normalise_text(text)
    spans = [m.span() for m in TOKEN.finditer(normal)]
    return tuple(normal[a[1]:b[0]].strip() for a, b in zip(spans, spans[1:], strict=False))


@lru_cache(maxsize=16384)
def norm_tokens(text: str) -> tuple[str, ...]:
    """`ragassay.text.tokens` of the normalised text (lower-cased)."""
    return tuple(t.lower() for t in cased_tokens(text))


_NUMBER_WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "dozen": 12, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100,
}  # fmt: skip


# words that say a figure is rounded: it stands for any value it rounds ("almost 200" for
# 198, "around 40" for 38; not "around 45" for 38)
HEDGES = frozenset({"about", "around", "almost", "nearly", "roughly", "approximately",
                    "approx", "circa"})
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Quantity:
    """A number mentioned in a text: its value and how precisely it is stated."""

    text: str  # as it appears after normalisation ("4.2 billion", "1932")
    value: float
    digits: int  # significant digits stated (4.2 billion: 2)
    rounded: bool  # stated with a decimal point or a scale word: may be a rounding
    hedge: str = ""  # the word saying it is rounded ("almost 200": almost), if any

    @property
    def term(self) -> str:
        """The figure as a key term: with its hedge, which says it may be a rounding."""
        return f"{self.hedge} {self.text}" if self.hedge else self.text


def _significant(num: str) -> int:
    digits = num.replace(".", "").lstrip("0")
    if "." not in num:
        digits = digits.rstrip("0") or digits
    return max(1, len(digits))


def _numeral(token: str) -> bool:
    """Whether a token is a plain figure ("14", "2.5"), as the tokens of normalised text
    write one."""
    return token[:1].isdigit() and _NUMERAL.fullmatch(token) is not None


@lru_cache(maxsize=32768)
def quantities(text: str) -> tuple[Quantity, ...]:
    """Numbers of a text by value: "4.2 billion" -> 4.2e9 (2 digits), "1932" -> 1932."""
    toks = norm_tokens(text)
    out: list[Quantity] = []
    for i, t in enumerate(toks):
        if _numeral(t):
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            scale = _SCALE.get(nxt, 1.0)
            label = f"{t} {nxt}" if scale != 1.0 else t
            hedge = toks[i - 1] if i > 0 and toks[i - 1] in HEDGES else ""  # "almost 200"
            out.append(Quantity(label, float(t) * scale, _significant(t),
                                scale != 1.0 or "." in t or bool(hedge), hedge))
        elif t in _NUMBER_WORDS:
            out.append(Quantity(t, float(_NUMBER_WORDS[t]), 2, False))
    return tuple(out)


@lru_cache(maxsize=32768)
def written_values(text: str) -> frozenset[float]:
    """The values of the figures as the text writes them, before durations are put in
    one base ("2 weeks" gives 2 here, 14 days in `quantities`): what a context offers as
    evidence for a number is both; and the length a period adjective names ("weekly
    hire": 7 days, `_periods`), an inclusive bound as the strict one ("5 and under":
    6, `_bounds`); the length of a clock span ("7 pm to 8:30 pm": 90 minutes,
    `clock_spans`)."""
    toks = tuple(t.lower() for t in TOKEN.findall(_surface(text)))
    out = {float(t) for t in toks if _numeral(t)}
    norm, normal = norm_tokens(text), normalise_text(text)
    # (_ranged only adds units: what _converted reads of `norm` it reads of that too)
    return frozenset(out | {q.value for q in quantities(text)} | _converted(_ranged(norm))
                     | _single(norm) | span_lengths(normal) | frequencies(normal)
                     | _periods(text) | _bounds(toks))


# an inclusive bound of whole years or items, as the strict one it is: "5 and under" is
# "under 6", "12 or over" "over 11" (a claim's "under-6s" for "aged 5 and under")
_INCLUSIVE = {"under": 1, "younger": 1, "below": 1, "over": -1, "older": -1, "above": -1,
              "up": -1}


def _bounds(toks: tuple[str, ...]) -> set[float]:
    return {float(t) + _INCLUSIVE[toks[i + 2]] for i, t in enumerate(toks[:-2])
            if t.isdigit() and toks[i + 1] in ("and", "or") and toks[i + 2] in _INCLUSIVE}


# a period named by its adjective before what it sets ("weekly hire", "a monthly pass",
# "daily parking"): the length a claim writes "for a week" (7 days), "for 1 month" (30
# days), "for a day" (24 hours); not a frequency ("published weekly on Fridays", "on a
# weekly basis")
_PERIOD_ADJECTIVE = re.compile(r"\b(daily|weekly|fortnightly|monthly)\s+(?!(?:on|in|at|and|or|"
                               r"for|from|to|by|with|until|basis|but|if)\b)[a-z]",
                               re.IGNORECASE)
_PERIOD_LENGTH = {"daily": 24.0, "weekly": 7.0, "fortnightly": 14.0, "monthly": 30.0}


def _periods(text: str) -> set[float]:
    return {_PERIOD_LENGTH[m.group(1).lower()] for m in _PERIOD_ADJECTIVE.finditer(text)}


# a length of time in the next smaller or larger unit: "2 days" offers 48 (hours),
# "90 minutes" 1.5 (hours), so "48 hours" restates it
_CONVERT = {"day": (24.0, 1.0), "days": (24.0, 1.0), "hour": (60.0, 1 / 24),
            "hours": (60.0, 1 / 24), "minute": (1.0, 1 / 60), "minutes": (1.0, 1 / 60)}


def _converted(toks: tuple[str, ...]) -> set[float]:
    out: set[float] = set()
    for t, unit in zip(toks, toks[1:], strict=False):
        if unit in _CONVERT and _numeral(t):
            down, up = _CONVERT[unit]
            out.update((float(t) * down, float(t) * up))
    return out


# a range's first bound written bare takes the unit of its second ("between 60 and 15
# minutes", "10-20 minutes": 60 minutes, 10 minutes)
_RANGE_WORDS = frozenset({"and", "to", "or"})


def _ranged(toks: tuple[str, ...]) -> tuple[str, ...]:
    """The tokens with a range's bare first bound followed by its second's unit."""
    out: list[str] = []
    for i, t in enumerate(toks):
        out.append(t)
        if not _numeral(t):
            continue
        k = i + 2 if i + 1 < len(toks) and toks[i + 1] in _RANGE_WORDS else i + 1
        if k + 1 < len(toks) and _numeral(toks[k]) and toks[k + 1] in _CONVERT:
            out.append(toks[k + 1])
    return tuple(out)


# "a"/"an" before a unit names one of it ("an hour's break", "costs a pound"): a context
# that writes it so states the figure 1 that an answer writes "one hour", "one pound";
# not the period of a rate ("twice a day", "5 pounds a week": counts of another thing)
_UNIT = re.compile(r"(?:second|minute|hour|day|week|fortnight|month|year|pound|euro|"
                   r"dollar|kilometre|metre|mile|kilogram|litre)(?:'s|’s)?")
_RATE_BEFORE = frozenset({"once", "twice", "times", "per", "each", "every", "pounds", "euros",
                          "dollars", "pence", "percent"})


def _single(toks: tuple[str, ...]) -> set[float]:
    """1 and its conversions, for each unit the text writes after "a" or "an"."""
    out: set[float] = set()
    for i, t in enumerate(toks[:-1]):
        unit = toks[i + 1]
        if t not in ("a", "an") or _UNIT.fullmatch(unit) is None or (
                i and (_numeral(toks[i - 1]) or toks[i - 1] in _RATE_BEFORE)):
            continue
        out.add(1.0)
        out |= _converted(("1", unit.split("'")[0].split("’")[0]))
    return out


def _round_sig(x: float, digits: int) -> float:
    if x == 0:
        return 0.0
    return round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))


def quantity_present(q: Quantity, values: frozenset[float]) -> bool:
    """Whether the context states this value: exactly, or, for a number stated with a
    decimal point or a scale word, rounded to the digits stated ("4.2 billion" matches
    4,213 million; "1932" and "1900" match only themselves); a hedged one only for a
    value near it (`hedged_near`)."""
    if q.value in values:
        return True
    return q.rounded and any(
        _round_sig(v, q.digits) == _round_sig(q.value, q.digits)
        and (not q.hedge or hedged_near(q.hedge, q.value, v)) for v in values
    )


# how far a hedged figure may stand from the value it rounds: "around 40" for 38 or
# "almost 200" for 198, not "about 100" for 140 or "about 10 minutes" for 14 (each of
# which rounds so at one digit, the precision a round figure states)
_HEDGE_SPAN = 0.1
# hedges that say the value falls short of the figure ("almost 200" is not 205)
_SHORT_OF = frozenset({"almost", "nearly"})


def hedged_near(hedge: str, stated: float, value: float) -> bool:
    """Whether `value` is what a figure `stated` with the hedge `hedge` ("about",
    "almost") may stand for: within a tenth of it, and not above it for "almost" and
    "nearly" (the digits it rounds at the caller checks)."""
    if hedge in _SHORT_OF and value > stated:
        return False
    return abs(value - stated) < _HEDGE_SPAN * abs(stated)
