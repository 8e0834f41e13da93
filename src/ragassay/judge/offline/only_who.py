"""Whom "only" names, dropped: a unit that fronts its subject with "only" ("Only members
can book the courts online", "..., but only residents may park overnight") and a claim
that restates its predicate, in the unit's words, of nobody named or of "you" ("You can
book the courts online"): the claim says of everyone what the unit says of the named
few.

A phrase of whom ending in "only" ("Parking is available to residents only", "open to
hotel guests only") is read the same way: a claim restating the rest of the sentence
without any word of it ("Parking is available") says it of everyone.

The subject is the run of tokens between "only" and the first auxiliary or rule verb
after it ("can", "may", "are", "get"): the rule needs that verb, so "Only the main pool
is heated" reads "the main pool" whole, and a claim keeping any word of it ("The pool
is heated") keeps its subject. It stays silent when:

- the subject is a figure or an amount ("Only 3 rooms", "only a few"): "only" as
  "merely", no restriction of whom;
- the claim keeps a word of the subject, in its own clause or another clause of its
  sentence ("As a member, you can book ..."), or the question names one ("Can members
  book online?": the answer's "you" is theirs);
- another clause of the claim's sentence says _OWN_WORDS words or more no context
  has ("Parking is available, but just for people who live here": whom, in other
  words);
- the claim restricts itself, is negated, or states a word the unit's predicate lacks
  (but for a subject the sentence names in another clause: "Visitors may enter the
  house" for "Visitors are welcome in the gardens, but only ticket holders may ...").
"""

from __future__ import annotations

from .clauses import Part, clause_parts, lemma_stems
from .lexical import STOPWORDS
from .scope import TIMES
from .weeks import CALENDAR

# the verbs that end a subject after "only": auxiliaries, modals and the verbs of a rule
# or benefit ("Only members get ...")
_VERBS = frozenset({
    "can", "may", "must", "will", "should", "could", "cannot", "might", "is", "are",
    "get", "gets", "receive", "receives", "have", "has", "need", "needs", "qualify",
    "qualifies", "pay", "pays", "enjoy", "enjoys", "earn", "earns"})
# what makes "only" "merely": an amount, not whom ("only a few", "only one")
_AMOUNTS = frozenset({"a", "an", "one", "two", "three", "four", "five", "few", "some",
                      "half", "about", "around", "up", "once", "twice"})
# the words that open a clause before its "only" ("..., but only residents may park")
_OPENERS = frozenset({"and", "but", "so", "while", "whereas", "however", "though"})
_SUBJECT_MAX = 6  # tokens of the subject after "only", at most
_PREDICATE = 2  # content words of the unit's predicate the claim states, at least
_OWN_WORDS = 2  # words of the claim's other clauses no context has that may say whom


def only_dropped(p: Part, u: Part, given: frozenset[str] = frozenset(),
                 said: frozenset[str] = frozenset(),
                 known: frozenset[str] | None = None) -> bool:
    """Whether the unit (a sentence) fronts a subject of its own clause with "only" and
    the claim restates that clause's predicate without any word of the subject;
    `given`: the question's stems; `said`: the words of the claim's whole sentence;
    `known`: the contexts' stems (the unit's words when None)."""
    if p.restricted or p.universal or any(h is not None for h in p.negations) or (
            len(p.words) < _PREDICATE):
        return False
    if any(t[:1].isdigit() for t in p.info.tokens):
        return False
    if not _VERBS & set(p.info.tokens):
        return False  # a fragment ("Yes, both the Aqua Zorb") states no predicate
    if len(said - p.words - p.stems - (u.words if known is None else known)) >= _OWN_WORDS:
        return False  # (another clause of its own words: "Parking is available, but just
        # for people who live here" says whom as the unit's "residents only" does)
    kept = given | said
    return _whom_only(p, u, kept) or any(_drops(p, c, u, kept) for c in clause_parts(u.text))


_WHOM = frozenset({"to", "for"})  # "open to hotel guests only", "for members only"


def _whom_only(p: Part, u: Part, kept: frozenset[str]) -> bool:
    """Whether the unit limits what it says to whom a phrase ending in "only" names
    ("Parking is available to residents only") and the claim restates the rest without
    any word of the phrase ("Parking is available")."""
    toks = u.info.tokens
    stems = lemma_stems(toks, u.info.all_stems)
    for end in (k for k in range(2, len(toks)) if toks[k] == "only"):
        at = next((k for k in range(end - 1, max(0, end - _SUBJECT_MAX) - 1, -1)
                   if toks[k] in _WHOM), None)
        if at is None:
            continue
        whom = {stems[k] for k in range(at + 1, end) if toks[k] not in STOPWORDS}
        if (not whom or any(toks[k][:1].isdigit() for k in range(at + 1, end))
                or whom & (p.words | p.stems | kept) or whom & (TIMES | CALENDAR)
                or "from" in toks[max(0, at - _SUBJECT_MAX):at]):
            continue  # (no whom: "from May to September only", "for 2 days only")
        rest = {stems[k] for k in range(len(toks)) if not at <= k <= end} & u.words
        if p.words <= rest and len(p.words) >= _PREDICATE:
            return True
    return False


def _drops(p: Part, c: Part, u: Part, kept: frozenset[str]) -> bool:
    """Whether clause `c` of sentence `u` opens on "only" and a subject, and the claim
    states its predicate (all its words there, but for a subject of its own that another
    clause of the sentence names: "Visitors are welcome in the gardens, but only ticket
    holders may enter the house") and no word of the subject nor of `kept`."""
    toks = c.info.tokens
    i = 0
    while i < len(toks) and toks[i] in _OPENERS:
        i += 1
    if i >= len(toks) - 2 or toks[i] != "only" or toks[i + 1] in _AMOUNTS:
        return False
    verb = next((k for k in range(i + 1, min(len(toks), i + 2 + _SUBJECT_MAX))
                 if toks[k] in _VERBS), None)
    if verb is None or verb == i + 1:
        return False
    stems = lemma_stems(toks, c.info.all_stems)
    subject = [k for k in range(i + 1, verb) if toks[k] not in STOPWORDS]
    if not subject or any(toks[k][:1].isdigit() for k in range(i + 1, verb)):
        return False
    who = {stems[k] for k in subject}
    if who & (p.words | p.stems | kept):
        return False
    predicate = {stems[k] for k in range(verb, len(toks))} & c.words
    extra = p.words - predicate
    if extra and (extra != {p.first} or p.first not in u.words or p.first in c.words):
        return False
    return len(p.words & predicate) >= _PREDICATE
