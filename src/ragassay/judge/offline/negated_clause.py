"""Whether a context sentence's negation bears on what an answer sentence says, for the
support model's negation mismatch (features.py).

"The kiln needs a 32-amp supply on a dedicated circuit; do not plug it into an extension
lead" is negated, but only in a clause of its own: "The kiln needs a dedicated 32-amp
circuit" restates the other clause, and the "not" says nothing of it. A careful reader
weighs a negation only where it stands in the clause the claim takes its words from; the
sentence-level flag counted every "not" in the sentence. Where the negated clause shares
a content word with the claim beyond the verb the negation bears on ("You can plug it
into an extension lead"), or the sentence cannot be cut into clauses, or the claim is
negated itself, the sentence-level reading stands.

Read by the support features' negation mismatch and by paraphrase.py's rewording.
"""

from __future__ import annotations

from .clauses import Part, clause_parts
from .relative_negation import relative_aside
from .sentences import SentenceInfo


def _related(words: frozenset[str], p: Part) -> bool:
    """Whether a negated clause speaks of what the claim says: a content word shared
    beyond the verb its negation bears on ("does not include radiators" shares only
    "include" with "It includes one annual service")."""
    return bool((words & p.words) - set(p.negations))


def negation_bears(claim: SentenceInfo, best: SentenceInfo) -> bool:
    """`best.negated`, less a negation standing only in clauses that share no content
    word with the claim (read as the claim's counterpart in the mismatch feature)."""
    if not best.negated or claim.negated:
        return best.negated
    parts = clause_parts(best.text)
    said = frozenset(claim.stems)
    negated = [p for p in parts if any(h is not None for h in p.negations)]
    if negated and all(relative_aside(said, p) for p in negated):
        return False  # ("Cats that never go outdoors still need ...": relative_negation)
    if len(parts) < 2:
        return True
    if not negated or len(negated) == len(parts):
        return True  # (a negation no clause holds, or every clause holds one)
    return any(_related(said, p) for p in negated)


def unrelated_negation_dropped(words: frozenset[str], text: str) -> str | None:
    """The context sentence without its negated clauses that share no content word with
    a claim (`words`: the claim's content words), for reading the claim as a rewording
    of the rest ("... a dedicated circuit; do not plug it into an extension lead" -> "...
a dedicated circuit"); None when no
    such clause stands apart from a clause that keeps the sentence's content."""
    parts = clause_parts(text)
    if len(parts) < 2:
        return None
    kept = [p for p in parts
            if not (any(h is not None for h in p.negations) and not _related(words, p))]
    if len(kept) in (0, len(parts)):
        return None
    return " ".join(p.text for p in kept)
