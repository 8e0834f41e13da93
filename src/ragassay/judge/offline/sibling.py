"""A claim about one of two sibling things read against the other's unit (claim-level
alignment, session 24, issue #38): "The Bronze service is £55" is contained in "Silver
service (£90)" but for "Bronze" in "Silver"'s place, a swap with a number conflict, while
"Our Bronze service costs £55 ..." says what the claim says of its own thing.

So does a clause with the claim's subject as its own (or its sentence's, the clause
having none), all of whose words the claim states, meeting the claim's polarity by an
antonym (`own_clause`): it speaks for its sentence, whose other clauses are of another
subject ("Orthodontic work isn't covered by the basic plan", or "... is covered ...",
against "Cleanings are covered under the basic plan; orthodontic work is excluded": the
sentence read whole is set aside).
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
    def covering(self) -> float: ...

    @property
    def antonyms(self) -> int: ...

    @property
    def swaps(self) -> tuple[tuple[str, str], ...]: ...


F = TypeVar("F", bound=_Fit)


def own_sibling(p: Part, judged: list[tuple[Unit, F, list[str]]], near: list[Unit],
                fit: Callable[[Unit], F | None],
                conflicts: Callable[[Unit, F], list[str]]) -> list[tuple[Unit, F, list[str]]]:
    """`judged` with the conflicts read against a sibling's unit cleared, when a unit
    naming the claim's own thing agrees with it (module docstring), and less a whole
    sentence one of whose clauses speaks for it (`own_clause`)."""
    judged = own_clause(p, judged)
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


_TURNED = frozenset({"negation", "antonym"})


def own_clause(p: Part, judged: list[tuple[Unit, F, list[str]]]
               ) -> list[tuple[Unit, F, list[str]]]:
    """Judged units less a whole sentence one of whose clauses, with the claim's subject
    as its own and all of whose words the claim states, meets the claim's polarity by an
    antonym (module docstring)."""
    own = {u.row for u, f, kinds in judged if u.clause and f.covering == 1.0 and f.antonyms
           and set(kinds) <= _TURNED and p.first is not None
           and p.first in {u.part.first, u.sentence.first, *u.inherited}}
    return [(u, f, kinds) for u, f, kinds in judged if u.clause or u.row not in own]
