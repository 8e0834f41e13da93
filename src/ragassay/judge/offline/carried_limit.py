"""A limit set in the next sentence and carried back to a fact by a referring word ("You
can cancel free of charge up to 48 hours before. This applies only to flexible rates.";
"... That offer is limited to Premium subscribers."): the fact holds only for what the
limit names. A universal claim that restates the fact ("You can cancel any booking ...")
and names nothing of the limit, nor does the question, says it of all (alignment.py
reads it beside subject_scope.restriction_dropped, for a whole sentence it restates).
"""

from __future__ import annotations

from .clauses import DETERMINERS, Part, is_negation, lemma_stems
from .lexical import STOPWORDS
from .subject_scope import restriction_dropped
from .units import Unit, Units

# words opening a sentence that stand for the fact or the thing the sentence before states
_REFERRING = frozenset({"this", "that", "these", "those", "it", "they", "such"})
# words that bound what a sentence says to what follows them
_LIMITS = frozenset({"only", "solely", "exclusively", "limited", "restricted"})
_DEFINITE_REACH = 5  # tokens a definite subject and its verb take before the limit, at most
_SHARED = 2  # content words the claim shares with the fact, at least


def dropped(p: Part, u: Unit, units: Units, said: frozenset[str]) -> bool:
    """Whether the claim drops a restriction of the unit's own (restriction_dropped) or
    one the next sentence carries back to it (`carried_limit`)."""
    return restriction_dropped(p, u.part, units.given, said, units.stems) or (
        carried_limit(p, u, units, said))


def carried_limit(p: Part, u: Unit, units: Units, said: frozenset[str]) -> bool:
    """Whether a universal claim states only the words of the unit's sentence beside
    what it quantifies, and the next sentence of the passage opens on a referring word
    and limits it ("only", "limited to") to something of which the claim, its sentence
    and the question leave a word out ("any parcel" for "only ... standard parcels")."""
    if not p.universal or u.clause or len(p.words & u.words) < _SHARED:
        return False
    if not p.words - {h for h in p.quantified if h} <= u.words:
        return False
    ctx, row = units.ctx, u.row + 1
    if row >= len(ctx.infos) or ctx.docs[row] != ctx.docs[u.row]:
        return False
    info = ctx.infos[row]
    toks = info.tokens
    if not toks or any(is_negation(t) for t in toks):
        return False
    # (not "the only": "It is the only ..." says what it is, and limits nothing)
    at = next((k for k, t in enumerate(toks)
               if t in _LIMITS and (k == 0 or toks[k - 1] not in DETERMINERS)), None)
    if at is None or not (toks[0] in _REFERRING or _definite_subject(toks, at)):
        return False
    stems = lemma_stems(toks, info.all_stems)
    limit = {stems[k] for k in range(at + 1, len(toks))
             if toks[k] not in STOPWORDS and toks[k].isalpha()} - u.words
    return bool(limit - (p.words | said | units.given))


def _definite_subject(toks: tuple[str, ...], at: int) -> bool:
    """Whether the sentence opens on "the" and a short noun phrase whose verb is followed
    by the limit within a few tokens ("The discount applies only to ...", "The offer is
    limited to ..."): a definite subject that names the fact just stated, by another
    word, and bounds it."""
    return (toks[0] == "the" and 3 <= at <= _DEFINITE_REACH
            and all(t.isalpha() for t in toks[:at]))
