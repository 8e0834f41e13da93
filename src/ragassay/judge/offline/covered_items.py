"""What a decline says the sources do have, as a list: "I only have the hourly charges and
the blue badge rules", "- only sailing times and foot passenger prices", "it only has
check-up prices and hygienist days". Said beside a decline it describes the sources, not
the world, and is read loosely: each item of the list names something the contexts name
(half of its content words at least, "hourly charges" against "£2 per hour"; a one-word
item may be a paraphrase), and none carries a figure the contexts lack. An item of two or
more words the contexts mostly never name ("the weekly season tickets", "the brunch times
for the garden terrace") is a claim about what they hold, checked as one.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .lexical import FILLER, TermPool, content_tokens, missing_terms, stem
from .source_scope import scope_end

# the list's opening: the speaker's or the sources' "only", or a bare "only" fragment
ONLY_HAS = re.compile(
    rf"^\W*(?:(?:but|and|so|though|however)\s+)?(?:i(?:{_A}ve got| have got)?\s+(?:only|just)\s+"
    r"(?:have|had|hold|know about|see|got)|(?:it|they)\s+(?:only|just)\s+(?:has|have|"
    r"contains?|gives?|lists?|shows?|mentions?)|(?:only|just))\s+(?P<items>.+)$",
    re.IGNORECASE | re.DOTALL)
_ITEM_SPLIT = re.compile(r",|;|\s(?:and|or|&|plus|as well as)\s", re.IGNORECASE)
# words of the list that say nothing of an item ("the", "details of", "some")
_FRAME = frozenset({"details", "detail", "information", "info", "times", "some", "things",
                    "bits", "general", "basic", "basics"})


def covered_list(clause: str, pool: TermPool, question: str) -> bool:
    """Whether a clause beside a decline lists what the sources hold, each item named by
    the contexts (`pool`) and no figure missing from them and the question."""
    m = ONLY_HAS.match(clause)
    if m is None or missing_terms(m.group("items"), pool, question):
        return False
    return items_named(m.group("items"), pool)


# where a list of what the sources cover ends: a contrast, a lack or a clause of its own
# ("..., not gas tariffs", "but nothing about Z", "which are ...", "so I can't say")
_LIST_END = re.compile(r"\b(?:but|not|except|although|though|so|which|who|where|while|"
                       r"whereas|however|because)\b|[;:()\u2014\u2013]|\s-\s", re.IGNORECASE)


_RELATIVE = re.compile(r"(?:which|who|where)$", re.IGNORECASE)


def items_named(listed: str, pool: TermPool) -> bool:
    """Whether each item of a list of what the sources cover (what follows "The
    information covers", up to a contrast or a clause of its own) names something the
    contexts name: "class bookings and the pool" against a gym's passages, not "the
    climbing wall" they never mention."""
    text = listed[:m.start()] if (m := _LIST_END.search(listed)) else listed
    if m is not None and _RELATIVE.match(m.group()):
        return False  # "..., which are every hour from 6am": says more of them, a claim
    for item in _ITEM_SPLIT.split(text.rstrip(" .!?")):
        words = [t for t in content_tokens(item) if t not in FILLER and t not in _FRAME]
        parts = _COMPOUND.findall(item.lower())  # "under-threes": "under" names it too
        named = sum(_named(t, pool) for t in words) + any(_named(t, pool) for t in parts)
        if len(words) >= PARAPHRASED and 2 * named < len(words):
            return False  # ("the brunch times for the garden terrace": 1 of 3 named)
    return True


_COMPOUND = re.compile(r"[a-z]+(?=-[a-z])|(?<=[a-z]-)[a-z]+")
ROOT = 4  # letters two words' stems share at the start to be one word ("opening", "open")


def _named(word: str, pool: TermPool) -> bool:
    """Whether the contexts name a word, or a word of its root ("opening hours" against
    "open daily", "bookings" against "book")."""
    if pool.has(word):
        return True
    w = stem(word)
    return len(w) >= ROOT and any(s[:ROOT] == w[:ROOT] for s in pool.stems)


PARAPHRASED = 2  # content words of an item, at least, for half of them to be named
"""(a one-word item may be the contexts' thing in other words: "fines" for "overdue books
are charged 20p a day", "departures" for "ferries leave every two hours")"""


def listed_named(sentence: str, pool: TermPool) -> bool:
    """`items_named` for what follows a sentence's coverage verb ("The info I was given
    covers| class bookings and the pool"); true where it has none."""
    return items_named(sentence[end:], pool) if (end := scope_end(sentence)) else True


def most_named(sentence: str, pool: TermPool) -> bool:
    """Whether at least half the content words a scope statement lists (after its coverage
    verb, up to its contrast) are named by the contexts, counted over the whole list: a
    stricter `listed_named` for a source noun the world has too ("Our guides only cover
    prices and delivery, not X" against passages naming neither)."""
    return half_named(sentence[scope_end(sentence):], pool)


def half_named(listed: str, pool: TermPool) -> bool:
    """Whether at least half the content words of a list of what the sources hold (up to
    its contrast; aspect nouns such as "prices" left out) are named by the contexts."""
    text = listed[:m.start()] if (m := _LIST_END.search(listed)) else listed
    words = [t for t in content_tokens(text)
             if t not in FILLER and t not in _FRAME and t not in _FACETS]
    return 2 * sum(_named(t, pool) for t in words) >= len(words)


# nouns naming an aspect of a thing, not a thing ("prices", "opening times", "length"): a
# scope statement names what the sources cover by them where the contexts give the value
_FACETS = frozenset({"price", "prices", "pricing", "cost", "costs", "fee", "fees", "charges",
                     "rate", "rates", "time", "times", "timings", "hours", "dates", "length",
                     "duration", "size", "sizes", "schedule", "options", "opening"})
