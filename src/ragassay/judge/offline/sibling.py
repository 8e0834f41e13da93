"""A claim about one of two sibling things read against the other's unit (claim-level
alignment, session 24, issue #38): "The Bronze service is £55" is contained in "Silver
service (£90)" but for "Bronze" in "Silver"'s place, a swap with a number conflict, while
"Our Bronze service costs £55 ..." says what the claim says of its own thing.

A conflict read against a unit through a swapped word (the claim's word w for the unit's
v) is no contradiction when another unit of the contexts (the sibling's) names w and
not v, states at least as much of the claim as the swapped unit does, with no word
replaced, gives every figure of the claim (at least one: what the claim says of its
thing) and agrees with the claim (no conflict of its own). A true swap ("The Silver
service is £55") keeps its conflict: the unit naming its word gives another figure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from .clauses import Part
from .units import Unit


class _Fit(Protocol):
    """What this reads of alignment's `Fit`."""

    @property
    def covered(self) -> float: ...

    @property
    def swaps(self) -> tuple[tuple[str, str], ...]: ...


F = TypeVar("F", bound=_Fit)


def own_sibling(p: Part, judged: list[tuple[Unit, F, list[str]]], near: list[Unit],
                fit: Callable[[Unit], F | None],
                conflicts: Callable[[Unit, F], list[str]]) -> list[tuple[Unit, F, list[str]]]:
    """`judged` with the conflicts read against a sibling's unit cleared, when a unit
    naming the claim's own thing agrees with it (module docstring)."""
    swapped = [(u, f) for u, f, kinds in judged if kinds and f.swaps]
    if not swapped or not p.figures or any(k and not f.swaps for _, f, k in judged):
        return judged
    figures = set(p.figures)
    for own in near:
        if any(own.part is u.part for u, _ in swapped) or not figures <= set(
                own.part.figures):
            continue
        f2 = fit(own)
        if f2 is None or f2.swaps or conflicts(own, f2):
            continue
        if all(f2.covered >= f.covered and all(w in own.words and v not in own.words
                                               for w, v in f.swaps) for _, f in swapped):
            return [(u, f, [] if f.swaps else k) for u, f, k in judged]
    return judged
