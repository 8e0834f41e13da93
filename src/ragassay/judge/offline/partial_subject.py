"""Part of a kind said of the kind: a unit whose clause opens on "some", "most",
"many", "several", "certain" or "selected" and a noun ("Some food items may be sent
abroad", "Most of the rooms have a balcony") and a claim that opens on that bare noun and
restates the clause's predicate, in the unit's words ("Food items may be sent abroad",
"Rooms have a balcony"): the bare plural says it of the kind, the unit of part of it.

The subject runs from after the partial word (and "of the") to the first auxiliary, modal
or "have" (or, with none, is the one noun before a verb the claim copies with it: "Some
trains stop at ..." / "Trains stop at ..."); the claim must open on its first content
word, past "the" or "our" (nothing else of its own before it, so "The top-floor rooms
..." or "Certain rooms ..." are no bare kind; "Our tours include lunch" is all of them)
and state no word outside the subject and the predicate ("Sealed food items" for "Some
food items, such as sealed chocolate, ...": the claim names which). It stays silent
when the claim is negated, limited ("only", "unless", "if") or quantified itself ("not
all", "every day": other rules read those) but for a universal opening its subject ("All
(of) the rooms have a balcony", "Every trail is ...": the kind, said outright), and when
the question has the partial word ("Do most rooms ...?").
"""

from __future__ import annotations

from .clauses import RESTRICTORS, Part, clause_parts, lemma_stems
from .lexical import STOPWORDS, stem

_PARTIAL = frozenset({"some", "most", "many", "several", "certain", "selected"})
_EVERY = frozenset({"all", "every", "each"})  # the claim's own opening universal
# the verbs that end the subject: auxiliaries, modals, "have"
_VERBS = frozenset({"can", "may", "must", "will", "should", "could", "might", "is",
                    "are", "have", "has", "need", "carry", "include", "includes"})
# what opens a plural said of the whole kind ("our tours", "the trails")
_DEFINITE = frozenset({"the", "our", "your", "their", "its"})
_OPENERS = frozenset({"and", "but", "so", "while", "whereas", "however", "though"})
_SUBJECT_MAX = 8  # tokens of the subject, at most (an aside: "..., such as ..., may")
_PREDICATE = 2  # content words of the predicate the claim states, at least


def partial_widened(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether a clause of the unit (a sentence) says its predicate of part of a kind
    and the claim says it, opening on the bare noun, of the kind; `given`: the
    question's stems."""
    toks = p.info.tokens
    lead = p.info.lead
    every = lead < len(toks) - 1 and toks[lead] in _EVERY
    if every:  # "All (of) the rooms have ...", "Every room has ...": the kind, said so
        lead += 2 if toks[lead + 1] == "of" else 1
    while lead < len(toks) - 1 and toks[lead] in _DEFINITE:
        lead += 1  # "Our tours include ...", "The trails are ...": all of them
    if (lead >= len(toks) or p.universal and not every
            or any(h is not None for h in p.negations)
            or toks[lead] in STOPWORDS
            or any(t in _PARTIAL or t in RESTRICTORS for t in toks)):
        return False
    # (the sentence whole too: its clauses cut an aside from its subject and verb)
    return any(_widens(p, c, lead, given) for c in (u, *clause_parts(u.text)))


def _widens(p: Part, c: Part, lead: int, given: frozenset[str]) -> bool:
    toks = c.info.tokens
    i = 0
    while i < len(toks) and toks[i] in _OPENERS:
        i += 1
    if i >= len(toks) - 3 or toks[i] not in _PARTIAL:
        return False
    j = i + 1
    if toks[j] == "of":  # "most of the rooms"
        j += 1
        while j < len(toks) and toks[j] in ("the", "our", "these", "those", "your"):
            j += 1
    if j >= len(toks) or toks[j] in STOPWORDS:
        return False  # "some of them", "most of it", "many more"
    verb = next((k for k in range(j + 1, min(len(toks), j + 1 + _SUBJECT_MAX))
                 if toks[k] in _VERBS), None)
    if verb is None and p.info.tokens[lead:lead + 2] == toks[j:j + 2]:
        verb = j + 1  # a one-word subject and its verb, copied: "(Some) trains stop at ..."
    if verb is None:
        return False
    stems = lemma_stems(toks, c.info.all_stems)
    subject = {stems[k] for k in range(j, verb) if toks[k] not in STOPWORDS}
    predicate = {stems[k] for k in range(verb, len(toks))} & c.words
    claim = lemma_stems(p.info.tokens, p.info.all_stems)
    if claim[lead] != stems[j] or stem(toks[i]) in given:
        return False
    return p.words <= subject | predicate and len(p.words & predicate) >= _PREDICATE
