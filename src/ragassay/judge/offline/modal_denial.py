"""Two readings of how many times a clause denies what it says, for `polarity`:

- "Neither X nor Y is accepted" denies one predicate of both: one negation, however
  many of its words the other side states ("doesn't accept X or Y" agrees with it).
- "X isn't possible" denies the event its subject names, not the
  word "possible": it bears on the clause's own words, so "X can't be done" agrees with
  it and "X is available" turns against it. Read so only where the other side does not
  deny something else of its own (a negation bearing on nothing the clause states:
  "We don't offer X" says nothing of what is possible) and, where the other side
  denies nothing, it grants the event in so many words ("can", "available"), with no
  exception on either side ("not permitted, apart from X" / "only X is allowed").
"""

from __future__ import annotations

from .clauses import Part
from .lexical import stem

# predicates of modality whose denial is the denial of their subject's event
# (not "allowed" / "permitted": a permission has a grantee and an amount, "allowed 2
# bags", "not permitted more than 90 minutes", which the deontic reading weighs)
_MODAL = frozenset(stem(w) for w in ("possible", "feasible"))


# what a plain grant of the event says ("can", "available"): what a denied modality turns
_GRANTS = frozenset({"can", "may", "available", "able", "allowed", "permitted", "possible",
                     "offer", "offers", "offered"})
_EXCEPTED = frozenset({"except", "apart", "unless", "besides"})


def joint_denials(p: Part, count: int) -> int:
    """`count` (the clause's negations bearing on the other side) with a "neither ...
    nor" read as one negation: each "nor" after a "neither" adds none."""
    toks = p.info.tokens
    if "neither" not in toks or count < 2:
        return count
    at = toks.index("neither")
    nors = sum(1 for t in toks[at + 1:] if t == "nor")
    return max(1, count - nors)


def denied_modality(p: Part, other: Part, mine: int, theirs: int) -> int:
    """How many of `p`'s negations of a modality predicate ("isn't possible") bear on
    the other side by the clause's own words, beyond those `mine` already counts (which
    bear on a "possible" the other states). None where the other side denies something
    and none of its denials bear on this clause (`theirs`)."""
    if theirs == 0 and (any(h is not None for h in other.negations)
                        or not _GRANTS & set(other.info.tokens)):
        return 0  # (a plain "prohibited" on the other side is a denial of its own)
    if _EXCEPTED & set(p.info.tokens) or other.restricted or p.figures or other.figures:
        return 0  # "not permitted, apart from X" is what "only X is allowed" says
    o_stems = other.stems
    own = p.words
    return sum(1 for h in p.negations if h in _MODAL and h not in o_stems
               and (own - {h}) & o_stems) if mine == 0 or theirs else 0
