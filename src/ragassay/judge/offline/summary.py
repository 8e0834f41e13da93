"""What the contexts cover, restated in other words beside a decline.

A decline often goes on to say what the sources do cover, in the answer's own words:
the business's offer as a range ("Our hire range covers bouncy castles, soft play and
slides" for "We hire bouncy castles, soft play and slides"), or the sources as reported
("the documents only say X"). Such a restatement is read as a summary of the contexts
when it is aligned with them piece by piece: each item of it (split at commas, "and",
"or", "with", "including") has its content words and figures together in ONE context
sentence (a figure with the word it counts there), which restricts or negates nothing the
item drops ("not", "only", "except": "Italian lessons are for staff only" is no
"... covers Italian"); the summary negates nothing, and claim alignment finds no
conflict in it. Words each found somewhere but never said together ("vegan chicken
wings" from "vegan burgers" and "chicken wings"), a figure of another thing, or a word no
context has keep it a claim to score.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .alignment import align
from .clauses import Part, part
from .decline_words import APOSTROPHE as _A
from .lexical import NEGATIONS, STOPWORDS, crude_root, stem
from .normalise import norm_tokens
from .sentences import ContextIndex, sentence_info
from .units import Unit, Units

_LEAD = r"^\W*(?:(?:but|and|so|though|however|otherwise|apart from that)\W+)*"
# the business's offer as a whole, by a noun for it: "Our hire range covers",
# "The menu includes", "our services take in"
_OFFER = re.compile(
    rf"{_LEAD}(?:our|the|my)\s+(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?(?:range|ranges|selection|"
    r"stock|collection|catalogue|catalog|menu|services?|offer|offers|offering|offerings|"
    r"products?|line-?up|fleet|packages?|options|portfolio|repertoire)\s+(?:(?:also|only|"
    r"mainly|mostly)\s+)?(?:covers?|includes?|spans?|features?|consists? of|comprises?|"
    r"(?:is|are) made up of|takes? in|extends? to|runs? to)\b",
    re.IGNORECASE)
# the sources as reported, with a limit: "the documents only say", "the information I
# have just states that"
_REPORTED = re.compile(
    rf"{_LEAD}(?:the|these|those|my|our|all the)\s+(?:[\w-]+\s+){{0,2}}?(?:documents?|"
    r"docs|documentation|contexts?|texts?|passages?|sources?|excerpts?|snippets?|extracts?|"
    r"materials?|articles?|information|info|details|notes|leaflets?)"
    r"(?:\s+(?:i|we) (?:have|had|was given|were given|can see))?\s+(?:only|just)\s+"
    r"(?:says?|states?|tells? (?:me|us)|shows?|notes?|gives?)(?:\s+that)?\b",
    re.IGNORECASE)
# words of listing, not of what is listed ("occasions like Halloween", "such as")
_LISTING = frozenset({"including", "includes", "include", "example", "e.g", "etc",
                      "various", "like"})


# the sources listing what they have, said beside a decline: "The timetable lists|",
# "the price list I have covers|", "I can see|" (what follows is aligned item by item)
# (the texts a speaker reads an item in: "on the timetable" is where, `_WHERE`)
# (in the plural only nouns of texts: "our menus", "our guides", "our sites" are the
# business's own, review 22c)
_SEEN_IN = (r"timetable|schedule|list|menu|pages?|website|site|guide|leaflets?|brochures?|"
            r"faqs?|handbooks?|information|details|notes|documents?")
_LISTED = re.compile(
    rf"{_LEAD}(?:(?:the|these|this|our|my)\s+(?:[\w{_A[1:-1]}-]+\s+){{0,2}}?(?:{_SEEN_IN}|"
    r"info|docs|passages?|sources?)(?:\s+(?:i|we) (?:have|had|can see))?\s+(?:(?:only|just|"
    r"mainly)\s+)?(?:lists?|mentions?|covers?|includes?|shows?|names?|talks? about|"
    r"describes?)|i (?:can|could) (?:only |just )?see(?: (?:details|information|mentions?) "
    r"(?:of|about|on|for))?"
    # "I only have the winter hours", "The tours I have details of are", "The services
    # described here are" (what the speaker read, listed by a copula)
    r"|what (?:i|we) (?:have|had|can see|found|could find|was given)\s+(?:(?:only|just|"
    r"mainly)\s+)?(?:covers?|includes?|mentions?|lists?|shows?|is about|talks? about|"
    r"describes?)|(?:i|we) (?:only|just) have(?: got)?|"
    r"(?:the|these|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+"
    r"(?:(?:i|we) (?:have|hold|can see) (?:any\s+)?(?:details|information|info|notes)\s+"
    r"(?:of|on|about|for)|(?:described|listed|mentioned|covered|named)\s+(?:here|there|"
    rf"in (?:the|these|this|my)\s+(?:{_SEEN_IN}|info|docs|passages?|sources?)))\s+"
    r"(?:are|is|include|includes))\b",
    re.IGNORECASE)


# what the sources cover, listed before a passive ("the prices and opening times are
# covered", "..., but"): two items or more, the clause ending there
_PASSIVE = re.compile(rf"{_LEAD}(?P<items>[^,;]+?(?:,|\s+and\s+)[^;]+?)\s+(?:are|were)\s+"
                      r"(?:(?:all|both)\s+)?(?:covered|mentioned|listed|described|included)"
                      r"(?:\s+(?:here|there))?\W*$", re.IGNORECASE)


def passive_items(clause: str) -> str:
    """The items a clause lists as covered in the passive ("the prices and opening times
    are covered" -> "the prices and opening times"), "" when it lists none."""
    m = _PASSIVE.match(clause)
    return m.group("items") if m else ""


def frame_end(clause: str) -> int:
    """Where a coverage frame opening the clause ends ("Our hire range covers|", "the
    documents only say|"), 0 when it opens with none."""
    m = _OFFER.search(clause) or _REPORTED.search(clause)
    return m.end() if m else 0


def listed_end(clause: str) -> int:
    """Where a frame of the sources listing what they have ends ("The timetable lists|",
    "I can see|"), 0 when the clause opens with none: read after `frame_end` and after
    what the sources say they cover (source_scope), which it does not override."""
    m = _LISTED.search(clause)
    return m.end() if m else 0


# where a summary's items part ("bouquets, buttonholes and centrepieces", "12 books,
# with loans of 3 weeks")
_PIECES = re.compile(r"\s*[,;]\s*|\s+(?:and|or|plus|as well as|with|including|such as)\s+",
                     re.IGNORECASE)
# where the speaker saw an item, no part of it (review 21b: "I can see yoga and pilates on
# the timetable, but nothing about spin")
_WHERE = re.compile(r"\s+(?:on|in)\s+(?:the|this|that|these|your|our|my)\s+(?:[\w-]+\s+)?"
                    rf"(?:{_SEEN_IN})\W*$", re.IGNORECASE)
# words by which a context sentence restricts what it says (besides a negation)
_RESTRICTS = frozenset({"only", "except", "excluding", "unless", "solely", "exclusively"})


def _negation(t: str) -> bool:
    return t in NEGATIONS or re.split(_A, t)[0] in NEGATIONS or t.endswith(("n't", "n\u2019t"))


# nouns naming an aspect of a thing, not a thing: a summary names what the sources cover
# by them ("class prices", "the opening times") where the contexts give the value itself
# ("Classes cost £9", "We open 9-5")
_FACETS = frozenset({"price", "prices", "pricing", "cost", "costs", "fee", "fees",
                     "charges", "rate", "rates", "time", "times", "timings", "hours", "dates",
                     "opening", "details", "information", "info", "options"})


def _content(toks: tuple[str, ...]) -> frozenset[str]:
    """The stems of a text's content words (no listing word, aspect noun or figure; a
    word of filler elsewhere, "free", "good", says something here)."""
    return frozenset(
        stem(t) for t in toks
        if not (re.split(_A, t)[0] in STOPWORDS or t in _LISTING or t in _FACETS
                or not any(c.isalpha() for c in t) or any(c.isdigit() for c in t)))


def _says(u: Unit, item: Part, words: frozenset[str]) -> bool:
    """Whether a context sentence (`u`) says an item: its content words (`words`, as
    `crude_root`s), its figures with what they count, and no negation or restriction
    the item drops."""
    kept = frozenset(item.info.tokens)
    return (words <= _roots(u.sentence.info.stem_set)
            and all(_counted(f, u.part.figures) for f in item.figures)
            and not any((_negation(t) or t in _RESTRICTS) and t not in kept
                        for t in u.sentence.info.tokens))


def _counted(figure: tuple[float, str | None], figures: tuple[tuple[float, str | None], ...]
             ) -> bool:
    """Whether a context sentence's figures hold an item's: the same value counting the
    same thing, or, where the item names nothing it counts ("groups of up to 10"), the
    same value of whatever the context counts ("up to 10 people")."""
    return figure in figures or (figure[1] is None and any(v == figure[0] for v, _ in figures))


@lru_cache(maxsize=4096)
def _roots(stems: frozenset[str]) -> frozenset[str]:
    """A context sentence's stems as `crude_root`s ("meetings" / "meets"), once each."""
    return frozenset(crude_root(w) for w in stems)


def restates(text: str, ctx: ContextIndex | None) -> bool:
    """Whether a text (what follows a coverage frame, or an item going on with it) is a
    summary of the contexts (`ctx`): no negation, each item of it said by one context
    sentence (`_says`), and no conflict claim alignment finds in it. Without contexts,
    nothing is."""
    if ctx is None or any(_negation(t) for t in norm_tokens(text)):
        return False
    units = Units.of(ctx)
    for piece in _PIECES.split(text):
        item = part(_WHERE.sub("", piece))
        words = frozenset(crude_root(w) for w in _content(item.info.tokens))
        if (words or item.figures) and not any(
                _says(units.sentence(j), item, words) for j in range(len(ctx))):
            return False
    return align(sentence_info(text.strip()), ctx).conflict is None
