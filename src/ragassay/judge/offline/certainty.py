"""A possibility said as a certainty (frequency.always_hedged reads it with "always" for
"usually"): the unit says something may happen ("Refunds may take up to 10 days", "You
might be asked for ID", "There can be a queue at weekends") and the claim that restates
it says it will, or always does ("Your refund will take 10 days", "There is always a
queue"). The words are the closed class of English modals of possibility; a claim that
keeps a modal or hedge of its own ("might", "can", "usually") says no more than the unit,
and "will be able to" is an ability, no certainty.
"""

from __future__ import annotations

from collections.abc import Sequence

_MAYBE = frozenset({"may", "might", "could"})  # possibility, not permission: "can" apart
_CAN = frozenset({"can"})  # possibility or ability: against "always" only
_CERTAIN = frozenset({"will", "won't"})
_ALWAYS = frozenset({"always", "invariably"})
_OWN = _MAYBE | _CAN | frozenset({"should", "usually", "normally", "generally", "often",
                                  "sometimes", "typically", "possibly", "perhaps",
                                  "likely", "probably", "unlikely", "able"})


def hardened(claim: Sequence[str], unit: Sequence[str]) -> bool:
    """Whether the claim's tokens say "will" (against the unit's "may", "might",
    "could") or "always" (against those or "can") with no modal or hedge of their own,
    and the unit's tokens say neither."""
    mine, theirs = set(claim), set(unit)
    if mine & _OWN or theirs & (_CERTAIN | _ALWAYS):
        return False
    if mine & _CERTAIN and theirs & _MAYBE:
        return True
    return bool(mine & _ALWAYS and theirs & (_MAYBE | _CAN))
