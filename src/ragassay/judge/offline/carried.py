"""A claim whose subject is a pronoun standing for the one thing its answer's sentence
before named ("I'd go for the Harbour Suite. It has a sea view", "Course A suits
beginners. It includes a field trip"), read with that name in the pronoun's place: the
sentence alone says nothing of whom, so alignment finds no swap in it, while the
contexts may say its predicate of another of their things ("The Garden Suite has a sea
view"). Claim-level alignment (issue #38's entity swaps, session 26).

The sentence before must name exactly one thing (one run of capitalised words past its
first, or opening it with more than one word: "Course A", "the Harbour Suite"), no day
or month, and the claim open with "it" or "they" followed by a verb of its own, not the
dummy "it" of "It's worth booking", "It takes ...": the pronoun then stands for that
thing, as a careful reader takes it. Only an entity swap found so is read (alignment's
other conflicts of a rewritten sentence are left to the sentence as written).
"""

from __future__ import annotations

import re

from .lexical import stem
from .weeks import CALENDAR

# a pronoun subject and the verb after it ("It has", "They include"), not "it's" / "it is"
# (a dummy subject: "It's worth ...", "It is easy to ..."), nor a modal's question
_OPENING = re.compile(r"^(It|They)\s+(?!is\b|was\b|'s\b|takes\b|seems\b|looks\b|depends\b)"
                      r"([a-z]+s?)\b")
# a run of capitalised words (or a capital with a letter or figure after it: "Course A",
# "Room 101"), optionally after "the"
_NAME = re.compile(r"\b(?:[A-Z][\w&+'-]*)(?:\s+(?:[A-Z][\w&+'-]*|\d+[A-Za-z]*))*")
_NOT_NAMES = frozenset({"I", "I'd", "I'm", "I'll", "I've", "The", "A", "An", "Our", "Your",
                        "We", "You", "It", "They", "This", "That", "Yes", "No"})


def _one_name(prev: str) -> str | None:
    """The one thing the sentence names, or None (none, or several)."""
    found: set[str] = set()
    for m in _NAME.finditer(prev):
        words = m.group(0).split()
        while words and words[0] in _NOT_NAMES:
            words = words[1:]  # ("The Harbour Suite": "Harbour Suite")
        if not words:
            continue
        at_start = m.start() == 0 and m.group(0).split()[0] == words[0]
        if at_start and len(words) < 2:
            continue  # a sentence's first word alone is no name ("Great choice")
        if any(stem(w.lower()) in CALENDAR for w in words):
            return None  # ("on Sundays": a time, and another thing may be meant)
        found.add(" ".join(words))
    return found.pop() if len(found) == 1 else None


def carried(prev: str, text: str) -> str | None:
    """The claim with its pronoun subject replaced by what the sentence before names
    (module docstring), or None when it has no such subject or the referent is unclear."""
    m = _OPENING.match(text.strip())
    if m is None or (name := _one_name(prev.strip())) is None:
        return None
    return f"The {name} {text.strip()[m.end(1):].lstrip()}"
