"""A universal narrowed by "only" (alignment.judge_part, when no unit restates the claim):
the unit says something of all of a kind ("All staff can request flexible working",
"The shuttle runs every day") and the claim says it "only" of a part of it or of one
case ("Only managers can request flexible working", "The shuttle runs only on
weekdays"). The claim's words beyond the unit's must all be its "only" phrase's, so
that the one thing it changes is whom or when it is said of; a claim naming what the
unit names ("only staff") narrows nothing, and a unit with "only" or a negation of its
own is left to the other readings.
"""

from __future__ import annotations

from .clauses import ONLY, Part, is_negation
from .lexical import STOPWORDS

_FOCUS_REACH = 3  # tokens after "only" that hold what it is said of ("only on weekdays")
_SHARED = 2  # content words the claim must share with the unit besides its "only" phrase


def _focus(p: Part) -> frozenset[str]:
    toks, stems = p.info.tokens, p.info.all_stems
    return frozenset(stems[k] for i, t in enumerate(toks) if t in ONLY
                     for k in range(i + 1, min(len(toks), i + 1 + _FOCUS_REACH))
                     if toks[k] not in STOPWORDS)


def only_narrowed(p: Part, u: Part) -> bool:
    """Whether the claim says "only" of something new where the unit says "all"."""
    if p.universal or not u.universal or not ONLY & set(p.info.tokens):
        return False
    if ONLY & set(u.info.tokens) or any(is_negation(t) for t in (
            *p.info.tokens, *u.info.tokens)):
        return False
    extra = p.words - u.words
    return bool(extra) and extra <= _focus(p) and len(p.words & u.words) >= _SHARED
