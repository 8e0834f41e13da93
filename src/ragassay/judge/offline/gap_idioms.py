"""Declines said in idiom or by naming what the assistant cannot do: "That's a gap in my
info", "I'm drawing a blank on that", "You've got me there", "I can't diagnose that from
here", "I'm unable to track individual orders", "Not one I can answer".

Each is said by the speaker of itself ("I", "my", "me"): what it knows or can do, nothing
of the world. "We can't diagnose remotely" or "There's a gap in the fence" stay claims
(the business's practice, a thing). `declines.DECLINE` joins these patterns; the
clauses beside them are still read (hedged.hedged_claim), so "I can't diagnose that, but
it sounds like an ear infection" stays a claim.
"""

from __future__ import annotations

from .decline_words import APOSTROPHE as _A
from .decline_words import CANNOT as _CANNOT
from .decline_words import NOT as _NOT
from .decline_words import TEXTS as _TEXTS

GAP_IDIOMS = (
    # "That's a gap in my info", "a bit of a gap in what I know"
    rf"\bgap in (?:my|our|the) (?:(?:[\w-]+\s+)?{_TEXTS}|knowledge)\b"
    r"|\bgap in what i (?:know|have)\b",
    # "I'm drawing a blank on that", "I draw a blank"
    rf"\bi(?:{_A}m| am)? (?:drawing|draw|drew) a (?:complete |total )?blank\b",
    # "You've got me there", "you've stumped me"
    rf"\byou(?:{_A}ve| have)? (?:got|stumped) me(?: there| on that(?: one)?)?\b",
    # "I can't diagnose that from here", "I'm unable to track individual orders": what the
    # speaker itself cannot do ("we can't diagnose remotely" is the business's practice)
    rf"\bi(?:{_A}m| am)? (?:really |just |unfortunately |sadly )?(?:{_CANNOT}|could{_NOT}|"
    r"unable to|not able to)\s+(?:\w+\s+){0,1}?(?:diagnose|assess|track|view|pull up|"
    r"examine|inspect|look into|see into|log into)\b",
    # "Sadly I don't have anything on dogs": the speaker's own lack of anything on a topic
    # ("we don't have anything on at the weekend" is the business's diary)
    rf"\bi (?:do not|don{_A}?t|dont) have (?:anything (?=(?:on|about|regarding|concerning)\b)|"
    r"much (?=(?:about|regarding|concerning)\b))",
    # "Not one I can answer, sorry", "that's not one I can help with"
    rf"(?:\bnot|n{_A}t) one (?:that )?i (?:{_CANNOT}|can|could|am able to) "
    r"(?:answer|help with|say|comment on)\b",
)
"""Patterns (joined with the other decline phrasings, case-insensitive)."""

TRIGGER = r"\bgap in\b|\bblank\b|\b(?:got|stumped) me\b"
"""Words of the idioms with no negation in them, for declines' fast scan."""
