"""Canonical values of figures and units, written one way before any lexical match.

The same length of time or quantity is written many ways: "a fortnight" / "14 days" /
"two weeks", "a full day" / "24 hours", "a quarter of an hour" / "15 minutes",
"ten thousand kilometres" / "10,000 km", "10°C" / "10 degrees Celsius", "annually" /
"once a year". `canonical_measures` rewrites each into one form (number words as
digits, a number with its scale word as one figure, unit symbols as words, durations
in one base per family: weeks, fortnights and months as days, a single day as 24 hours,
whole years of months as years; "three quarters of the" as "75 percent of the"), so
support, the missing-term rule and claim alignment read them as the same figure and the
same unit. A rate ("twice a week", "€5 a day", "9 EUR a day",
"24 hours a day") keeps its "a week": it is no length of time.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .rate_period import counted_rate

_SMALL = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90, "dozen": 12,
}  # fmt: skip
_SCALE = {"hundred": 100, "thousand": 1000}
_UNIT_WORDS = (
    "second|minute|hour|day|week|fortnight|month|year|decade|kilometre|kilometer|metre|"
    "meter|mile|kilogram|gram|litre|liter|degree|percent|euro|dollar|pound|page|credit"
)

# a number word (lower case: "Ten Downing Street" is a name) as digits; "one" only
# before a unit ("one hour"), since "the one", "one of" count nothing
_WORD = re.compile(r"\b(" + "|".join(_SMALL) + r")\b")
_ONE = re.compile(rf"\b[Oo]ne (?=(?:{_UNIT_WORDS})s?\b)")
_SCALED = re.compile(r"\b(\d+) (hundred|thousand)\b(?! (?:thousand|million|billion))")
_HALF = (
    (re.compile(r"\b(?:(?:a|one) )?quarter of an hour\b|\ba quarter hour\b"), "15 minutes"),
    (re.compile(r"\bhalf an hour\b|\ba half hour\b|\bhalf hour\b"), "30 minutes"),
    (re.compile(r"\b(?:an|one) hour and a half\b"), "90 minutes"),
    (re.compile(r"\bthree quarters of an hour\b"), "45 minutes"),
    (re.compile(r"\b(?:an|one) and a half hours?\b"), "90 minutes"),
    (re.compile(r"\btwo and a half hours\b|\b2 and a half hours\b"), "150 minutes"),
    (re.compile(r"\b(?:a|one) month and a half\b"), "6 weeks"),
    (re.compile(r"\b(?:a|one) year and a half\b"), "18 months"),
    (re.compile(r"\bhalf a day\b"), "12 hours"),
    # a share of something: "three quarters of their plot" is "75 percent of" it
    (re.compile(r"\bthree quarters of (?=(?:the|your|their|its|his|her|our|my|all)\b)"),
     "75 percent of "),
    (re.compile(r"\b(?:a|one) quarter of (?=(?:the|your|their|its|his|her|our|my|all)\b)"),
     "25 percent of "),
    # ("half of the deposit" is "50 percent of" it; not "the first half of the year")
    (re.compile(r"(?<!first )(?<!second )(?<!last )(?<!other )\b(?:[Oo]ne )?[Hh]alf of "
                r"(?=(?:the|your|their|its|his|her|our|my|all)\b)"), "50 percent of "),
)
# unit symbols after a figure, as words ("10°C", "80 km/h", "750kg")
_SYMBOLS = (
    (re.compile(r"(\d)\s?[°º]\s?C\b"), r"\1 degrees Celsius"),
    (re.compile(r"(\d)\s?[°º]\s?F\b"), r"\1 degrees Fahrenheit"),
    (re.compile(r"(\d)\s?°"), r"\1 degrees"),
    (re.compile(r"(\d)\s?(?:km/h|kmh|kph)\b"), r"\1 kilometres per hour"),
    (re.compile(r"(\d)\s?mph\b"), r"\1 miles per hour"),
    (re.compile(r"(\d)\s?km\b"), r"\1 kilometres"),
    (re.compile(r"(\d)\s?kg\b"), r"\1 kilograms"),
    (re.compile(r"(\d)\s?mg\b"), r"\1 milligrams"),
    (re.compile(r"(\d)\s?ml\b"), r"\1 millilitres"),
    (re.compile(r"(\d)\s?L\b"), r"\1 litres"),
    (re.compile(r"(\d)\s?cm\b"), r"\1 centimetres"),
    (re.compile(r"(\d)\s?mm\b"), r"\1 millimetres"),
    (re.compile(r"(\d)\s?(?:hrs?|h)\b"), r"\1 hours"),
    (re.compile(r"(\d)\s?mins?\b"), r"\1 minutes"),
    (re.compile(r"(\d)\s?secs?\b"), r"\1 seconds"),
    (re.compile(r"\b(kilo|milli|centi)(met|lit)er(s?)\b"), r"\1\2re\3"),  # US spelling
    (re.compile(r"\bliter(s?)\b"), r"litre\1"),
)
_ADVERBS = (
    (re.compile(r"\bannually\b|\bevery (?:1 )?year\b|\bonce yearly\b"), "once a year"),
    (re.compile(r"\bquarterly\b"), "4 times a year"),
    (re.compile(r"\bfortnightly\b"), "once every 14 days"),
)
# "a week" / "1 week": a length of time, unless it is the "per" of a rate, after a
# count or frequency ("twice a week", "3 times a week", "5 euros a week", "24 hours a day")
# (and a count of a plural thing: "two shifts a week", "3 classes a day")
_RATE = re.compile(r"(?:\d|\d [a-z]+s|once|twice|thrice|times|euros|dollars|pounds|pence|"
                   r"percent|hours|minutes|days|per|each|every|eur|usd|gbp|chf|cad|aud|nzd|sek|nok|dkk)"
                   r"[^\w,;]*$", re.IGNORECASE)  # ("3 days, a week or ...": a list, no rate)
# "a day or two" / "one week or two": a range, as "1-2 days" is ("1 or 2 days"), read
# before "a day" becomes "24 hours"
_OR_MORE = re.compile(r"\b(?:[Aa]n?|[Oo]ne) (minute|hour|day|week|fortnight|month|year) or "
                      r"(two|three)\b(?! (?:minute|hour|day|week|fortnight|month|year)s?\b)")
# ("one week or two weeks" lists two lengths; "one week or two" is a range)
_SPAN = re.compile(r"\b(a|an|1|one)( full| whole| single)? (fortnight|week|day)\b")
_WEEKS = re.compile(r"\b(\d+(?:\.\d+)?) (fortnight|week)s?\b")
_MONTHS = re.compile(r"\b(\d+) months?\b")
_PER = re.compile(r"\b(?:every|each|per) $", re.IGNORECASE)
# a range whose bare first bound takes the unit of its second: "2-3 weeks" is 14 to 21
# days, not 2 to 21 ("every 2-3 months" keeps its months: a rate)
_RANGE_SPAN = re.compile(r"\b(\d+)(\s?\u2013\s?|\s(?:to|or)\s)(\d+) (fortnight|week|month)s?\b")
_SPAN_DAYS = {"fortnight": 14, "week": 7, "month": 30}
_N_WEEKLY = re.compile(r"\b(\d+)[- ]weekly\b")
# "every 6 months" is "2 times a year" ("twice a year"), for the months a year divides
_EVERY_MONTHS = re.compile(r"(?<!\bfor )\b(?:once )?every (2|3|4|6) months\b(?! of\b)")
_DAY_HOURS = {"day": "24 hours", "week": "7 days", "fortnight": "14 days"}
# "a month" as a length, after a word that takes one ("for a month", "within a month"), is
# 30 days, as "1 month" is; elsewhere it is mostly a rate's period ("50 GB a month", "two
# classes in a month")
_A_MONTH = re.compile(r"\b(for|within|after|than|over|around|about|least|most|to) (?:a|one) "
                      r"(?:full |whole )?month\b(?!['\u2019])", re.IGNORECASE)
# "3 and a half hours" is 210 minutes, as "2 and a half hours" is 150 (after number words
# became digits)
_AND_A_HALF = re.compile(r"\b(\d+) and a half hours\b")
# "per fortnight" is "every 14 days", as "every two weeks" is ("a fortnight" alone is a
# length: _SPAN); a rate's keeps its period: "£20 per fortnight" is "£20 a fortnight"
_PER_FORTNIGHT = re.compile(r"\b(?:per|every|each) fortnight\b")
# 100 cm or more as metres ("120 cm" is "1.2 metres", as a height is written either way)
_CENTIMETRES = re.compile(r"(?<![\d.])\b(\d{3,}) centimetres\b")
# thousands of grams or millilitres, in the larger unit ("2000 grams" is "2 kilograms")
_THOUSANDTHS = re.compile(r"(?<![\d.])\b(\d{4,}) (grams|millilitres)\b")
_LARGER = {"grams": "kilograms", "millilitres": "litres"}
# dozens as their count ("two dozen" is 24, "half a dozen" 6), before "dozen" reads 12
_DOZENS = re.compile(r"\b(?:(half) a|(\d+|two|three|four|five|six)) dozen\b")


def _after_rate(m: re.Match[str]) -> bool:
    """Whether the match is the period of a rate ("£20 per fortnight", "twice a week")."""
    return _RATE.search(m.string[max(0, m.start() - 12):m.start()]) is not None


def _fortnight(m: re.Match[str]) -> str:
    return "a fortnight" if _after_rate(m) else "every 14 days"


# what may follow a length of time ("a day before", "a week or two", "a day's notice");
# another word after it is a noun it modifies: "a day ticket", "a week pass" say no length
_AFTER_SPAN = re.compile(
    r"\s+(?!(?:of|or|and|to|in|into|before|after|ahead|early|earlier|late|later|from|for|per|"
    r"at|on|with|without|notice|is|are|was|were|will|would|can|could|may|might|must|should|"
    r"then|but|so|each|every|until|till|beforehand|off|only|max|maximum|minimum|long|more|"
    r"less|extra|plus|prior|when|if|while|as|once|during|since|by|the|a|an|you|we|they|it|"
    r"i|this|that|your|our|their|its|my|left|away|ago|out|over|up|now|here|there|too|"
    r"instead|either|again|later|old|in advance)\b)[a-z]", re.IGNORECASE)


def _span(m: re.Match[str]) -> str:
    if _after_rate(m) or counted_rate(m.string, m.start(), m.end()) or _AFTER_SPAN.match(
            m.string, m.end()):
        return m.group(0)
    full = m.group(2) or ""
    return f"{full.strip()} {_DAY_HOURS[m.group(3)]}".strip()


def _weeks(m: re.Match[str]) -> str:
    days = float(m.group(1)) * (14 if m.group(2) == "fortnight" else 7)
    return f"{days:g} days"


def _range_span(m: re.Match[str]) -> str:
    if _PER.search(m.string[max(0, m.start() - 6):m.start()]):
        return m.group(0)
    days = _SPAN_DAYS[m[4]]
    return f"{int(m[1]) * days}{m[2]}{int(m[3]) * days} days"


def _months(m: re.Match[str]) -> str:
    """Whole years of months as years, the rest as days of 30 ("3 months" is "90 days",
    as a context may say it)."""
    n = int(m.group(1))
    if n == 0:
        return m.group(0)
    if n % 12:
        if _PER.search(m.string[max(0, m.start() - 6):m.start()]):
            return m.group(0)  # a rate ("every 5 months", "for each 6 months") stays one
        return f"{n * 30} days"
    years = n // 12
    return f"{years} year" + ("s" if years > 1 else "")


# a clock time written one way, on the 12-hour clock as most answers and dialogues say it
# ("18:00", "6 p.m.", "6pm" are "6 pm"; "18:30" is "6:30 pm"; "noon" is "12 pm"): a
# bare "at 7" of a context still reads as the claim's "7 pm"
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?", re.IGNORECASE)
_CLOCK24 = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b(?!\s?[aApP]\.?[mM]\b)")
_NOON = re.compile(r"\b(?:12 )?(?:noon|midday)\b", re.IGNORECASE)
# a clock time in words ("2 in the afternoon", "7 in the morning", "1 o'clock", "half
# past 10"), after number words became digits
_DAYPART = re.compile(r"\b((?:at|from|until|till|by|to|before|after|around|about|between|and|or)"
                      r" )(1[0-2]|[1-9]) (?:in the (morning|afternoon|evening)|at (night))\b",
                      re.IGNORECASE)
_OCLOCK = re.compile(r"\b(1[0-2]|[1-9]|one) o['\u2019]clock\b", re.IGNORECASE)
_PAST = re.compile(r"\b(half|quarter) past (1[0-2]|[1-9])\b", re.IGNORECASE)
# "quarter to 8" is 7:45; "midnight" is 12 am, as "noon" is 12 pm
_TO = re.compile(r"\b(?:a )?quarter to (1[0-2]|[1-9])\b(?! (?:minute|hour|day|week|month|year|"
                 r"percent|people|person|guest)s?\b)", re.IGNORECASE)
_MIDNIGHT = re.compile(r"\b(?:12 )?midnight\b", re.IGNORECASE)
# how often: "twice" = "2 times"; "2 times daily" / "per day" / "each day" = "2 times a day"
_TIMES = re.compile(r"\b(twice|thrice)(?= (?:a|an|per|each|every|daily|weekly|monthly|yearly)\b)",
                    re.IGNORECASE)  # how often, not how much ("twice the prior-year level")
_OFTEN = re.compile(r"\b(\d+ times|once) (?:(daily|weekly|monthly|yearly)|(?:per|each|every) "
                    r"(day|week|month|year))\b")
_PERIOD = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}
# how many times, in words or as "once"/"twice": "one time" and "a single time" are
# "once", "2 times" (no rate after it: "twice" before a period is already "2 times") is
# "twice"; only where "time" ends its phrase (a word of a closed class or a mark after
# it), so "a one-time fee" (hyphen read as a space) stays a fee
_AFTER_TIMES = (r"(?=\s*(?:$|[.,;:!?)\]]|(?:a|an|in|per|every|each|only|through|via|on|at|"
                r"online|before|after|during|within|and|or|but|if|as|while|when|until|to|for|"
                r"with|without|more|so|then|again)\b))")
# (not before a rate's period: "one time a week" stays a count of 1 a week, as "once a
# week" is no figure to set against "twice a week")
_ONCE = re.compile(r"\b(?:[Oo]ne|1|[Aa] single|[Jj]ust one) time\b(?! (?:(?:a|an|per|each|every) "
                   r"(?:day|week|fortnight|month|year|hour|night)|daily|weekly|monthly|yearly)\b)"
                   + _AFTER_TIMES)
_TWICE = re.compile(r"\b2 times\b(?! (?:a|an|per|each|every|daily|weekly|monthly|yearly)\b)"
                    + _AFTER_TIMES)


def _twelve(hour: int, minutes: str, half: str) -> str:
    return f"{hour}{'' if minutes == '00' else ':' + minutes} {half}m"


def _clock(m: re.Match[str]) -> str:
    hour, minutes = int(m.group(1)), m.group(2) or "00"
    if not 1 <= hour <= 12:
        return m.group(0)
    return _twelve(hour, minutes, m.group(3).lower())


def _clock24(m: re.Match[str]) -> str:
    hour, minutes = int(m.group(1)), m.group(2)
    if m.group(1)[0] != "0" and 1 <= hour <= 12 and hour != 12:
        return m.group(0)  # "7:30" alone: either half of the day
    return _twelve(hour % 12 or 12, minutes, "p" if hour >= 12 else "a")


def _daypart(m: re.Match[str]) -> str:
    hour = int(m.group(2))
    morning = (m.group(3) or "").lower() == "morning" or (
        m.group(4) is not None and (hour == 12 or hour < 5))  # "12 at night": midnight
    return f"{m.group(1)}{hour} {'a' if morning else 'p'}m"


def _often(m: re.Match[str]) -> str:
    return f"{m.group(1)} a {_PERIOD.get(m.group(2) or '', m.group(3))}"


def clock_and_frequency(text: str) -> str:
    """The text with clock times one way ("18:00" and "6 p.m." as "6 pm", "18:30" as
    "6:30 pm", "noon" as "12 pm", "midnight" as "12 am",
    "quarter to 8" as "7:45", "2 in the afternoon" as "2 pm", "half past 10" as
    "10:30", "1 o'clock" as "1") and frequencies one way ("twice" as "2 times", "2
    times daily" as "2 times a day")."""
    low = text.lower()
    if "clock" in low:
        text = _OCLOCK.sub(lambda m: "1" if m.group(1).lower() == "one" else m.group(1), text)
    if " in the " in low or " at night" in low:
        text = _DAYPART.sub(_daypart, text)
    if "past" in low:
        text = _PAST.sub(lambda m: f"{m.group(2)}:{'30' if m.group(1).lower() == 'half' else '15'}",
                         text)
    if "quarter to" in low:
        text = _TO.sub(lambda m: f"{int(m.group(1)) - 1 or 12}:45", text)
    low = text.lower()
    if "m" in low and any(c.isdigit() for c in text):
        text = _CLOCK.sub(_clock, text)
    if ":" in text:
        text = _CLOCK24.sub(_clock24, text)
    if "noon" in low or "midday" in low:
        text = _NOON.sub("12 pm", text)
    if "midnight" in low:
        text = _MIDNIGHT.sub("12 am", text)
    if "twice" in low or "thrice" in low:
        text = _TIMES.sub(lambda m: "2 times" if m.group(1).lower() == "twice" else "3 times",
                          text)
    if " time" in low:
        text = _ONCE.sub("once", text)
        text = _TWICE.sub("twice", text)
    if "times" in text or "once" in low:
        text = _OFTEN.sub(_often, text)
    return text


_SYMBOL_TRIGGER = re.compile(
    r"\d\s?(?:[°º]|k[mgp]|m[gmlp]|cm|hr|h\b|L\b|min|sec)|(?:met|lit)er|\d\s?m?\s?(?:x|×|by\s?\d)")
# a size in metres, "3m x 3m", "3 x 3m", "3x3m x 2m" ("3m" alone may be millions: only in
# a size, whose last figure has the "m")
_SIZE = re.compile(r"\b(\d+(?:\.\d+)?)\s?m?\s?(?:x|×|by)\s?(\d+(?:\.\d+)?)\s?m?"
                   r"(?:\s?(?:x|×|by)\s?(\d+(?:\.\d+)?)\s?m?)?\b")


def _size(m: re.Match[str]) -> str:
    first = m[0][len(m[1]):]
    if not m[0].endswith("m") or not (first.lstrip().startswith("m") or first[:1] in "x×"):
        return m[0]  # ("6 x 25m lanes": six lanes, each 25m; "3x3m" and "3m x 3m" sizes)
    return " by ".join(f"{n} metres" for n in m.groups() if n)


@lru_cache(maxsize=32768)
def unit_words(text: str) -> str:
    """The text with unit symbols after a figure written as words ("10°C" as "10
    degrees Celsius"), so that the "C" of a unit is not read as a name."""
    if not _SYMBOL_TRIGGER.search(text):
        return text  # (most sentences: one scan instead of one per symbol)
    text = _SIZE.sub(_size, text)
    for pattern, repl in _SYMBOLS:
        text = pattern.sub(repl, text)
    return text


def canonical_measures(text: str) -> str:
    """The text with figures and units written one way (module docstring). Expects
    thousands separators already removed ("10,000" as "10000")."""
    text = unit_words(text)
    low = text.lower()
    if " or t" in low:
        text = _OR_MORE.sub(lambda m: f"1 or {_SMALL[m.group(2)]} {m.group(1)}s", text)
    if "half" in low or "quarter" in low:
        for pattern, repl in _HALF:
            text = pattern.sub(repl, text)
    if "one " in low:
        text = _ONE.sub("1 ", text)
    if "dozen" in low:
        text = _DOZENS.sub(lambda m: str(6 if m[1] else 12 * int(_SMALL.get(m[2], m[2]))), text)
    text = _WORD.sub(lambda m: str(_SMALL[m.group(1)]), text)
    text = clock_and_frequency(text)
    if "and a half hours" in text:
        text = _AND_A_HALF.sub(lambda m: f"{int(m[1]) * 60 + 30} minutes", text)
    if "hundred" in low or "thousand" in low:
        text = _SCALED.sub(lambda m: str(int(m.group(1)) * _SCALE[m.group(2)]), text)
    if "week" in low or "month" in low or "fortnight" in low:
        text = _RANGE_SPAN.sub(_range_span, text)
    if "month" in low:
        text = _EVERY_MONTHS.sub(lambda m: f"{12 // int(m.group(1))} times a year", text)
        text = _MONTHS.sub(_months, text)
    low = text.lower()  # (what the steps above wrote: "6 weeks", "1 year")
    if "year" in low or "ly" in low:
        for pattern, repl in _ADVERBS:
            text = pattern.sub(repl, text)
    if "grams" in text or "millilitres" in text:
        text = _THOUSANDTHS.sub(lambda m: f"{int(m[1]) / 1000:g} {_LARGER[m[2]]}", text)
    if "centimetres" in text:
        text = _CENTIMETRES.sub(lambda m: f"{int(m.group(1)) / 100:g} metres", text)
    if "month" in low:
        text = _A_MONTH.sub(r"\1 30 days", text)
    if "day" in low or "week" in low or "fortnight" in low:
        text = _PER_FORTNIGHT.sub(_fortnight, text)
        text = _N_WEEKLY.sub(r"every \1 weeks", text)  # "an 8-weekly schedule"
        text = _SPAN.sub(_span, text)
        text = _WEEKS.sub(_weeks, text)
    return text
