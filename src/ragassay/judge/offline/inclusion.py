"""Whom a unit says a thing is open to, and a claim that denies it to them (issue #38:
"Children over 8 can't join the tour" against "The tour is open to everyone, including
children over 8"). "Open to X, including Y" grants Y leave without a word of permission
the claim shares ("can", "allowed"), so `deontic.turned_stance` does not see it;
`polarity.turned_elsewhere` asks here last."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part
from .deontic import FORBIDDEN, stance
from .lexical import crude_root
from .units import Unit

# a grant of whom ("open to all members", "open to the public", "welcome to join")
_OPEN = frozenset({"open"})
# what opens a part the grant leaves out: the claim may say what is not granted
_APART = frozenset({"except", "excluding", "apart", "other", "unless", "but", "only", "non",
                    "without", "not"})
# a condition or bound of the claim's own: it may say what the unit's grant leaves out
_QUALIFIERS = frozenset({"if", "when", "unless", "only", "under", "over", "before", "after",
                         "until", "without", "less", "more", "than", "younger", "older"})
# words of leave and of denying it, aside when the claim's words are compared
_LEAVE = frozenset({"can", "cannot", "can't", "can’t", "may", "not", "allowed", "permitted",
                    "able", "unable", "must", "mustn't", "eligible"})
ACTIONS = 1  # claim words the unit need not state: the act it denies ("join", "enter")


def _granted(u: Unit) -> tuple[int, tuple[str, ...]] | None:
    """Where the unit's sentence says whom its subject is open to: the index of "open"
    (followed by "to") and the sentence's tokens; None when it says none, or denies it
    ("not open to", "open to members only"), or sets a part aside ("except ...")."""
    toks = u.sentence.info.tokens
    at = next((i for i in range(len(toks) - 2) if toks[i] in _OPEN and toks[i + 1] == "to"
               and not toks[i + 2][:1].isdigit()), None)  # (not hours: "open to 9pm")
    if at is None or any(t in _APART for t in toks):
        return None
    return at, toks


def denied_inclusion(p: Part, u: Unit) -> bool:
    """Whether the claim forbids its subject what the unit's sentence says is open to
    them: the claim's stance is forbidden (`deontic.stance`: "can't", "not allowed"); its
    subject is named after the unit's "open to"; its other content words the sentence's
    but ACTIONS; its figures the sentence's; no condition or bound of its own but one
    "even" denies ("even once they have completed the course")."""
    got = _granted(u)
    if got is None or stance(p) != FORBIDDEN or p.first is None:
        return False
    at, utoks = got
    toks = p.info.tokens
    even = toks.index("even") if "even" in toks else len(toks)
    if set(toks[:even]) & (_QUALIFIERS - set(utoks)) or set(toks) & (_APART - {"not"}):
        return False
    if {n for n, _ in p.figures} - {n for n, _ in u.sentence.figures}:
        return False
    ustems = u.sentence.info.all_stems
    granted = {crude_root(s) for s in ustems[at + 2:]}
    if crude_root(p.first) not in granted:
        return False
    theirs = {crude_root(w) for w in u.sentence.words}
    words = {crude_root(w) for t, w in p.pairs if t not in _LEAVE}
    return len(words - theirs) <= ACTIONS and len(words & theirs) >= 2


def inclusion_row(p: Part, near: Sequence[Unit]) -> int | None:
    """The context sentence of the unit sharing most words with the claim whose grant
    the claim denies (`denied_inclusion`). None when there is none."""
    rows = [(len(p.words & u.words), u.row) for u in near if not u.clause
            and denied_inclusion(p, u)]
    return max(rows)[1] if rows else None
