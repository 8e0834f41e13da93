"""Small talk beside a decline: an interjection or a remark on the question ("Ha, good
question!", "Ooh, tricky one.", "Oh, fair question!", "I like that question", "I wish I
knew", "I'd love to say yes!"). Said beside "I don't have details on X" it claims
nothing of the world; claims._beside_decline sets it aside as filler, only beside a
sentence that declines and only when it names nothing the contexts lack.

A remark that goes on to say something stays a claim: "Ha, yes - it's free on Sundays!"
(an answer, a clause of its own), "Good question - we do, and they cost 150 pounds!".
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A
from .decline_words import INTERJECTION

_INTERJECTION = rf"(?:{INTERJECTION}|heh|hm+|um+|wow|gosh|well|oof|eek)"
_KIND = (r"(?:good|great|fair|tricky|interesting|excellent|lovely|brilliant|nice|tough|"
         r"hard|fun|curious|cracking|fab|fantastic|super|smart|clever)")
_REMARK = (
    rf"(?:(?:that{_A}?s|that is|what|such)\s+)?(?:an?\s+)?(?:really\s+|very\s+|such\s+a\s+)?"
    rf"{_KIND}\s+(?:question|one|query|ask)"
    r"|i (?:really )?(?:like|love) (?:that|this|your) (?:question|one)"
    rf"|i wish i (?:knew|did|could (?:help|say|tell you|answer)(?: with (?:that|this)"
    r"(?: one)?)?)"
    rf"|i{_A}?d (?:love|like) to (?:say yes|help|know|tell you)"
    rf"|thanks for asking|now there{_A}?s a question"
)
_SMALL_TALK = re.compile(
    rf"^\W*(?:{_INTERJECTION}\W+)*(?:(?:{_REMARK})(?:\s+(?:though|too|there|here))?\W*"
    rf"|{_INTERJECTION}\W*)$",
    re.IGNORECASE)


def small_talk(sentence: str) -> bool:
    """An interjection or a remark on the question, nothing more (the module's doc)."""
    return bool(_SMALL_TALK.match(sentence.strip()))
