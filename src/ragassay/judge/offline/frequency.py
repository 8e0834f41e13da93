"""A frequency widened (alignment._conflicts): a claim that says something happens
"always" against the unit that restates it saying it happens "usually", "normally",
"in most cases" ("Permits can always be renewed" for "Permits can usually be
renewed"): the unit says it of most cases, the claim of every one. The words are the
closed class of English frequency hedges, not any text's wording; a claim that keeps a
hedge of its own ("normally" for "usually") says no more than the unit. A possibility
said as a certainty ("will" for "may") is read the same way (certainty.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from .certainty import hardened
from .clauses import Part
from .units import Unit

_ALWAYS = frozenset({"always", "invariably"})
_HEDGES = frozenset({"usually", "normally", "generally", "typically", "often", "mostly",
                     "frequently", "sometimes", "occasionally", "ordinarily"})
# ("in most cases", "as a rule", "most of the time"): hedges of several words
_HEDGE_PHRASES = (("in", "most", "cases"), ("as", "a", "rule"), ("most", "of", "the", "time"),
                  ("in", "general"), ("in", "most", "instances"))


def _hedged(toks: Sequence[str]) -> bool:
    """Whether the tokens carry a frequency hedge, one word or a phrase."""
    if _HEDGES & set(toks):
        return True
    return any(tuple(toks[i:i + len(h)]) == h for h in _HEDGE_PHRASES
               for i in range(len(toks) - len(h) + 1))


def always_hedged(p: Part, u: Unit) -> bool:
    """Whether the claim says "always" with no hedge of its own and the unit, sharing at
    least half the claim's content words, hedges how often it holds in its sentence (a
    hedge before a clause's start counts: "Loans can usually be extended | , ...")."""
    toks = p.info.tokens
    if 2 * len(p.words & u.words) < len(p.words):
        return False
    return (bool(_ALWAYS & set(toks)) and not _hedged(toks)
            and _hedged(u.sentence.info.tokens)) or hardened(toks, u.sentence.info.tokens)
