"""A clause beside a decline that contradicts the contexts: "The documents don't mention
walk-ins, but we are closed on Saturdays" against "9am on Saturdays", "There's nothing on
pensioner discounts, only the 30% student discount" against a 20% one.

A decline's other clauses are read as a claim when they say enough (hedged.HEDGE_WORDS);
a short one ("but we're closed on Saturdays") may say a few words only and still state a
fact. A careful reader checks it against the passages like any claim: where claim
alignment finds it contradicts one (a figure, a polarity, an entity), the sentence
claims, whatever its length.
"""

from __future__ import annotations

import re

from .alignment import align
from .declines import DECLINE
from .sentences import ContextIndex, sentence_info

# a clause's joining word, before it is read as a sentence of its own
_JOIN = re.compile(r"^\W*(?:(?:but|and|though|although|however|yet|so|only)\b\W*)+",
                   re.IGNORECASE)


def contradicts_contexts(clauses: tuple[str, ...], ctx: ContextIndex | None) -> bool:
    """Whether any clause that does not itself decline (DECLINE) contradicts the contexts
    (`ctx`; None: none is read), claim alignment's conflict."""
    if ctx is None or len(ctx) == 0:
        return False
    for c in clauses:
        if DECLINE.search(c):
            continue
        text = _JOIN.sub("", c).strip()
        if len(text.split()) < 2:
            continue
        if align(sentence_info(text[:1].upper() + text[1:]), ctx).conflict is not None:
            return True
    return False
