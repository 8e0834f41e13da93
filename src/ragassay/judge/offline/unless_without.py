"""One condition said two ways, for `polarity`: "unless Y" and "without Y" both say Y is
what the statement hangs on ("won't dispense antibiotics unless you have a prescription"
is "refuses to dispense antibiotics without a prescription", "you can't open an account
unless you bring ID" is "no account is opened without ID"). clauses.py reads "unless" as
a predicate negation and "without" as none (it modifies), so where one side says "unless
Y" and the other "without Y", the "unless" alone is counted and the two turn against
each other by a parity of words, not of meaning. A careful reader takes the pair as the
same condition: the "unless" whose first content word is among the first content words
after the other side's "without" is not counted as a flip.
"""

from __future__ import annotations

from .clauses import Part
from .lexical import STOPWORDS, stem

_AFTER = 3  # content words after "without" its condition may name ("without a valid ID")


def _conditions(p: Part) -> frozenset[str]:
    """The stems of the first content words after each "without" of the text."""
    toks, out = p.info.tokens, set[str]()
    for i, t in enumerate(toks):
        if t == "without":
            words = [w for w in toks[i + 1:i + 6] if w not in STOPWORDS][:_AFTER]
            out.update(stem(w) for w in words)
    return frozenset(out)


def unless_as_without(p: Part, other: Part, denied: int) -> int:
    """How many of `p`'s "unless" have, as their first content word, one the other side
    names after a "without" (module docstring), where the other side's denial is counted
    against `p` (`denied`: its negations bearing on `p`'s words; none, and the pair's
    parity is left as it is: "refuses to admit" shares no verb with "can't get in")."""
    toks = p.info.tokens
    if not denied or "unless" not in toks or "without" not in other.info.tokens:
        return 0
    cond = _conditions(other)
    n = 0
    for i, t in enumerate(toks):
        if t == "unless":
            head = next((w for w in toks[i + 1:i + 7] if w not in STOPWORDS), None)
            n += head is not None and stem(head) in cond
    return n


_IF = frozenset({"if", "with", "once", "when"})


def only_if_as_without(p: Part, other: Part, denied: int) -> int:
    """1 where `p` says "only ... if Y" (or "with Y") and the other side "not ... without
    Y": "only dispenses antibiotics if you have a prescription" denies the dispensing
    without one, as "refuses to dispense antibiotics without a prescription" does, so
    the "only" counts as the other side's denial, where that denial is counted against
    `p` (`denied`); else 0."""
    toks = p.info.tokens
    if not denied or "only" not in toks or "without" not in other.info.tokens or (
            "without" in toks):
        return 0
    cond = _conditions(other)
    at = toks.index("only")
    for i in range(at, len(toks)):
        if toks[i] in _IF:
            head = next((w for w in toks[i + 1:i + 7] if w not in STOPWORDS), None)
            if head is not None and stem(head) in cond:
                return 1
    return 0


# words saying a thing is needed ("must", "need to", "have to", "is required")
_NEEDED = frozenset({"must", "need", "needs", "required", "requires", "require", "have",
                     "has", "needed"})
_NEEDED_AFTER = 4  # content words after the word of need its requirement may name


def must_as_without(p: Part, other: Part, denied: int) -> int:
    """1 where `p` says, undenied, that Y is needed ("must have a safety briefing before
    entering", "need to be a member to book") and the other side "can't ... without Y"
    (a double negative: what cannot be done without Y needs Y), that denial being
    counted against `p` (`denied`); else 0. "have"/"has" count only as "have to"/"has
    to". Not where `p` says "only" (`only_if_as_without` reads that) or "without"."""
    toks = p.info.tokens
    if not denied or "without" not in other.info.tokens or {"only", "without"} & set(toks) \
            or any(h is not None for h in p.negations):
        return 0
    cond = _conditions(other)
    for i, t in enumerate(toks):
        if t not in _NEEDED or (t in {"have", "has"} and toks[i + 1:i + 2] != ("to",)):
            continue
        words = [w for w in toks[i + 1:i + 8] if w not in STOPWORDS][:_NEEDED_AFTER]
        if any(stem(w) in cond for w in words):
            return 1
    return 0
