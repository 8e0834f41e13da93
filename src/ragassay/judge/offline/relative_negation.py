"""A negation inside a restrictive relative clause describes its noun, it does not deny
the sentence's predicate.

"Cats that never go outdoors still need a yearly check-up" is negated, yet it asserts
that the check-up is needed: the "never" stands in the relative clause "that never go
outdoors", which picks out which cats. A claim that says what the main clause says
("An indoor cat should have a check-up once a year") shares no word with what the
negation bears on there ("go"), so the negation says nothing against it. Where the claim
takes up the negated words ("Cats that go outdoors need ..."; "Items that are not faulty"
against "Faulty items ..."), or any negation of the clause stands outside a relative
clause ("Members who have not paid cannot book"), the negation bears as before.

Read by negated_clause.negation_bears (the support model's negation mismatch).
"""

from __future__ import annotations

from .clauses import Part, is_negation
from .pieces import AUXILIARIES

_RELATIVE = frozenset({"that", "who", "which", "whose", "whom"})
_BETWEEN = 2  # auxiliaries a relative pronoun may stand before its negation by ("that do not")


def _in_relative(toks: tuple[str, ...], i: int) -> bool:
    """Whether the negation at `i` opens a relative clause's predicate: a relative
    pronoun right before it (auxiliaries between), itself after a word (a noun it
    restricts), not at the clause's start."""
    j = i - 1
    while j >= 0 and i - j <= _BETWEEN and toks[j] in AUXILIARIES:
        j -= 1
    return j >= 1 and toks[j] in _RELATIVE


def relative_aside(said: frozenset[str], p: Part) -> bool:
    """Whether every negation of the clause stands in a relative clause and none bears
    on a word the claim says (`said`: its content stems)."""
    toks = p.info.tokens
    at = [i for i, t in enumerate(toks) if is_negation(t)]
    if not at or not all(_in_relative(toks, i) for i in at):
        return False
    return not any(reach & said for reach in p.reaches) and not (set(p.negations) & said)
