"""A declining sentence's clause that restates the contexts: "We do offer same-day
delivery in the city centre, but I can't see anything about Sundays", "Classes are
capped at 12, but I can't find anything on private lessons".

A decline often gives what the passages do say before saying what they lack. That
clause is a claim, and a careful reader checks it; when every item of it is said by one
context sentence with no conflict alignment finds and no negation (summary.restates),
it is the passages' own fact, and the sentence is judged as the decline it is: the topic
it lacks ("Sundays") is no term the answer asserts. A clause with a figure, a place or a
polarity the contexts do not have stays a claim ("capped at 20", "in central Leeds",
"late checkout is not available").
"""

from __future__ import annotations

import re

from .declines import DECLINE
from .sentences import ContextIndex
from .summary import restates

# a clause's joining word, before it is read on its own ("but", "and", "though")
_JOIN = re.compile(r"^\W*(?:(?:but|and|though|although|however|yet|so|while)\b\W*)+",
                   re.IGNORECASE)


def without_restated(parts: tuple[str, ...], ctx: ContextIndex | None) -> tuple[str, ...]:
    """The claiming clauses of a declining sentence (`parts`, one of them declining)
    less those that restate the contexts (`ctx`; None: none is read)."""
    if ctx is None or len(ctx) == 0 or not any(DECLINE.search(c) for c in parts):
        return parts
    return tuple(c for c in parts if DECLINE.search(c) or not _restated(c, ctx))


def _restated(clause: str, ctx: ContextIndex) -> bool:
    """Whether a clause that does not decline says only what the contexts say."""
    text = _JOIN.sub("", clause).strip(" ,;:-")
    return bool(text) and any(ch.isalpha() for ch in text) and restates(text, ctx)
