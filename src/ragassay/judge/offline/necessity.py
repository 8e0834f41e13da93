"""Whether a clause says a thing is needed or not needed, and whether a claim and a
unit of its passage take opposite stances on the same thing (issue #38: "A deposit is
optional" against "A deposit of £50 is required", "Booking isn't needed" against
"Booking is essential", "Gloves are required" against "Gloves are recommended but
not required"). Words of necessity differ between the two sides ("needed" /
"essential", "optional" / "required"), so `polarity.polarity`, which reads negations
of a word both sides state, does not see these; `polarity.unit_flip` and
`polarity.turned_elsewhere` ask here after the deontic stance (`deontic.turned_row`)."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, is_negation
from .deontic import closest_turned, same_subject_matter
from .lexical import crude_root
from .units import Unit, Units

REQUIRED, OPTIONAL = "required", "optional"
# predicates of necessity, after a form of "be" ("is essential", "are not required")
_NEEDED = frozenset({"required", "needed", "essential", "compulsory", "mandatory",
                     "necessary", "obligatory"})
# verbs of necessity ("requires a deposit", "doesn't need a licence")
_NEED_VERBS = frozenset({"require", "requires", "need", "needs"})
_NOT_NEEDED = frozenset({"optional", "voluntary", "unnecessary"})
_BE = frozenset({"is", "are", "be", "was", "were", "been", "isn't", "aren't", "not"})
_NONE = frozenset({"no", "nothing", "none"})
_BEFORE = 3  # tokens before a word of necessity a negation of it stands within
# a claim or a unit under a condition or a bound says the stance only then
_QUALIFIERS = frozenset({"if", "unless", "when", "only", "except", "under", "over",
                         "before", "after", "until", "within", "once", "while"})
# advice beside a stance, no content of its own ("recommended but not required")
_ADVISED = frozenset({"recommended", "advised", "encouraged"})
WORDS = _NEEDED | _NEED_VERBS | _NOT_NEEDED | _ADVISED


def need(p: Part) -> str | None:
    """REQUIRED or OPTIONAL when every word of necessity of the clause says the one ("is
    required", "needs", "is optional", "isn't needed", "not required"); None when it
    has none, or both."""
    toks = p.info.tokens[p.info.lead:]
    found = set()
    for i, t in enumerate(toks):
        near = toks[max(0, i - _BEFORE):i]
        if t in _NOT_NEEDED:  # ("not optional": required)
            found.add(REQUIRED if any(is_negation(x) for x in near) else OPTIONAL)
        elif (t in _NEEDED and i and toks[i - 1] in _BE) or (
                t in _NEED_VERBS and i + 1 < len(toks) and toks[i + 1] != "to"):
            # ("is not required"; "No previous experience is needed": "no" anywhere before;
            # "requires no special kit": its object denied)
            denied = any(is_negation(x) for x in near) or any(x in _NONE for x in toks[:i]) or (
                t in _NEED_VERBS and toks[i + 1] in _NONE)
            found.add(OPTIONAL if denied else REQUIRED)
        elif obligation(toks, i):  # ("must be worn"; not "must not")
            found.add(OPTIONAL if any(is_negation(x) for x in near) else REQUIRED)
    return found.pop() if len(found) == 1 else None


_MUST = frozenset({"must"})


def obligation(toks: tuple[str, ...], i: int) -> bool:
    """Whether the token at `i` is a modal of obligation with its verb: "must" not
    followed by a negation ("must not" forbids, it says nothing of need)."""
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return toks[i] in _MUST and bool(nxt) and not is_negation(nxt)


def turned_need(p: Part, u: Unit, passage: frozenset[str]) -> bool:
    """Whether the claim and the unit say the opposite of whether the same thing is
    needed: both name the claim's subject; the claim's other content words, its words
    of necessity and advice aside, are the unit's, or, where the unit names nothing
    the claim does not, its passage's (`passage`: "Booking isn't needed for the pottery
    class" / "Booking is essential", of a passage on the pottery class; not "for the
    walk-in clinic" / "... for the travel clinic"); neither side under a condition or
    bound the other lacks, and no figure on the claim's side the unit lacks (a bound's:
    "no deposit is needed under £100")."""
    mine, theirs = need(p), need(u.part)
    if mine is None or theirs is None or mine == theirs or p.first is None or any(
            v not in {w for w, _ in u.part.figures} for v, _ in p.figures):  # (the unit's
        # own figures are no bound of the claim's: "on the 20 km trail" both sides)
        return False
    toks, utoks = set(p.info.tokens), set(u.part.info.tokens)
    if (toks & _QUALIFIERS) - utoks or (utoks & _QUALIFIERS) - toks:
        return False
    return same_subject_matter(p, p.first, u.part, passage, WORDS)


def need_row(p: Part, near: Sequence[Unit], units: Units) -> int | None:
    """The context sentence of the unit closest to the claim (most shared words) that
    says the opposite of whether what the claim is about is needed (`turned_need`),
    where no unit as close says it the claim's way. None when there is none."""
    return closest_turned(p, near, need, lambda p, u: turned_need(p, u, units.passage(u.row)))


_HAVE_TO = frozenset({"have", "has", "need", "needs"})


def _denied_have_to(p: Part) -> str | None:
    """The verb a clause says one does not have to do ("You don't have to book", "no
    need to book", "needn't book": "book"), as its crude root; None when it says none."""
    toks = p.info.tokens[p.info.lead:]
    for i in range(len(toks) - 2):
        if toks[i] in _HAVE_TO | {"need"} and toks[i + 1] == "to" and (
                any(is_negation(x) for x in toks[max(0, i - _BEFORE):i])):
            return crude_root(toks[i + 2])
    return None


def same_denied_need(p: Part, u: Part) -> bool:
    """Whether one side says one doesn't have to do a thing and the other that the thing
    is not needed ("You don't have to reserve" / "Reservations are not required"): the
    same stance in two shapes, which a count of negations reads as turned (the one
    negates the act, the other the word of necessity)."""
    for a, b in ((p, u), (u, p)):
        act = _denied_have_to(a)
        if act is not None and need(b) == OPTIONAL and act in {
                crude_root(w) for w in b.info.tokens}:
            return True
    return False


def needless_in_one_word(p: Part, u: Part, ours: int, theirs: int) -> bool:
    """Whether the claim `p` (`ours` negations) and the sentence `u` (`theirs`) say the
    same need, one side in one word ("Helmets are optional" / "Helmets are not
    required", "A deposit is not optional" / "A deposit is required"): both sides read
    alike (`need`), they part by one negation, and the side short of it holds a word of
    no necessity ("optional", "voluntary", "unnecessary") with no negation before it
    while the other side has none of those words (its negation is the one that says so)."""
    if abs(ours - theirs) != 1 or need(p) is None or need(p) != need(u):
        return False
    short, long = (p, u) if ours < theirs else (u, p)
    stoks = short.info.tokens
    plain = [i for i, t in enumerate(stoks) if t in _NOT_NEEDED and not any(
        is_negation(x) for x in stoks[max(0, i - _BEFORE):i])]
    return bool(plain) and not _NOT_NEEDED & set(long.info.tokens)
