"""What the contexts state of a claim's words, by stem or by a close static vector
(claim-level alignment, alignment.py): a clause no context states (an invented detail),
and a claim word near one of the unit's that restates it ("starts" for "begins", not
"ends").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .clauses import Part
from .scope import CLOCK
from .units import SPANS
from .words import static_table, word_vectors

if TYPE_CHECKING:
    from .units import Unit, Units

UNSTATED_SHARE = 0.5  # a clause with fewer of its words in any context is unstated
MIN_UNSTATED = 2  # ... and at least this many of its words in no context
SOFT_WORD = 0.6  # a word whose static vector is this close to a context word is stated
RESTATED_COSINE = 0.6  # a clause this close to a context sentence or clause restates it


def close(p: Part, u: Unit) -> bool:
    """Whether each claim word the unit lacks has a unit word near it (static vectors at
    least SOFT_WORD: "starts" for "begins", not "ends")."""
    missing = [t for t, w in dict.fromkeys(p.pairs) if w not in u.words]
    if not missing:
        return True
    mine = word_vectors(missing)
    theirs = word_vectors([t for t, _ in u.part.pairs])
    return bool(len(theirs)) and bool(((mine @ theirs.T).max(axis=1) >= SOFT_WORD).all())


def unstated(p: Part, units: Units) -> bool:
    """Whether no context states the clause: under UNSTATED_SHARE of its content words
    stated (`stated_share`) and at least MIN_UNSTATED of them in no context ("You can cancel
    whenever you like": one word, "like", is an idiom's, no detail), and no figure of a
    context's fact (Units.anchored: that fact in other words)."""
    words = dict.fromkeys(p.pairs)
    if sum(1 for _, w in words if w not in units.stems) < MIN_UNSTATED or units.anchored(p):
        return False  # (a figure of a context's fact: that fact in other words)
    return stated_share(p, units) < UNSTATED_SHARE and not said_otherwise(p, units)


def said_otherwise(p: Part, units: Units) -> bool:
    """Whether one context sentence or clause says the clause in other words: their
    static sentence embeddings at least RESTATED_COSINE close, and every figure of the
    clause one of that unit's, counting the same thing ("and four of them play in each
    match" for "Four players compete in every fixture"; "and we'll send them back within
    5 working days" is no sentence's figure)."""
    candidates, vecs = units.ctx.derive("stated.units", lambda: _unit_vectors(units))
    if not candidates:
        return False
    sims = vecs @ static_table().embed([p.text])[0]
    return any(c >= RESTATED_COSINE and _figures_of(p, u.part)
               for u, c in zip(candidates, sims, strict=True))


def _unit_vectors(units: Units) -> tuple[list[Unit], np.ndarray]:
    """Every context sentence that asserts and each of its clauses, with their static
    sentence embeddings: built once per sample (`ContextIndex.derive`), read by each
    clause `said_otherwise` asks of."""
    found = [u for j in range(len(units.ctx)) if not units.ctx.infos[j].asks
             for u in (units.sentence(j), *units.clauses(j))]
    return found, static_table().embed([u.part.text for u in found]) if found else np.zeros(0)


def _figures_of(p: Part, u: Part) -> bool:
    """Whether each figure of the clause is one of the unit's, a span or a clock time
    only as the same span or a clock time ("a break of 3 minutes" is no "Three members";
    "5 solves" may be "5 attempts")."""
    return all(any(n == m and (_timed(k) == _timed(j)) and (not _timed(k) or k == j)
                   for m, j in u.figures) for n, k in p.figures)


def _timed(key: str | None) -> bool:
    return key is not None and (key in SPANS or key == CLOCK)


def stated_share(p: Part, units: Units) -> float:
    """Share of a clause's content words that some context states (a word by its stem,
    or by a static vector at least SOFT_WORD close to a context word)."""
    words = list(dict.fromkeys(p.pairs))
    if not words:
        return 1.0
    missing = [t for t, w in words if w not in units.stems]
    if missing and units.ctx.infos:
        vecs = word_vectors(missing)
        pool = units.ctx.all_word_vectors()
        if len(pool):
            near = (vecs @ pool.T).max(axis=1)
            missing = [t for t, c in zip(missing, near, strict=True) if c < SOFT_WORD]
    return 1.0 - len(missing) / len(words)
