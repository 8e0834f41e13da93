"""A universal claim that another context sentence denies or limits for one of the things
it names (subject_scope.restriction_dropped): the claim says "all", "any", "every" or
"both" of a kind, naming a member ("all the courses, lectures and seminars, are
recorded"; "both the river boat and the ferry run all year"), and a context sentence
opening on that member says, with a negation or "only", the claim's predicate of it
narrower ("Seminars are not recorded"; "The river boat runs from May to September
only"). What holds of every member cannot be denied of one.

Silent when the claim has a negation or "only" of its own, or when the denying sentence
shares no word with the claim beyond the member (another fact of it).
"""

from __future__ import annotations

from .clauses import ONLY, UNIVERSAL, Part, lemma_stems
from .lexical import NEGATIONS, STOPWORDS
from .pieces import AUXILIARIES, MODALS
from .scope import TIMES
from .units import Units

_ALL = UNIVERSAL | {"both"}
_PHRASE = 8  # tokens after the universal where its members are listed, at most
_SHARED = 2  # content words the denying sentence shares with the claim, the member's among them


def _denied(toks: tuple[str, ...]) -> bool:
    """Whether a sentence says its fact with a negation."""
    return any(t in NEGATIONS or t.endswith(("n't", "n’t")) for t in toks)


def _limits(toks: tuple[str, ...]) -> bool:
    """Whether a sentence says its fact with a negation or "only"."""
    return _denied(toks) or bool(ONLY & set(toks))


def _listed(p: Part, member: str) -> bool:
    """Whether the claim names `member` in a list ("and", "or") that its universal opens,
    before any verb, as one of what it quantifies ("all courses, talks and seminars",
    "both the river boat and the ferry", "any kind of ticket, standard or saver"); under
    "all/any/every" not as the noun the universal quantifies ("any cancelled game"), and
    never of a time ("every day", "all year")."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    for i, t in enumerate(toks):
        if t not in _ALL:
            continue
        phrase = []
        for j in range(i + 1, min(len(toks), i + 1 + _PHRASE)):
            if toks[j] in AUXILIARIES or toks[j] in MODALS:
                break
            phrase.append(j)
        heads = [stems[j] for j in phrase if toks[j] not in STOPWORDS][:1]
        listed = t == "both" or {"and", "or"} & {toks[j] for j in phrase}
        if not heads or heads[0] in TIMES or not listed:
            continue  # ("both" names two, whether or not the clause reaches the second)
        if any(stems[j] == member and (t == "both" or stems[j] != heads[0]) for j in phrase):
            return True
    return False


def member_denied(p: Part, u: Part, said: frozenset[str] = frozenset()) -> bool:
    """Whether the claim, universal and neither negated nor limited, names the subject the
    unit opens on (its first content word) and the unit denies or limits what the claim
    says of it, sharing a word of the predicate too; `said`: the words of the claim's
    whole sentence when `p` is a clause of it ("Yes, all courses, ... and seminars" /
    "are recorded")."""
    ct, words = p.info.tokens, p.words | said
    if _limits(ct) or u.first is None or not _listed(p, u.first):
        return False
    toks = u.info.tokens
    if not _limits(toks) or u.universal or toks[:1] == ("only",):
        return False  # ("Only members can ...": only_who reads whom "only" names)
    # ("only" narrows by what the claim lacks: "from May to September only")
    return len(words & u.words) >= _SHARED and (_denied(toks) or bool(u.words - words))


def member_denied_row(p: Part, units: Units, doc: int | None = None,
                      said: frozenset[str] = frozenset()) -> int | None:
    """The context sentence (of `doc`'s passage) that denies or limits for a member what
    the universal claim says of all (`member_denied`), read over the sentences sharing
    a word with it (the clause, the member; `member_denied` asks two of its sentence)."""
    if not _ALL & set(p.info.tokens):
        return None
    return next((u.row for u in units.near(p, doc, 1)
                 if not u.clause and member_denied(p, u.part, said)), None)
