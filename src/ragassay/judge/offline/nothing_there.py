"""Declines that say the texts hold nothing on the topic, naming where the speaker
looked: "Sorry, nothing on that in what I have", "There isn't anything about rabbits in
the practice details", "Not covered in what I've got, sorry".

Each names the place searched (the texts the assistant read, "what I have", "here"), so
it says what those texts hold, nothing of the world. Without that place the same words
may be a claim ("Nothing on Sundays" of a diary, "There isn't anything on at the
weekend" of a venue, "Not covered." of an insurance policy). `declines.DECLINE` joins
these patterns.
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import NOT as _NOT
from .decline_words import TEXTS as _TEXTS
from .decline_words import WHAT_I_HAVE as _WHAT_I_HAVE

# the texts the assistant read, with a determiner and a modifier or two
_READ = (rf"(?:the|these|this|those|my|our|your|any)\s+(?:[\w-]+\s+){{0,2}}?"
         rf"(?:{_TEXTS}|pages?|guidance|details|description|website)")
# where the speaker looked: "in what I have", "in the practice details" (a bare "here" is
# also a venue's word for itself: "nothing on at the weekend here" stays a claim)
_PLACE = rf"(?:in {_WHAT_I_HAVE}|in {_READ})\b"
_REGRET = r"(?:(?:sorry|unfortunately|afraid|hmm+|oh|ah)\W+)*"

# a looked-for thing, then the place looked in: "(I can't see) Christmas trees anywhere in
# the product info" (a few words, no clause: "why", "how", "that" open none)
_OBJECT_PLACED = (r"(?!(?:this|that|it|why|how|whether|if|anything|any)\b)[\w'-]+(?:\s+[\w'-]+)"
                  rf"{{0,4}}?\s+(?:anywhere\s+)?{_PLACE}")

NOTHING_THERE = (
    # "Sorry, nothing on that in what I have", "Nothing about parking in the notes"
    rf"^\W*{_REGRET}nothing(?: at all)?(?=\s+(?:on|about|regarding|for)\s[^.;!?]{{1,60}}?\s"
    rf"{_PLACE})",
    # "There isn't anything about rabbits in the practice details", "there's not any
    # mention of it here" (about / regarding name a topic; "on" needs the place)
    # (the topic is read after the match: declines.declined_topics)
    rf"\bthere(?:{_A}s not| (?:is|are|was|were){_NOT}) (?:anything|any (?:mention|information|"
    r"info|details?|reference))(?=(?<=mention)\s+of\b|\s+(?:(?:about|regarding|concerning)\b|"
    rf"(?:on|for)\s[^.;!?]{{1,60}}?\s{_PLACE}))",
    # "Not covered in what I've got, sorry.": the fragment, the place named
    rf"^\W*{_REGRET}(?:that{_A}?s\s+|it{_A}?s\s+)?not (?:covered|mentioned|listed|included|"
    rf"stated|given) (?:anywhere )?in (?:{_WHAT_I_HAVE}|{_READ})\b",
    # "I'm not seeing snowboarding in the ski school info" (the topic read after it)
    rf"\bi(?:{_A}m| am) not seeing(?=\s+{_OBJECT_PLACED})",
)
"""Patterns (joined with the other decline phrasings, case-insensitive)."""

LOOKED_FOR = re.compile(rf"\s+(?={_OBJECT_PLACED})[^,;:.!?]*", re.IGNORECASE)
"""After a verb of looking ("can't see", "not seeing", "couldn't find"), the thing looked
for and the place looked in: the decline's topic (declines.declined_topics)."""
LOOKING = re.compile(r"\b(?:see|seeing|find|spot|locate)$", re.IGNORECASE)
"""A decline phrase ending in a verb of looking."""
