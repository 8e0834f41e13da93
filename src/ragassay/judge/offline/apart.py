"""Whether a sentence denies one thing in a clause and states the claim's in another
(issue #38): "Guests should not bring food; wine is fine" turns nothing of "Guests may
bring wine". Read as a whole, the sentence's negation bears on the verb the claim
states ("bring") and `polarity.polarity` counts a flip; read by clauses, the denied
clause is about another object than the claim's, and a clause without a negation
states the claim's own words. `polarity.unit_flip` asks here of a whole sentence."""

from __future__ import annotations

from .clauses import Part, is_negation, lemma_stems
from .lexical import STOPWORDS
from .units import Unit, Units


def _denies(p: Part) -> bool:
    return any(h is not None for h in p.negations)


def _denied_object(c: Part) -> frozenset[str]:
    """The content stems after the clause's first negation, less what it bears on (the
    verb: "not bring food": food)."""
    toks = c.info.tokens
    at = next((i for i, t in enumerate(toks) if is_negation(t)), len(toks))
    stems = lemma_stems(toks, c.info.all_stems)
    return frozenset(stems[i] for i in range(at + 1, len(toks))
                     if toks[i] not in STOPWORDS and stems[i] in c.words) - set(c.negations)


def denied_apart(p: Part, u: Unit, units: Units) -> bool:
    """Whether the unit, a whole sentence of several clauses, has a clause that denies
    and one that does not; what each denying clause denies (`_denied_object`: "food")
    the claim names none of; and the claim's words that no denying clause states (its
    own object: "wine") are all stated by a clause that denies nothing ("wine is
    fine"). A claim on the denied object ("Guests may bring food"; "deletes the cache
    and removes the lock file" / "... but does not remove the lock file") has its flip."""
    if u.clause or _denies(p):
        return False
    clauses = units.clauses(u.row)
    denying = [c for c in clauses if _denies(c.part)]
    if not denying or any(not _denied_object(c.part) or _denied_object(c.part) & p.words
                          for c in denying):
        return False
    own = p.words - frozenset().union(*(c.words for c in denying))
    return bool(own) and any(own <= c.part.words for c in clauses if not _denies(c.part))
