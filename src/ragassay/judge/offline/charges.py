"""Whether a clause says a thing comes at no charge or is paid for, and whether a claim
and a unit of its passage take opposite stances on the same thing (issue #38: "Wi-Fi
costs extra" against "Wi-Fi is included with every room", "Members are charged the
booking fee" against "The booking fee is waived for members", "Late cancellations are
free of charge" against "Late cancellations are charged in full"). The two sides say it
in different words ("included" / "extra", "waived" / "charged", "complimentary" / "pay
for"), so `polarity.polarity`, which reads negations of a word both sides state, does
not see these; `polarity.turned_elsewhere` and `polarity.unit_flip` ask here after the
stance of necessity (`necessity.turned_need`)."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, clause_parts, is_negation
from .counts import is_number
from .deontic import closest_turned, same_subject_matter
from .units import Unit, Units

FREE, CHARGED = "free", "charged"
_BE = frozenset({"is", "are", "be", "was", "were", "been", "being", "isn't", "aren't",
                 "wasn't", "weren't", "not", "get", "gets", "go", "goes", "travel",
                 "travels", "enter", "enters", "come", "comes", "for", "always", "also"})
# said at no charge as a predicate ("is free", "are included", "is waived", "for free")
_AT_NO_CHARGE = frozenset({"free", "included", "complimentary", "waived", "exempt", "exempted"})
# paid for as a predicate ("is charged", "are chargeable", "is payable", "is extra")
_PAID = frozenset({"charged", "chargeable", "payable", "extra"})
# verbs of paying ("pay for towels", "costs extra", "charges for parking")
_PAY_VERBS = frozenset({"pay", "pays", "paying", "cost", "costs", "charge", "charges"})
# what a "no" before a word of paying turns ("at no extra cost", "no charge")
_NONE = frozenset({"no", "nothing", "without"})
# nouns of a price a stance is said in ("included in the price", "free of charge")
_PRICE_NOUNS = frozenset({"price", "prices", "rate", "rates", "cost", "charge", "charges",
                          "fare", "fee", "fees", "extra", "additional"})
# what may follow a predicate "extra" ("is extra for groups"), no noun it modifies
_AFTER_EXTRA = frozenset({"", ".", ",", ";", "for", "and", "but", "if", "on", "at", "per",
                          "when", "unless", "though", "although", "to"})
_BEFORE = 3  # tokens before a stance word a negation of it stands within
# a claim or a unit under a condition or a bound says the stance only then ("free for
# stays under 2 hours", "charged after 6pm")
_QUALIFIERS = frozenset({"if", "unless", "when", "only", "except", "under", "over", "before",
                         "after", "until", "within", "once", "while", "between", "during",
                         "up", "more", "less", "than", "first", "outside", "beyond"})
WORDS = _AT_NO_CHARGE | _PAID | _PAY_VERBS | _PRICE_NOUNS | {"includes", "include", "have",
                                                              "has", "must", "need"}


def _read(toks: tuple[str, ...], i: int) -> str | None:
    """The stance the word at `i` takes, before any negation of it; None for none ("free
    to leave", "feel free", "charge your phone", "an extra bed")."""
    t, prev = toks[i], toks[i - 1] if i else ""
    after = toks[i + 1] if i + 1 < len(toks) else ""
    if t == "free":
        if after == "of":  # "free of charge", not "free of nuts"
            return FREE if i + 2 < len(toks) and toks[i + 2] in {"charge", "cost"} else None
        return FREE if prev in _BE and after not in {"to", "time", "from"} else None
    if t in {"exempt", "exempted"}:  # "are exempt from the fee"; not "exempt from jury duty"
        return FREE if prev in _BE and after == "from" and bool(
            _PRICE_NOUNS.intersection(toks[i + 2:i + 6])) else None
    if t in {"included", "complimentary", "waived"}:
        return FREE if prev in _BE or t == "complimentary" else None
    if t in {"includes", "include"}:
        return FREE
    if t == "extra":  # "costs extra", "is extra", "at extra cost"; not "is extra seating"
        return CHARGED if (prev in _BE | _PAY_VERBS and after in _AFTER_EXTRA) or after in {
            "cost", "charge", "fee"} else None
    if t in {"charged", "chargeable", "payable"}:
        return CHARGED if prev in _BE or t != "charged" else None
    if t in {"pay", "pays", "paying"}:
        return CHARGED if after in {"for", "the", "a", "an", "extra"} | _NONE or prev in {
            "to", "must", "will", "have", "has", "need"} else None
    if t in {"cost", "costs"}:  # "costs nothing": no price
        if t == "cost" and prev in _NONE:
            return CHARGED  # the noun: "at no cost", "without cost" (the "no" turns it)
        # ("costs £4": a price; its figure is the price, no bound: `_priced`)
        return FREE if after in _NONE else CHARGED if after == "extra" or is_number(
            after) and after not in {"0", "0.00"} else None
    if t in {"charge", "charges"}:  # "charge for parking", "a charge", "no charge"
        return CHARGED if after == "for" or prev in {"a", "an", "extra", "additional",
                                                     "no", "without"} else None
    return None


def charge(p: Part) -> str | None:
    """FREE or CHARGED when every word of the clause that says whether a thing is paid
    for says the one; None when it has none, or both."""
    toks = p.info.tokens[p.info.lead:]
    found = set()
    for i, t in enumerate(toks):
        said = _read(toks, i)
        if said is None:
            continue
        near = toks[max(0, i - _BEFORE):i]
        denied = any(is_negation(x) or x in _NONE for x in near) or (
            t in {"pay", "pays", "paying"} and i + 1 < len(toks) and toks[i + 1] in _NONE)
        found.add(said if not denied else FREE if said == CHARGED else CHARGED)
    return found.pop() if len(found) == 1 else None


def turned_charge(p: Part, u: Unit, passage: frozenset[str]) -> bool:
    """Whether the claim and the unit say the opposite of whether the same thing is paid
    for (`_turned`), read of the unit's clause that says it where the unit says both
    ("Entry is free, but the special exhibition costs extra": "The special exhibition is
    free"); neither side under a condition or bound its sentence lacks ("waived if you
    book online" says nothing against "is charged"), no figure on the claim's side (a
    price or a bound of its own, read by the number checks)."""
    mine = charge(p)
    if mine is None or p.figures:
        return False
    toks, utoks = set(p.info.tokens), set(u.sentence.info.tokens)
    if (toks & _QUALIFIERS) - utoks or (utoks & _QUALIFIERS) - toks:
        return False
    if charge(u.part) is not None:  # (a price only where the sentence is one clause)
        return _turned(p, mine, u.part, passage, len(clause_parts(u.sentence.text)) == 1)
    # (a price beside a stance the other way, "costs £4, but it's free for members":
    # what the price is of is left to the number checks)
    return any(_turned(p, mine, c, passage, priced=False) for c in clause_parts(u.part.text))


def _turned(p: Part, mine: str, c: Part, passage: frozenset[str], priced: bool = True) -> bool:
    """Whether the clause `c` takes the other stance than the claim's (`mine`) on what
    the claim is about: the claim's subject (its first content word but a word of paying,
    "You have to pay for towels") is the clause's; its other content words, the words of
    price and stance aside, are the clause's, or, where the clause names nothing the
    claim does not, its passage's; no figure in the clause but the price it states
    (`_priced`, where `priced`)."""
    theirs = charge(c)
    first = next((w for t, w in p.pairs if t not in WORDS), None)
    if theirs is None or theirs == mine or first is None:
        return False
    if c.figures and not (priced and _priced(c)):
        return False
    return same_subject_matter(p, first, c, passage, WORDS)


def _priced(c: Part) -> bool:
    """Whether every figure of the clause is the price a verb of cost states right
    before it ("The audio guide costs £4"), none a bound or a count ("free on orders
    over £40", "costs £4 for 2 hours")."""
    toks = c.info.tokens
    at = [i for i, t in enumerate(toks) if is_number(t)]
    return bool(at) and len(at) == len(c.figures) and all(
        i and toks[i - 1] in {"cost", "costs"} for i in at)


def charge_row(p: Part, near: Sequence[Unit], units: Units) -> int | None:
    """The context sentence of the unit closest to the claim (most shared words) that
    says the opposite of whether what the claim is about is paid for (`turned_charge`),
    where no unit as close says it the claim's way. None when there is none."""
    return closest_turned(p, near, charge,
                          lambda p, u: turned_charge(p, u, units.passage(u.row)))
