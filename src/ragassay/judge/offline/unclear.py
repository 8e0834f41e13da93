"""Declines that say the sources leave the topic unclear, or that the topic is not stated,
in a word or two: "Unclear from the exam guidance, I'm afraid", "It's not clear from the
documents whether ...", "The leaflet is vague about X", and the bare fragments "Not
stated.", "Not specified in the notes, sorry."

Each says what the texts the assistant read do (or do not) say, nothing of the world:
the subject (or the phrase after "from") is the texts, and the fragment's participle a
verb of a text ("stated", "mentioned", "specified"), never one the world uses of a product
("Not included." may be a claim that something is not part of an offer).
`declines.DECLINE` joins these patterns.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import CANNOT as _CANNOT
from .decline_words import TEXTS as _TEXTS

# the texts the assistant read, with a determiner and a modifier or two
_READ = (rf"(?:the|these|this|those|my|our|your|any)\s+(?:[\w-]+\s+){{0,2}}?"
         rf"(?:{_TEXTS[3:-1]}|pages?|guidance|guidelines|wording|details|description|website)")
# a text's participle (not "included", "provided", "available": a product's too)
_SAID = r"(?:stated|specified|mentioned|said|given|documented|indicated|spelled out|set out)"

# the texts as subject, said to be unclear
_VAGUE = (rf"\b{_READ}\s+(?:is|are|was|were|seems?|seem to be|seems to be)\s+(?:a bit |"
          r"rather |quite |pretty )?(?:unclear|vague|ambiguous)")

UNCLEAR = (
    # "Unclear from the exam guidance", "It's not clear from the documents whether ..."
    rf"\b(?:unclear|not clear|not obvious) from {_READ}\b",
    # "The leaflet is unclear on X", "the documents are vague about it"
    _VAGUE + r"(?=\s+(?:on|about|as to|regarding|whether|when|how|what|if)\b)",
    # the fragment: "Not stated.", "Unclear, sorry.", "Not specified in the notes."
    rf"^\W*(?:(?:sorry|unfortunately|afraid|hmm+)\W+)?(?:that{_A}?s |it{_A}?s )?(?:not {_SAID}"
    rf"|unclear)(?=(?:\s+(?:here|anywhere|there|in {_READ}))?\s*(?:[,.!;\u2014\u2013-]|"
    rf"$|sorry|i{_A}m afraid|unfortunately))",
    # "No word on chickens in the documents", "no word about X"
    r"^\W*(?:(?:sorry|unfortunately|hmm+)\W+)?no word (?:yet )?(?:on|about|regarding)\b",
    # the speaker's inability with its subject dropped, opening the sentence: "Can't find
    # that, sorry.", "Sorry, can't help with that one", "Don't know, I'm afraid"
    rf"^\W*(?:(?:sorry|unfortunately|afraid|hmm+|oh|ah)\W+)*(?:(?:{_CANNOT}|could(?:n{_A}?t| "
    r"not))\s+(?:really\s+)?(?:help|find|say|answer|tell|confirm|see (?:anything|any|"
    rf"that|it))|(?:do not|don{_A}?t|dont) know)\b(?![^.!?]*\?)",
)
"""Patterns (joined with the other decline phrasings, case-insensitive)."""
UNCLEAR_SOURCE = re.compile(f"(?:{UNCLEAR[0]})|(?:{_VAGUE})", re.IGNORECASE)
"""The two shapes that name the texts ("unclear from the FAQ", "the FAQ is vague"): what
names the source the assistant read is no claim (silent.unnamed drops it)."""

TRIGGER_WORDS = r"\bunclear\b|\bvague\b|\bambiguous\b"
"""What the fast scan must let through for the shapes here without a negation."""
