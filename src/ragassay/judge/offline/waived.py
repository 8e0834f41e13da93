"""What an obligation rules out, granted (issue #38): "must be accompanied by an adult"
against "can climb on their own", "Booking is required" against "can be joined without
booking", "Helmets must be worn" against "You can skate without a helmet", and the
reverse ("may swim unsupervised" against "must be supervised"). The grant names the
obligation's complement, not its negation: what it goes without ("without X", an
"un-" participle: "unsupervised", "unescorted") or the company it does without
("alone", "on their own", "by themselves"). The two sides share no negation to count,
so `polarity.polarity` does not see these; `polarity.unit_flip` asks here after the
deontic and necessity stances."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, is_negation
from .deontic import PERMITTED, stance
from .lexical import crude_root
from .units import Unit

# a grant's doing without company: what a duty of company ("accompanied") rules out
_ALONE = frozenset({"alone", "unaccompanied", "solo", "unsupervised", "unescorted",
                    "unattended"})
_OWN = frozenset({"their", "your", "his", "her", "its", "our", "my"})
_SELVES = frozenset({"themselves", "yourself", "yourselves", "himself", "herself", "itself",
                     "myself", "ourselves"})
# duties of company: someone else with the one who acts
_COMPANY = frozenset(crude_root(w) for w in ("accompanied", "supervised", "escorted",
                                             "chaperoned", "attended"))
COMPANY = "<company>"
_HAVE = frozenset({"have", "has", "need", "needs"})
_REQUIRED = frozenset({"required", "needed", "essential", "compulsory", "mandatory",
                       "necessary", "obligatory", "requires", "require"})
_BE = frozenset({"is", "are", "be"})
# a condition that narrows one side to a case ("if a parent watches", "once trained")
_CASES = frozenset({"if", "unless", "when", "while", "except", "provided", "once", "after",
                    "until", "only", "but"})
_FUNCTION = frozenset({"a", "an", "the", "any", "your", "their", "being", "having", "first",
                       "prior", "valid", "original"})
_BOUNDARY = frozenset({",", ";", ".", "and", "or", "if", "unless", "when", "but", "in", "at",
                       "on", "for", "to", "from", "of"})


def waived(p: Part) -> frozenset[str]:
    """The crude roots of what a clause does without ("without a helmet": "helm";
    "unsupervised": "supe"), with COMPANY for a doing without company ("alone", "on
    their own", "by themselves")."""
    toks = p.info.tokens[p.info.lead:]
    out: set[str] = set()
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t in _ALONE or (t == "on" and nxt in _OWN and toks[i + 2:i + 3] == ("own",)) or (
                t == "by" and nxt in _SELVES):
            out.add(COMPANY)
        if t.startswith("un") and t.endswith("ed") and len(t) > 6:
            out.add(crude_root(t[2:]))
        if t == "without":
            for w in toks[i + 1:]:
                if w in _BOUNDARY:
                    break
                if w.isalpha() and w not in _FUNCTION:
                    out.add(crude_root(w))
    return frozenset(out)


def obliged(p: Part) -> bool:
    """Whether the clause imposes a duty, undenied: "must X" (not "must not"), "has to",
    "needs to", "is required", "requires"."""
    toks = p.info.tokens[p.info.lead:]
    if any(is_negation(t) or t == "no" for t in toks):
        return False
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if t == "must" or (t in _HAVE and nxt == "to") or (
                t in _REQUIRED and (t.startswith("requi") and t.endswith("s")
                                    or (i and toks[i - 1] in _BE))):
            return True
    return False


def _granted_without(p: Part) -> frozenset[str]:
    """What an undenied grant does without; empty where the clause grants nothing, or
    denies."""
    if stance(p) != PERMITTED or any(h is not None for h in p.negations):
        return frozenset()
    return waived(p)


def _roots(p: Part) -> set[str]:
    return {crude_root(w) for w in p.info.tokens[p.info.lead:] if w.isalpha()}


def _cases_apart(grant: Part, duty: Part) -> bool:
    """Whether either side is under a case the other does not state: the grant's any
    condition the duty lacks; the duty's one whose next content word the grant lacks
    ("must be supervised when working on live circuits" is about working on them)."""
    gtoks, dtoks = grant.info.tokens, duty.info.tokens
    if (set(gtoks) & _CASES) - set(dtoks):
        return True
    groots = _roots(grant)
    for i, t in enumerate(dtoks):
        if t in _CASES and t not in gtoks:
            nxt = next((w for w in dtoks[i + 1:] if w.isalpha() and len(w) > 3), None)
            if nxt is None or crude_root(nxt) not in groots:
                return True
    return False


def _turned(grant: Part, duty: Part) -> bool:
    off = _granted_without(grant)
    if not off or not obliged(duty) or grant.figures and not duty.figures:
        return False
    droots = _roots(duty)
    hit = {w for w in off if w in droots}
    if COMPANY in off and _COMPANY & droots:
        hit.add(COMPANY)
    if not hit or _cases_apart(grant, duty):
        return False
    words = {crude_root(w) for t, w in grant.pairs if t not in _ALONE | {"without"}} - off
    dwords = {crude_root(w) for _, w in duty.pairs}
    shared = words & dwords
    return len(shared) >= max(1, len(words - dwords))


def turned_waiver(p: Part, u: Unit) -> bool:
    """Whether the claim grants what the unit's duty rules out, or imposes the duty
    whose complement the unit grants: one side an undenied grant doing without a thing
    (`waived`), the other an undenied duty (`obliged`) naming that thing (or, for a
    doing without company, a duty of company), about the same act (the grant's other
    content words mostly the duty's), neither side under a case of its own."""
    return _turned(p, u.part) or _turned(u.part, p)


def waiver_row(p: Part, near: Sequence[Unit]) -> int | None:
    """The context sentence of the unit sharing most words with the claim that
    `turned_waiver` turns against it; None when there is none."""
    rows = [(len(p.words & u.words), u.row) for u in near if turned_waiver(p, u)]
    return max(rows)[1] if rows else None
