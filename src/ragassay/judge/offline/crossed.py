"""A claim that says what one context unit says of its own thing of another named thing,
one that another unit is about (claim-level alignment, session 22, issue #38's entity
swaps): "Helen does laptop repairs at the front desk" for "Laptop repairs are done by
Marcus at the front desk" beside "Helen looks after phone screens ...".

The claim restates a unit U (a context sentence or clause) but for a word or two (NEW)
that U lacks and that are among what the claim is about (its entity words); U names a
thing of its own (an entity word: its subject, a name) that the claim lacks. NEW is
what another unit V is about (among V's entity words), V's subject is a thing U does
not mention (not a bridge: "The front desk is open on Saturdays" is about a
place U names), V lacks U's own thing, the claim says nothing of V's own besides
NEW and says at least MIN_SAID of U's words V lacks (or a figure of U's), no unit
says NEW with them, and no unit (a clause of U's sentence) says the rest of the claim
leaving no thing of its own out ("Guided tours of <castle> leave from the main gate"
against "Guided tours leave from the main gate, run by <operator>"). Left alone: a
denied claim, a comparison, a claim of many new words, a claim or a unit with a pronoun
(what it refers to may be NEW).
"""

from __future__ import annotations

from .attributed import entity_words, subject_run
from .clauses import Part
from .framed import COMPARES, framed
from .units import Unit, Units

MAX_NEW = 2  # content words of the claim the unit lacks, at most
MIN_SAID = 2  # the unit's own words (V lacks) the claim says, without a figure
_REFERRING = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "this",
                        "these", "that", "those", "there", "it's"})


def _candidates(units: Units, new: frozenset[str], doc: int | None) -> list[Unit]:
    """The context units (sentences and their clauses) that state every word of NEW."""
    rows = set.intersection(*(set(units.by_stem.get(w, ())) for w in new))
    out: list[Unit] = []
    for j in sorted(rows):
        if doc is not None and units.ctx.docs[j] != doc:
            continue
        out += [u for u in (units.sentence(j), *units.clauses(j)) if new <= u.words]
    return out


def crossed(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose unit's fact the claim gives to another unit's thing
    (module docstring), or None; first, one named in the same frame (framed.py:
    "Zone B", "items found on trams")."""
    if (row := framed(claim, units, doc)) is not None:
        return row
    if any(claim.negations) or (COMPARES | _REFERRING) & set(claim.info.tokens):
        return None  # (a denial, a comparison, a pronoun: what it is about is not read)
    about = entity_words(claim)
    said_values = frozenset(n for n, _ in claim.figures)
    near = units.near(claim, doc, MIN_SAID)
    for u in near:
        new = claim.words - u.words
        own_u = entity_words(u.part) - claim.words
        if _REFERRING & set(u.sentence.info.tokens):
            continue  # ("It usually takes 3 days": it may be the thing NEW names)
        if not new or len(new) > MAX_NEW or not own_u or not new <= about or any(
                claim.words - new <= w.words and entity_words(w.part) <= claim.words
                for w in near):
            continue  # (a unit, a clause, says the rest with no thing of its own left out)
        for v in _candidates(units, new, doc):
            if v.row == u.row and not (v.clause and u.clause) or v.part == u.part:
                continue
            if not new <= entity_words(v.part) | subject_run(v.part):
                continue  # (NEW is not what V is about)
            if not subject_run(v.part) - u.words or own_u & v.words:
                continue  # (a bridge: V about what U names; or V names U's thing too)
            if (claim.words & v.words) - new - u.words or frozenset(claim.figures) & (
                    frozenset(v.part.figures) - frozenset(u.part.figures)):
                continue  # (the claim says something of V's own: a word, a figure)
            said = (claim.words & u.words) - v.words
            figures = said_values & (frozenset(u.part.info.values) - frozenset(
                v.part.info.values))
            if len(said) < MIN_SAID and not figures:
                continue
            if any(new | said <= w.words for w in units.near(claim, doc, len(new | said))):
                continue  # (another unit says it of NEW)
            return u.row
    return None
