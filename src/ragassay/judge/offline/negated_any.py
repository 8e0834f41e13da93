"""A negated "any" and a "no" deny the same thing of the same whole.

"You don't need any tools" says what "No tools are needed" says, and "If you haven't got
any receipt" what "If you don't have a receipt" says: the "any" under a negation ranges
over what the negation denies, and a unit that denies that thing itself ("no tools",
"need no permit", "don't have a receipt") says it of all of it as well, with no
universal word of its own. So the unit's own "only" or "except" ("No cash is accepted,
only cards") limits what it grants beside the denial, not the denial's scope: the
claim that keeps the denial widens nothing (alignment._conflicts reads such a unit as
universal for its restriction check). A claim that also quantifies something the unit
does not deny ("any day", "every branch"), or says "any" unnegated ("any tool will do"),
is read as before.
"""

from __future__ import annotations

from .clauses import UNIVERSAL, Part, is_negation


def same_denial(p: Part, u: Part) -> bool:
    """Whether every universal word of the claim is an "any" set after a negation of its
    own ("don't need any", "haven't got any", "don't take any"), and the unit denies each
    noun such an "any" quantifies ("No deposit is taken", "no waders are needed")."""
    toks = p.info.tokens
    if not p.quantified or "any" not in toks or any(
            t in UNIVERSAL and t != "any" for t in toks):
        return False  # ("daily", "all week": quantified with no universal word)
    first_any = toks.index("any")
    if not any(is_negation(t) for t in toks[:first_any]):
        return False
    denied = {h for h in u.negations if h is not None}
    return all(h is not None and h in denied for h in p.quantified)
