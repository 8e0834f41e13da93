"""A maximum said as a fixed amount (subject_scope.restriction_dropped): the unit bounds a
figure from above only ("up to 3 guests", "a maximum of 20GB", "reduced by up to 70%")
and the claim, in the unit's words only, says the figure with no bound of its own
("Members can bring 3 guests", "reduced by 70%"): what may reach N said to be N.

Silent when the claim bounds the figure in any way (`placed._bounds`: "up to", "at most",
"a maximum of", "no more than" as normalised), or writes a bound normalising leaves
("as much as", "as long as", "within", "under", "less than"), or says anything the unit
does not.
"""

from __future__ import annotations

from .clauses import Part
from .pieces import MODALS
from .placed import figure_bounds

# words with which a claim keeps a bound in its own way ("as much as 70%", "within 10
# days", "under 2 hours", "less than"): any of them, and the claim is left alone
_OWN_BOUND = frozenset({"up", "upto", "maximum", "max", "most", "within", "under", "as",
                        "less", "fewer", "below", "limit", "limited", "cap", "capped",
                        "between", "range", "ranges", "around", "about", "approximately",
                        "roughly", "usually", "typically", "average", "over", "above", "more",
                        "beyond", "exceed", "exceeds", "least", "minimum"}) | MODALS
# (a modal keeps the maximum: "members can borrow 12 books" says what they may, not a
# fixed amount)
_COMMON = 3  # content words the claim shares with the unit, at least


def maximum_fixed(p: Part, u: Part) -> bool:
    """Whether the unit bounds one of the claim's figures from above only, and the claim
    states it, in the unit's words only (three at least), with no bound of its own."""
    if not p.figures or _OWN_BOUND & set(p.info.tokens) or len(p.words) < _COMMON:
        return False
    if not p.words <= u.words:
        return False
    mine, theirs = figure_bounds(p), figure_bounds(u)
    return any(not mine.get(n) and theirs.get(n) == {"max"}
               for n, _ in p.figures if n > 0)
