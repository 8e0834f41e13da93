"""The question's thing given the answer another unit gives another thing (claim-level
alignment, session 27, issue #38's entity swaps): asked "Who do I contact to reschedule
a visit?" against "To reschedule a visit, call our bookings team ..." beside "For
billing questions, email our accounts team at ...", the answer "To reschedule, email
the accounts team at ..." keeps the question's thing and takes its answer from the
other unit.

A careful reader finds the units U about what the question asks and the claim says
(the anchor: words of the question, the claim and the contexts, all in U) and reads
what the claim adds to U (words neither U nor the question say: content words and
figures). The claim moved another unit V's answer onto U's thing when every added word
the contexts state is V's (at least one; at most one added word no context states),
V lacks part of the anchor in any form, U keeps words of its own the claim leaves out
(its own answer, replaced) that V does not say, V has words of its own the claim lacks,
U and V are parallel (a content word in common beyond the claim's, two weekdays or
alternatives the contexts offer, or the claim saying a moved word in the slot where U
says one of its own: "to | the standards office" for "to | the Traffic Centre"), and
the moved words share a clause of the claim with the anchor. Left alone: no question
(the anchor is not known), a denial, a comparison, a pronoun, a claim keeping all that
a unit about its thing says (it adds a fact, it moves none), a claim giving U's own
figures, a unit saying the anchor and the moved words together.

V may be another clause of U's own sentence (session 28): two coordinate clauses side
by side, the later opening on "and" / "while" / "whereas" / "but" or after a semicolon,
neither denying ("Drop-off is between 7am and 9am and pick-up between 4pm and 6pm"
against "You can drop off between 4pm and 6pm"); the sentence holding both is then no
unit saying the anchor with the moved words. Not a list cut into clauses, not a
correction ("... is not charged; a reduced fee applies instead").
"""

from __future__ import annotations

from .clauses import DETERMINERS, Part, clauses, lemma_stems
from .framed import COMPARES
from .units import Unit, Units
from .weeks import CALENDAR

MAX_ADDED = 6  # content words the claim adds to U and the question, at most
MAX_UNSTATED = 1  # of them, words no context states (the claim's own wording)
_REFERRING = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "this",
                        "these", "those", "it's"})
_NO_SLOT = {None, "and", "or", "but", "is", "are", "be"}
_JOINS = frozenset({"and", "while", "whilst", "whereas", "but"})
_LEADS = DETERMINERS | {"our", "your", "their", "my"}


def _figure(token: str) -> str | None:
    """A number token as `_said` writes its figure ("0002": "#2")."""
    if not token[:1].isdigit():
        return None
    try:
        return f"#{float(token.replace(',', '')):g}"
    except ValueError:
        return None


def _before(p: Part, words: frozenset[str]) -> str | None:
    """The word before the first of `words` in the part (a determiner or possessive
    skipped): the slot they stand in ("to | the Traffic Centre", "at | Gate C")."""
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    for i, (t, x) in enumerate(zip(toks, stems, strict=True)):
        if x in words or _figure(t) in words:
            k = i - 1
            while k >= 0 and toks[k] in _LEADS:
                k -= 1
            return toks[k] if k >= 0 else None
    return None


def _same_slot(claim: Part, moved: frozenset[str], u: Unit, own_u: frozenset[str]) -> bool:
    """Whether the claim says a moved word where the unit says one of its own ("send it
    to the standards office" against "sent to the Traffic Centre"; "Ward 12" against
    "Ward 7")."""
    slots = {_before(u.part, frozenset({o})) for o in own_u} - _NO_SLOT
    return any(_before(claim, frozenset({m})) in slots for m in moved)


def _parallel(u: Unit, v: Unit, claim: frozenset[str], units: Units) -> bool:
    """Whether two units speak of things of one kind: a content word in common the claim
    does not give, or two words of their own in one slot."""
    shared = (u.words & v.words) - claim - u.part.counted - v.part.counted
    if shared:
        return True
    own_u, own_v = u.words - v.words, v.words - u.words
    alt = units.alternatives
    return any((w in CALENDAR and x in CALENDAR) or alt(w, x) for w in own_u for x in own_v)


def _said(p: Part) -> frozenset[str]:
    """A part's content words and its figures (as "#value")."""
    return p.words | {f"#{n:g}" for n, _ in p.figures}


def _unit_said(u: Unit) -> frozenset[str]:
    """What a unit says, with the words its clause takes from its sentence."""
    return _said(u.part) | u.inherited


def _pieces(claim: Part, given: frozenset[str]) -> list[frozenset[str]]:
    """What each clause of the claim says, a clause of the question's words only ("To
    reschedule a visit, ...") read with the clause after it."""
    out: list[frozenset[str]] = []
    carried: frozenset[str] = frozenset()
    for c in clauses(claim.text):
        words = _said(c) | carried
        carried = words if not words - given else frozenset()
        if not carried:
            out.append(words)
    return out + ([carried] if carried else [])


def _lacks(words: frozenset[str], anchor: frozenset[str]) -> frozenset[str]:
    """The anchor words a unit does not say, in no form ("hired" says "hire")."""
    return frozenset(a for a in anchor if not any(
        w.startswith(a) or a.startswith(w) for w in words if min(len(w), len(a)) >= 4))


def _others(u: Unit, near: list[Unit], units: Units) -> list[Unit]:
    """The units another thing's answer may come from: the near units of other rows and
    the other clauses of U's own sentence ("Drop-off is between 7am and 9am and pick-up
    between 4pm and 6pm": each clause is about a thing of its own), near or not."""
    out = [v for v in near if v.row != u.row]
    if u.clause:
        sisters = units.clauses(u.row)
        out += [v for v in sisters if _apart(u, v) and _coordinate(u, v, sisters)]
    return out


def _coordinate(u: Unit, v: Unit, sisters: list[Unit]) -> bool:
    """Whether two clauses of a sentence state two facts side by side: neither denies
    (a correction, "... is not charged; a reduced fee applies instead"), and the later
    opens on a joining word or after a semicolon, not inside a list ("English, Spanish,
    Korean and Japanese")."""
    if u.part.negations or v.part.negations or u not in sisters or v not in sisters:
        return False
    later = max(u, v, key=sisters.index).part.info.tokens
    if not later:
        return False
    raw = u.sentence.info.text.lower()
    return later[0] in _JOINS or any(
        piece.strip().startswith(later[0]) for piece in raw.split(";")[1:])


def _apart(u: Unit, v: Unit) -> bool:
    """Whether two units are clauses of one sentence, neither holding the other."""
    return (u.clause and v.clause and u.row == v.row and u.part.text not in v.part.text
            and v.part.text not in u.part.text)


def _holds(w: Unit, u: Unit, v: Unit) -> bool:
    """Whether a unit holds both of two clauses of its sentence (the sentence itself):
    that it says U's anchor with V's words is no evidence they belong together."""
    return _apart(u, v) and w.row == u.row and (not w.clause or (
        u.part.text in w.part.text and v.part.text in w.part.text))


def answered_elsewhere(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The row of the unit whose thing the claim gives another unit's answer (module
    docstring), or None."""
    given = units.given
    if not given or any(claim.negations) or (COMPARES | _REFERRING) & set(claim.info.tokens):
        return None
    stated = frozenset(units.by_stem)
    anchor = claim.words & given & stated
    if not anchor:
        return None
    near = units.near(claim, doc, 1)
    said = _said(claim)
    about = [u for u in near if anchor <= u.words]
    if any(_unit_said(u) - given and not _unit_said(u) - said - given for u in about):
        return None  # (the claim keeps all a unit about its thing says: it adds, moves nothing)
    stated_said = stated.union(*(_said(units.sentence(j).part)
                                 for j in range(len(units.ctx.infos))))
    figures = frozenset(n for n, _ in claim.figures)
    pieces = _pieces(claim, given)
    for u in about:
        if figures and figures <= frozenset(n for n, _ in u.part.figures):
            continue  # (the claim gives the unit's own figures)
        own_u = _unit_said(u) - said - given
        added = said - _unit_said(u) - given
        if not added or len(added) > MAX_ADDED:
            continue
        moved = added & stated_said
        if len(added - stated_said) > MAX_UNSTATED or not moved:
            continue
        for v in _others(u, near, units):
            if not _lacks(v.words, anchor) or not moved <= _unit_said(v):
                continue
            own_v = _unit_said(v) - said - given
            if not own_v or own_u <= v.words or not (
                    _parallel(u, v, claim.words, units) or _same_slot(claim, moved, u, own_u)):
                continue
            if not any(moved <= c and anchor & c for c in pieces):
                continue  # (the added words in a clause of their own: a further fact)
            if any(anchor | moved <= _unit_said(w) for w in near if not _holds(w, u, v)):
                continue  # (a unit says the anchor with the added words)
            return u.row
    return None
