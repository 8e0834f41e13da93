"""A rate's period after a counted thing: "two litres of water a day", "one capsule a
day", "a glass of water a week" say how much of the thing each day or week, as "twice a
day" does; "a day" there is the period of a rate, not a length of 24 hours
(measures._span, which writes a length "a day" as "24 hours").

The counted thing is a figure (a numeral, or "a"/"an") and the few words that name what
it counts ("litres of water", "chew stick", "cup of flour") running up to the period; a
word of time, comparison or a verb's link between them ("takes 2 days for a day", "3
hours or a day", "within 2 days, a day") makes the period a length again.
"""

from __future__ import annotations

import re

# words that, between a figure and the period, say it is no counted thing's rate: a
# length's preposition or link ("for a day", "in a day", "or a day"), an estimate
# ("about a day"), a verb that takes a length ("takes", "lasts", "allow")
NOT_COUNTED = frozenset({
    "for", "in", "within", "about", "around", "roughly", "nearly", "almost", "over",
    "under", "after", "before", "than", "to", "up", "at", "by", "and", "or", "but",
    "only", "just", "least", "most", "more", "less", "takes", "take", "took", "lasts",
    "last", "lasted", "allow", "wait", "is", "are", "was", "were", "be", "been", "it",
    "until", "till", "from", "into", "during", "per", "every", "each", "times",
    "approximately", "another", "extra", "full", "whole", "half", "later", "ago",
})
_FIGURE = re.compile(r"\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
                     r"twelve|twenty|fifty|hundred", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# what after the period makes it a length of time ("a day before", "a week's notice",
# "a day in advance", "a day late")
_LENGTH_AFTER = re.compile(r"(?:'s|\u2019s|\s+(?:before|after|ahead|early|earlier|late|later|"
                           r"in advance|beforehand|prior|notice|or|to|and)\b)", re.IGNORECASE)


def counted_rate(text: str, start: int, end: int) -> bool:
    """Whether the period phrase `text[start:end]` ("a day", "a week") is the period of
    a rate of a counted thing (module docstring)."""
    if _LENGTH_AFTER.match(text, end):
        return False
    before = text[max(0, start - 60):start]
    if not before.endswith(" "):
        return False
    toks = before.split(" ")[:-1]
    for n, tok in enumerate(reversed(toks)):
        if n > 4 or not tok:
            return False
        if n > 0 and _FIGURE.fullmatch(tok):
            return True
        if not _WORD.fullmatch(tok) or tok.lower() in NOT_COUNTED:
            return False
    return False

