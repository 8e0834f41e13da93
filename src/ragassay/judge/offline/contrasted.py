"""A statement set against a decline: "I can't confirm that, but prams go free", "I
can't see it, although all seats have hearing loops", "The information doesn't list
the days, but we're closed on Mondays". The contrast turns from what the speaker lacks
to what it says is so: however few words the clause has beyond the question, it answers
the question itself, so `hedged.hedged_claim` reads it as a claim (the contexts then say
whether it holds).

Not a contrast clause that speaks of the speaker or to the user ("but I hope that
helps", "but you could ask at the desk", "though I'd check first"), nor one that points
back at the question or the decline ("but it's a good question", "but that may change"),
nor a clause too short to say anything ("but sorry"), nor one about "it" / "they",
which may be the sources the decline read ("..., but they don't give the rate").
"""

from __future__ import annotations

import re

from .decline_words import APOSTROPHE as _A

_CONTRAST = re.compile(r"^\W*(?:but|although|though|however|yet|whereas|even so)\b\W*(?P<rest>.*)",
                       re.IGNORECASE | re.DOTALL)
# who the clause is about when it is no statement of the world: the speaker, the user, the
# question or the decline pointed at, a hedge or courtesy opening it
_NOT_WORLD = re.compile(
    rf"^(?:i|i{_A}\w+|me|my|you|you{_A}\w+|your|please|feel|do|maybe|perhaps|hopefully|"
    rf"possibly|probably|it|it{_A}s|its|they|they{_A}\w+|these|those|that|that{_A}s|this|"
    rf"there{_A}s|there|thanks|thank|"
    rf"sorry|happy|glad|if|unless|when|once|as|so|let)\b",
    re.IGNORECASE)
_SHORTEST = 3  # words after the contrast: "prams go free"


def contrasted_statement(clause: str) -> bool:
    """Whether a clause of a declining sentence states something against the decline:
    a contrast opens it and a subject other than the speaker, the user or a pointer
    follows ("but prams go free in the hold", "although all seats have loops")."""
    m = _CONTRAST.match(clause)
    if m is None:
        return False
    rest = m.group("rest").strip()
    return len(rest.split()) >= _SHORTEST and not _NOT_WORLD.match(rest)
