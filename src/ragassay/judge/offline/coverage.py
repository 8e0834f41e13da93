"""Whether a clause says a plan, package or price covers a thing or leaves it out, and
whether a claim and a unit of its passage take opposite stances on the same thing
(issue #38: "The basic plan covers dental treatment" against "The basic plan excludes
dental treatment", "The kit comes with batteries" against "The kit doesn't include
batteries", "Sauna access is not part of the membership" against "The membership covers
sauna access"). The two sides say it with different verbs ("covers" / "excludes", "comes
with" / "doesn't include"), so `polarity.polarity`, which reads negations of a word both
sides state, does not see these; `polarity.turned_elsewhere` and `polarity.unit_flip`
ask here after the stance of price (`charges.turned_charge`)."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, clause_parts, is_negation
from .deontic import closest_turned, same_subject_matter
from .lexical import crude_root
from .units import Unit, Units

COVERED, LEFT_OUT = "covered", "left out"
_BE = frozenset({"is", "are", "be", "was", "were", "been", "being", "isn't", "aren't",
                 "wasn't", "weren't", "not", "also", "always", "fully", "as"})
# what a base-form verb follows ("does not include", "won't cover", "to cover")
_AUX = frozenset({"does", "do", "did", "doesn't", "don't", "didn't", "not", "will", "won't",
                  "would", "can", "can't", "cannot", "may", "might", "to", "also", "always"})
_INCLUDE = frozenset({"includes", "include", "included", "covers", "cover", "covered"})
_EXCLUDE = frozenset({"excludes", "exclude", "excluded"})
_COME = frozenset({"comes", "come"})
_BEFORE = 3  # tokens before a stance word a negation of it stands within
# a claim or a unit under a condition or a bound says the stance only then ("covered
# if you add the extra", "excluded for the first 30 days", "covered except for ...")
_QUALIFIERS = frozenset({"if", "unless", "when", "only", "except", "under", "over", "before",
                         "after", "until", "within", "once", "while", "between", "during",
                         "up", "more", "less", "than", "first", "outside", "beyond", "but",
                         "apart", "extra", "additional", "optional", "cost", "costs", "pay",
                         "charge", "fee", "price"})
WORDS = _INCLUDE | _EXCLUDE | _COME | frozenset({"with", "part", "does", "do", "doesn't",
                                                 "don't", "also", "fully", "always"})


def _read(toks: tuple[str, ...], i: int) -> str | None:
    """The stance the word at `i` takes, before any negation of it; None for none ("the
    home contents cover", "seat covers are", "comes from", "a part for")."""
    t, prev = toks[i], toks[i - 1] if i else ""
    after = toks[i + 1] if i + 1 < len(toks) else ""
    if t in {"included", "covered", "excluded"}:  # the predicate: "is covered", "are excluded"
        return (LEFT_OUT if t == "excluded" else COVERED) if prev in _BE else None
    if t in {"include", "cover", "exclude"}:  # the base verb after an auxiliary
        return (LEFT_OUT if t == "exclude" else COVERED) if prev in _AUX else None
    if t in {"includes", "covers", "excludes"}:  # the verb, not a plural noun ("seat covers are")
        if after in _BE or after in {"", ".", ",", "and", "or"}:
            return None
        return LEFT_OUT if t == "excludes" else COVERED
    if t in _COME and after == "with":
        return COVERED
    if t == "part" and after == "of" and prev in _BE:
        return COVERED
    return None


def coverage(p: Part) -> str | None:
    """COVERED or LEFT_OUT when every word of the clause that says whether a thing is
    covered says the one; None when it has none, or both."""
    toks = p.info.tokens[p.info.lead:]
    found = set()
    for i in range(len(toks)):
        said = _read(toks, i)
        if said is None:
            continue
        denied = any(is_negation(x) for x in toks[max(0, i - _BEFORE):i])
        found.add(said if not denied else LEFT_OUT if said == COVERED else COVERED)
    return found.pop() if len(found) == 1 else None


def turned_coverage(p: Part, u: Unit, passage: frozenset[str]) -> bool:
    """Whether the claim and the unit say the opposite of whether the same thing is
    covered, read of the unit's clause that says it where the unit says both ("covers
    fillings but excludes crowns": "The plan covers crowns"); neither side under a
    condition, bound or price its sentence lacks, no figure on the claim's side."""
    mine = coverage(p)
    if mine is None or p.figures:
        return False
    toks, utoks = set(p.info.tokens), set(u.sentence.info.tokens)
    if (toks & _QUALIFIERS) - utoks or (utoks & _QUALIFIERS) - toks:
        return False
    if coverage(u.part) is not None:
        return _turned(p, mine, u.part, passage)
    return any(_turned(p, mine, c, passage) for c in clause_parts(u.part.text))


def _turned(p: Part, mine: str, c: Part, passage: frozenset[str]) -> bool:
    """Whether the clause `c` takes the other stance than the claim's (`mine`) on what
    the claim is about: the claim's first content word but a word of the stance is the
    clause's, and its other content words are the clause's, or, where the clause names
    nothing the claim does not, its passage's; no figure in the clause."""
    theirs = coverage(c)
    first = next((w for t, w in p.pairs if t not in WORDS), None)
    if theirs is None or theirs == mine or c.figures or first is None:
        return False
    return same_subject_matter(p, first, c, passage, WORDS)


def coverage_row(p: Part, near: Sequence[Unit], units: Units) -> int | None:
    """The context sentence of the unit closest to the claim (most shared words) that
    says the opposite of whether what the claim is about is covered (`turned_coverage`),
    where no unit as close says it the claim's way. None when there is none."""
    return closest_turned(p, near, coverage,
                          lambda p, u: turned_coverage(p, u, units.passage(u.row)))


def same_coverage(p: Part, u: Unit) -> bool:
    """Whether a clause of the unit's sentence takes the claim's stance on all the claim
    names ("Acupuncture is not covered by the plan" / "The plan covers physiotherapy but
    excludes acupuncture"): the sentence names all the claim does, the clause nothing
    the claim does not; a negation counted against the other clause ("covers
    physiotherapy") is then no flip."""
    mine = coverage(p)
    if mine is None:
        return False
    words = _content(p)
    if not words or not words <= _content(u.sentence):
        return False
    return any(coverage(c) == mine and _content(c) and _content(c) <= words
               for c in clause_parts(u.sentence.text))


def _content(p: Part) -> set[str]:
    return {crude_root(w) for t, w in p.pairs if t not in WORDS}
