"""A claim's universal quantifier that the unit states itself, of the same word: "There
are always three soups made without meat" against "We always have three meat-free soups
on the menu, made with ...". The claim widens nothing there: what it says of all of them
the unit says of all of them, whichever content word each sentence's quantifier is read
as bearing on ("soups" in the claim, "meat" of "meat-free soups" in the unit)."""

from __future__ import annotations

import re

from .clauses import UNIVERSAL, Part
from .lexical import stem
from .ranged import ranges_as_said
from .scope import pronoun_widened as _pronoun_widened
from .scope import widened_kind
from .sentences import token_view

_STOPS = re.compile(r"[,;:()]|\s[-–—]\s")  # where a quantifier's phrase ends, at the latest


def shared_quantifier(p: Part, u: Part) -> bool:
    """Whether every universal word of the claim is in the unit, and each word the claim
    quantifies follows that same universal word in the unit, before the next comma, so
    the unit's quantifier bears on it too (scope.widened_kind's "kind of it" is then no
    kind the claim widens: "Sea-view rooms all have a balcony; other rooms ..." states
    "all" of no "rooms" but its own)."""
    said = {t for t in p.info.tokens if t in UNIVERSAL}
    heads = {h for h in p.quantified if h is not None}
    if not said or not heads:
        return False
    for q in said:
        spans = [token_view(seg).tokens for seg in _STOPS.split(u.info.text)]
        after = [{stem(t) for t in seg[seg.index(q) + 1:]} for seg in spans if q in seg]
        if not any(heads <= a for a in after):
            return False
    return True


def widened(p: Part, u: Part) -> bool:
    """Whether the claim widens the unit's kind (scope.widened_kind) with a universal word
    the unit does not state of the same words itself."""
    return widened_kind(p, u) and not shared_quantifier(p, u) and not ranges_as_said(p, u)


def pronoun_widened(p: Part, u: Part, only_in_unit: frozenset[str]) -> bool:
    """scope.pronoun_widened, less a universal restricted as the unit's subject is
    ("everyone still inside" / "guests still inside": ranged.py)."""
    return _pronoun_widened(p, u, only_in_unit) and not ranges_as_said(p, u)
