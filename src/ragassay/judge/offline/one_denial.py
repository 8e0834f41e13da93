"""One denial said with two verbs: a claim that denies, with a verb of its own, what the
unit denies of its word ("Plastic bags aren't accepted in your kerbside recycling" /
"Plastic bags cannot be recycled at the kerbside"). The unit's negation bears on a word
the claim states, so `polarity` counts it; the claim's own negation bears on a verb the
unit lacks and is not counted, though it is the same denial: both sides say "not".

Read only where the claim has exactly one negation, uncounted, and the unit's denied
word stands after it in the claim's clause (inside what the claim denies).
"""

from __future__ import annotations

from collections.abc import Collection

from .clauses import Part, is_negation, lemma_stems


def denies_too(p: Part, denied: Collection[str]) -> bool:
    """Whether the claim's one negation stands before a word whose stem is one the unit
    denies (`denied`: the heads of the unit's counted negations)."""
    toks = p.info.tokens
    where = [i for i, t in enumerate(toks) if is_negation(t)]
    if len(where) != 1 or len(p.negations) != 1 or not denied:
        return False
    stems = lemma_stems(toks, p.info.all_stems)
    return any(s in denied for s in stems[where[0] + 1:])
