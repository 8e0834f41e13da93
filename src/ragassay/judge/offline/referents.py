"""A clause whose subject stands for something its sentence named ("Olive oil is the one
to use: it produces a hard bar with big, fluffy lather"; "You'd want crown thinning,
which lowers the height of the canopy") and says what a context sentence says of another
subject ("Coconut oil produces a hard bar ...", "Crown reduction lowers the height"):
the referent is swapped. One of the conflicts claim-level alignment checks
(alignment.py); the clause read with the words it takes (subjects.py) restates no unit
that way, because the referent's words are not the unit's.
"""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import Part, lemma_stems, subject_words
from .mixed import MAX_DOC_SENTENCES  # (a passage as short as mixed.py's)
from .pieces import AUXILIARIES
from .units import Units

# a clause's subject that stands for what its sentence named before
PRONOUNS = frozenset({"it", "they", "this", "these", "which", "that", "who"})
MIN_OWN = 2  # the clause's own content words, at least
# a sentence opening with these speaks of something named before it ("The tech giant
# is ...", "Its founder ..."), unless a name follows ("The Spa Day package adds ...")
_ANAPHORIC = frozenset({"the", "this", "that", "these", "those", "its", "their", "it",
                        "they", "he", "she"})


def _anaphoric(p: Part) -> bool:
    at = p.info.lead
    toks = p.info.tokens
    return at < len(toks) and toks[at] in _ANAPHORIC and at + 1 not in p.info.capitals


def referent(pieces: Sequence[Part], k: int, taken: frozenset[str]) -> frozenset[str]:
    """What clause k's subject stands for: the words a relative clause takes (`taken`),
    or, for a pronoun subject ("it produces ..."), the first clause's subject."""
    if not k:
        return frozenset()
    p = pieces[k]
    toks = p.info.tokens[p.info.lead:]
    if toks and toks[0] in ("and", "but", "so"):
        toks = toks[1:]
    if not toks or toks[0] not in PRONOUNS or (
            len(toks) > 2 and toks[1] not in AUXILIARIES and toks[2] in AUXILIARIES):
        return frozenset()  # ("..., and identifies which mushrooms are edible": no subject)
    if taken:
        return taken
    return subject_words(pieces[0]) if toks[0] in ("it", "they") else frozenset()


def referent_swapped(p: Part, meant: frozenset[str], units: Units, doc: int | None
                     ) -> int | None:
    """The context sentence that says all the clause's own words of a subject other
    than the one it stands for (`meant`: the words before the first of them there),
    while another context sentence opens with what it stands for; the other subject is
    one of a kind with it, a word shared with it or with that sentence ("Coconut oil" /
    "Olive oil", "Tenmoku glaze" / "Celadon glaze"), where a subject sharing none may be a
    description of the referent ("Guests have a hot tub" of a cottage, "Crossings take two
    hours" of a ferry). None when there is none."""
    own = p.words - meant
    if len(own) < MIN_OWN or not meant:
        return None
    rows = units.rows_of(doc)
    openings: dict[int, frozenset[str]] = {}  # (each sentence's read once, when first needed)
    for u in units.near(p, doc, len(own)):
        if not own <= u.words or len(units.ctx.rows(units.ctx.docs[u.row])) > MAX_DOC_SENTENCES:
            continue  # (a long passage says "it" and "which" of many things)
        sentence = units.sentence(u.row).part
        if _anaphoric(sentence):
            continue  # "The tech giant is ...": another name of what the passage is about
        subject = _before(sentence, own)
        theirs = subject - meant
        missing = meant - sentence.words
        if not missing or not theirs:
            continue  # (its sentence names what the clause stands for: no swap)
        for j in rows:
            other = units.sentence(j).part
            distinct = theirs - other.words  # ("Tenmoku glaze" / "Celadon glaze": tenmoku)
            if j == u.row or not distinct:
                continue
            if j not in openings:
                openings[j] = _opening(other)
            if missing & openings[j] and not _kin(
                    distinct, other.words) and subject - distinct:  # (one of a kind)
                return u.row
    return None


_KIN = 3  # first letters two stems share when one word is the other's kin


def _kin(words: frozenset[str], others: frozenset[str]) -> bool:
    """Whether a word of one set begins as one of the other does ("dyeing" and "dye":
    the other sentence is about the same thing)."""
    return any(w[:_KIN] == o[:_KIN] for w in words for o in others)


OPENING_WORDS = 2  # a sentence's first content words: what it is about


def _opening(p: Part) -> frozenset[str]:
    return frozenset(_stems(p)[:OPENING_WORDS])


def _before(p: Part, own: frozenset[str]) -> frozenset[str]:
    """The sentence's content words before the first of `own`: its subject."""
    out = []
    for s in _stems(p):
        if s in own:
            break
        out.append(s)
    return frozenset(out)


def _stems(p: Part) -> list[str]:
    stems = lemma_stems(p.info.tokens, p.info.all_stems)
    return [s for s in stems[p.info.lead:] if s in p.words]
