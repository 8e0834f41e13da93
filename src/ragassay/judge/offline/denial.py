"""A claim that asserts something of what a short context sentence denies: "Yes, you can
keep a cockerel on your plot with written permission" where the contexts say "Cockerels
are not permitted" beside "Tenants may keep chickens ... with written permission"; "the
bays take banknotes as well as cards" beside "They do not accept banknotes".

Alignment finds no conflict there: the denial is too short to restate the claim (it
shares one word with it), and the sentence the claim does restate says nothing of the
denied thing. The denial's words, all but the one its negation bears on, are the
claim's (an -ing form as its verb: "Camping is not permitted in the woodland" / "you can
camp in the woodland"), not as its subject (the claim speaks of them; a claim said to a
person, "You can ...", has none), and the claim denies nothing and says nothing that
negates by itself ("free", "except"): it asserts what the context denies, with a word
of letting in, taking or offering, or (session 17) with "can" / "may" before the
activity a denial names by its -ing form ("Camping is not permitted ..."; "Bicycles
are not permitted on the trail" names a thing, and "You can lock your bicycle at the
racks" asserts none on it). One of the conflicts claim-level alignment checks
(alignment.py).
"""

from __future__ import annotations

from .clauses import Part, clause_parts
from .inflection import ing_base
from .lexical import antonym_stems, stem
from .scope import TIMES
from .units import Unit, Units

_MIN_WORDS = 2  # (alignment.MIN_WORDS: a denied predicate has more)
MAX_DENIAL_WORDS = 4  # a denial of more content words is a claim of its own to restate
# what such a denial denies: that something is let in, taken, offered or covered (a
# denial of anything else, "the ratio will not change", is no answer to "can I")
_ADMITS_TEXT = """
    permitted allowed accepted accept take taken available included include offered offer
    sold sell provided provide used use suitable eligible covered cover supported support
    possible stocked stock admitted admit welcome left leave keep bring brought store park
"""
_ADMITS = frozenset(stem(w) for w in _ADMITS_TEXT.split())
# a claim that one may ("You can swim in the lake"), said to a person or not
_MAY = frozenset({"can", "may"})
_PERSONS = frozenset({"you", "we", "i", "they"})
# a denial under a condition or a limit says less than "never" ("not limited to", "will
# not change if ...", "does not ... unless ...")
_HEDGED = frozenset({"if", "unless", "until", "when", "only", "just", "limited", "than",
                     "always", "necessarily", "all", "every", "before", "after", "between",
                     "during"})  # (a time bound: "not permitted ... before 6pm")
# words that deny by themselves: a claim with one may say what the denial says
_NEGATIVE = frozenset({"free", "without", "except", "excluding", "excluded", "closed",
                       "banned", "forbidden", "prohibited", "only", "instead", "rather",
                       "but", "unless", "apart", "other"})


def denied_elsewhere(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence that denies, of something the claim speaks of, what the
    claim asserts of it (module docstring); None when there is none."""
    if not p.words or any(h is not None for h in p.negations) or (
            _NEGATIVE & set(p.info.tokens)):
        return None
    toks = p.info.tokens
    admits = bool(p.stems & _ADMITS)
    may = [toks[k + 1] for k, t in enumerate(toks[:-1]) if t in _MAY]  # "can swim": swim
    if not admits and not may:
        return None  # it asserts no letting in, taking or offering ("lock your bicycle")
    # "You can swim in the lake": said to a person, its first content word is no subject
    subject = p.first if not toks or toks[0] not in _PERSONS else None
    opposed = frozenset().union(*(antonym_stems(t) for t, _ in p.pairs))
    for u in units.near(p, doc, 1):
        heads = u.part.negations
        # (a sentence's own words: not what "They do not accept banknotes" takes from the
        # sentence before, whose subject the claim shares)
        words = u.part.words if not u.clause else u.words
        if len(heads) != 1 or heads[0] is None or len(words) > MAX_DENIAL_WORDS:
            continue
        h = heads[0]
        if h not in _ADMITS or len(u.sentence.negations) != 1 or (
                _HEDGED & set(u.sentence.info.tokens)):
            continue
        rest = words - {h}
        said = [t for t, w in u.part.pairs if w in rest]
        if not admits and not (said and said[0].endswith("ing") and any(
                same_verb(said[0], v) for v in may)):
            continue  # "can" asserts what "Swimming is not allowed" denies, not what
            # "Bicycles are not permitted" does ("You can lock your bicycle ...")
        if (rest and all(any(same_verb(t, c) for c, _ in p.pairs) for t in said)
                and subject not in rest and h not in p.stems and h not in opposed):
            return u.row
    return None


def same_verb(a: str, b: str) -> bool:
    """Whether two tokens are one word, an -ing form read as its verb ("Swimming is
    not allowed" / "you can swim", "diving" / "dive", "parking" / "park")."""
    return a == b or stem(a) == stem(b) or verb_of(a, b) or verb_of(b, a)


def verb_of(ing: str, verb: str) -> bool:
    """Whether `ing` is the -ing form of `verb` ("diving" / "dive", "swimming" / "swim")."""
    base = ing_base(ing)
    return base is not None and len(base) >= 3 and verb in (base, base + "e")


def denies_of_part(u: Unit, p: Part) -> bool:
    """Whether the unit denies, of something the universal claim includes, what the
    claim says, its predicate in other words ("Contractors are not eligible for the
    allowance" against "All staff, contractors included, receive the allowance"): a
    negation whose word the claim lacks, every other word of the unit in the claim."""
    if not u.clause and len(clause_parts(u.sentence.text)) > 1:
        return False  # a negation of one clause: its clause is a unit of its own
    if all(h in TIMES for h in p.quantified if h is not None) and None not in p.quantified:
        return False  # "at any time" says when, not of whom
    for h in u.part.negations:
        if h is not None and h not in p.stems:
            rest = u.words - {h}
            if len(rest) > _MIN_WORDS and rest <= p.words:
                return True
    return False
