"""The deontic stance of a clause, permitted or forbidden, and whether a claim and the
unit it restates take opposite stances on the same thing (issue #38: "Dogs are welcome
on the funicular" against "Dogs are not permitted on the funicular", "You can park in
the staff car park" against "Visitors must not use the staff car park"). A permission
word is turned by another word of permission or prohibition, not by its own negation
alone, so `polarity.polarity` (which reads negations of a word both sides state) does
not see these; `polarity.unit_flip` asks here when it finds no flip of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .clauses import Part, is_negation
from .lexical import crude_root
from .places import placed
from .units import Unit

PERMITTED, FORBIDDEN = "permitted", "forbidden"
NOT_BANNED = "not banned"  # "is not prohibited": no stance the other two are read against
# words that grant leave: turned by a negation just before them ("not permitted", "no
# longer accept", "can't"); not "permit", a noun as often ("a resident's permit", review 18c)
_GRANTS = frozenset({"can", "may", "allow", "allows", "allowed", "permitted", "welcome",
                     "accept", "accepts", "accepted"})
# grants only as a predicate of "be" ("Plastic bottles are fine", "is ok")
_BE_GRANTS = frozenset({"fine", "ok", "okay"})
_BE = frozenset({"is", "are", "be", "was", "were"})
_BANS = frozenset({"prohibited", "forbidden", "banned", "barred", "disallowed",
                   # (the active verb, the rule as its subject: "The gym prohibits outdoor
                   # shoes", "The lease forbids subletting"; not the bare "ban", a noun too)
                   "prohibits", "forbids", "bans", "disallows"})
_DENIED_MODALS = frozenset({"cannot", "can't", "can’t", "mustn't", "mustn’t"})
_BEFORE = 3  # tokens before a grant a negation of it stands within ("will not be allowed")
# a unit limited to a time, a condition or a bound the claim does not state forbids only
# then ("Refunds cannot be given after 14 days" says nothing against "within 14 days")
_QUALIFIERS = frozenset({"within", "before", "after", "until", "during", "once", "if",
                         "when", "unless", "while", "between", "outside", "under", "over",
                         "than", "only", "without", "per", "up", "exceed", "exceeds",
                         "more", "less", "fewer", "least", "most", "maximum", "minimum"})
# (words are compared by `crude_root`: a gerund states its verb, "smoking" / "smoke")
# what "can" grants no leave for: an ability of the senses ("From the pier you can see
# the castle" is no permission a ban of entering the castle turns)
_SENSES = frozenset({"see", "hear", "spot", "glimpse", "smell", "notice"})
_EXCEPTIONS = frozenset({"except", "excluding", "apart", "other", "unless", "but"})


def stance(p: Part) -> str | None:
    """PERMITTED or FORBIDDEN when every deontic word of the clause says the one (a
    grant, a negated grant, a ban, "must not"); None when it has none, or both."""
    toks = p.info.tokens[p.info.lead:]
    found = set()
    for i, t in enumerate(toks):
        if t in _DENIED_MODALS or (t == "must" and i + 1 < len(toks) and is_negation(
                toks[i + 1])):
            found.add(FORBIDDEN)
        elif t in _BANS:
            found.add(NOT_BANNED if _denied(toks, i) else FORBIDDEN)
        elif t == "can" and i + 1 < len(toks) and toks[i + 1] in _SENSES:
            continue
        elif t in _GRANTS or (t in _BE_GRANTS and i and toks[i - 1] in _BE) or (
                t == "free" and i + 1 < len(toks) and toks[i + 1] == "to"):
            if t in {"can", "may"} and i + 1 < len(toks) and is_negation(toks[i + 1]):
                found.add(FORBIDDEN)  # "may not", "can not"
            else:
                found.add(FORBIDDEN if _denied(toks, i) else PERMITTED)
    return found.pop() if len(found) == 1 and NOT_BANNED not in found else None


def _denied(toks: tuple[str, ...], i: int) -> bool:
    window = toks[max(0, i - _BEFORE):i]
    return any(is_negation(t) or t == "no" for t in window)


def turned_stance(p: Part, u: Unit) -> bool:
    """Whether the claim and the unit take opposite stances on what both are about: the
    claim's content words, its deontic words aside, all the unit's but one (the action,
    which may differ: "park in" / "use"), one at least shared; the claim under no
    condition of its own (one the unit states too is none), the unit under none the claim
    lacks, and no claim word the
    unit's exception alone names ("except assistance dogs": "Assistance dogs are
    allowed")."""
    mine, theirs = stance(p), stance(u.part)
    if mine is None or theirs is None or mine == theirs or p.figures or u.part.figures:
        return False  # (a figure makes either a bound's: "up to 60 days' rent can be taken")
    toks, utoks, own = set(p.info.tokens), u.sentence.info.tokens, set(u.part.info.tokens)
    # (a qualifier both state is no condition of the claim's own: "Outside food is ...")
    if toks & _EXCEPTIONS or toks & _QUALIFIERS - own or own & _QUALIFIERS - toks:
        return False
    words = {crude_root(w) for t, w in p.pairs if t not in _GRANTS | _BE_GRANTS | _BANS | {"free"}}
    shared = words & {crude_root(w) for w in u.words}
    if not shared or len(words - shared) > 1:
        return False
    if any(placed(p, w) for w in words - shared):  # (`places.placed`)
        return False  # another place than the unit's: about another thing
    at = next((i for i, t in enumerate(utoks) if t in _EXCEPTIONS), None)
    if at is None:
        return True
    ahead = set(utoks[:at])
    return shared <= {crude_root(w) for t, w in u.sentence.pairs if t in ahead}


def turned_row(p: Part, near: Sequence[Unit]) -> int | None:
    """The context sentence of the unit closest to the claim (most shared words) that
    takes the opposite stance on it (`turned_stance`), where no unit as close takes the
    claim's ("You can take photos in the foyer" beside "You may take photos in the
    foyer" and a ban of photography during the show). None when there is none."""
    return closest_turned(p, near, stance, turned_stance)


def closest_turned(p: Part, near: Sequence[Unit], reader: Callable[[Part], str | None],
                   turned: Callable[[Part, Unit], bool]) -> int | None:
    """The row of the unit sharing most words with the claim that `turned` says takes
    the opposite stance (read by `reader`), where no unit as close takes the claim's."""
    mine = reader(p)
    if mine is None:
        return None
    rows = [(len(p.words & u.words), u.row) for u in near if turned(p, u)]
    if not rows:
        return None
    most, row = max(rows)
    if any(reader(u.part) == mine and len(p.words & u.words) >= most for u in near):
        return None
    return row


def same_subject_matter(p: Part, first: str, c: Part, passage: frozenset[str],
                        aside: frozenset[str]) -> bool:
    """Whether the clause `c` is about what the claim is (charges.py, necessity.py): the
    claim's subject word `first` is the clause's, and the claim's other content words,
    the tokens in `aside` (the stance's own words) left out, are the clause's or, where
    the clause names nothing the claim does not, its passage's."""
    words = {crude_root(w) for t, w in p.pairs if t not in aside}
    theirs = {crude_root(w) for t, w in c.pairs if t not in aside}
    if crude_root(first) not in theirs:
        return False
    left = words - theirs
    if theirs <= words:  # (a clause naming nothing of its own: the passage's topic)
        left -= {crude_root(w) for w in passage}
    return not left


# what sets a case apart from a ban ("not allowed without a ticket", "except on Sundays")
_CASES = frozenset({"without", "unless", "except", "apart", "but", "if", "only"})


def same_ban(p: Part, other: Part) -> bool:
    """Whether both sides forbid, one by a negated act ("Guests may not bring X"), the
    other by a negated leave ("Bringing X is not allowed"): the negations bear on
    different words, so they do not pair up in `polarity.polarity`'s count, yet both
    say the one ban. Neither side under a case of its own ("without", "unless")."""
    if _CASES & (set(p.info.tokens) | set(other.info.tokens)):
        return False
    return stance(p) == FORBIDDEN and stance(other) == FORBIDDEN

