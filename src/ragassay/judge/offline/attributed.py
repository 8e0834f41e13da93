"""What the contexts say of one of their entities, said of another of theirs (issue #38,
session 9): "Tom is our curly-hair specialist" against "Priya is our curly-hair
specialist; Tom leads our colour team"; "The city-centre branch is open 24 hours a day"
against "Our airport branch is open 24 hours a day" beside "The city-centre branch is
open from 08:00 to 20:00".

Alignment's swap (`alignment._fit`) needs the two words offered as alternatives, and
`phrase_swap` a run the unit's own sentence does not name; this reads the claim's
entity as the contexts place it:

- a unit states most of the claim (at least SHARE of its content words, two or more)
  and says little besides (at most MAX_EXTRA words of its own the claim lacks, in a
  sentence of at most MAX_TOKENS): its predicate;
- the claim's words the unit lacks (at most MAX_ENTITY) name an entity of the contexts:
  together they are the subject, or capitalised, in another sentence or clause of them
  (`_entity_words`), one that does not state the claim;
- the unit's words the claim lacks include its own entity (its subject, the subject a
  clause takes from its sentence, or a capitalised word), and no word of one is a near
  synonym of a word of the other by the static vectors (SYNONYM_COSINE): "visitors" and
  "guests" are one entity, "Priya" and "Tom" two.

It runs before alignment accepts a unit that restates the claim without a conflict (a
sentence naming both entities restates every claim about either): a unit that says the
claim of the claim's own entity (a clause, a sentence of one clause, or a sentence the
claim copies) keeps it from firing, and so does a sentence that says the predicate of
both ("..., as is the York branch").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .clauses import DETERMINERS, Part, lemma_stems, neighbours
from .lexical import STOPWORDS
from .pieces import AUXILIARIES
from .scope import TIMES
from .units import SYNONYM_COSINE
from .words import word_vectors

if TYPE_CHECKING:
    from .units import Unit, Units

SHARE = 0.6  # of the claim's content words a unit must state: its predicate
MAX_ENTITY = 3  # content words of either entity the other side lacks, at most
MAX_EXTRA = 5  # content words of the unit's own the claim lacks, at most
MAX_TOKENS = 30  # tokens of the unit's sentence, at most (a long one says many things)
SUBJECT_WORDS = 3  # content words of a subject, at most
RESTATES = 0.7  # of a sentence's words a claim that copies it states
_POSSESSIVES = frozenset({"his", "her", "their"})
# a clause opening with one has a subject of its own ("and he is taking care of ...")
_PRONOUNS = frozenset({"he", "she", "it", "they", "we", "you", "i", "this", "that"})
_PREDICATE_WORDS = 3  # content words of its own a clause said of its sentence's names has
_JOINERS = frozenset({"and", "or", "but", "while", "whereas", "yes", "no"})


def subject_run(c: Part) -> frozenset[str]:
    """The opening run of content words of a sentence or clause (its subject: "The
    learner pool", "Our simple cremation package"), up to the first stopword or figure,
    and none for a clause that opens with its predicate ("and includes ...")."""
    toks = c.info.tokens
    stems = lemma_stems(toks, c.info.all_stems)
    out: set[str] = set()
    i = c.info.lead
    joined = i < len(toks) and toks[i] in _JOINERS
    while i < len(toks) and toks[i] in _JOINERS:
        i += 1
    if joined and i < len(toks) and toks[i] not in DETERMINERS:
        return frozenset()  # "and includes priority support": a predicate, no subject
    while i < len(toks) and (toks[i] in DETERMINERS or toks[i].endswith("ly")):
        i += 1  # (an adverb opening it is no subject: "Additionally, we offer ...")
    # (after a modal or a pronoun the run is a verb's; a word before a determiner, one in
    # -ed or -ing, or one in -s before a stopword that is no auxiliary is a verb:
    # "translators hold a", "molecule attracts other")
    while (i < len(toks) and len(out) < SUBJECT_WORDS and toks[i] not in STOPWORDS
           and not toks[i][:1].isdigit() and not toks[i].endswith(("ed", "ing"))
           and not (i + 1 < len(toks) and (toks[i + 1] in DETERMINERS or (
               toks[i].endswith("s") and out and toks[i + 1] in STOPWORDS
               and toks[i + 1] not in AUXILIARIES)))):
        out.add(stems[i])
        i += 1
    return frozenset(out)


def names_of(c: Part) -> frozenset[str]:
    """A sentence's or clause's capitalised content words past its first token (not a
    figure's unit: "CHF 8", "8 EUR"; not an adverb: "Aggressively")."""
    toks = c.info.tokens
    stems = lemma_stems(toks, c.info.all_stems)
    return frozenset(stems[k] for k in c.info.capitals if 0 < k < len(toks)
                     and not toks[k].endswith("ly") and stems[k] in c.words and not any(
                         0 <= j < len(toks) and toks[j][:1].isdigit() for j in (k - 1, k + 1)))


def entity_words(c: Part) -> frozenset[str]:
    """The words that name what a sentence or clause is about: its subject run and its
    names."""
    return subject_run(c) | names_of(c)


def context_names(units: Units) -> frozenset[str]:
    """The contexts' names: capitalised words past a sentence's first token ("...; Dan
    does traditional pieces"), read once per sample."""
    return units.ctx.derive("attributed.names", lambda: frozenset[str]().union(
        *(names_of(units.sentence(j).part) for j in range(len(units.ctx.infos)))))


def _same_slot(p: Part, u: Unit, mine: frozenset[str], theirs: frozenset[str],
               subject: frozenset[str]) -> bool:
    """Whether the claim's entity and the unit's stand in the same place: both subjects
    (`subject`: the claim's, or the one a clause takes from its sentence; the unit's own,
    or its sentence's), or a name of each beside the same word ("book with Dr. Chen" /
    "... with Dr. Alvarez")."""
    if mine & subject:
        return bool(theirs & (subject_run(u.part) | u.inherited))
    mine_near, theirs_near = neighbours(p), neighbours(u.part)
    return any(not mine_near.get(w, frozenset()).isdisjoint(theirs_near.get(v, ()))
               for w in mine for v in theirs & names_of(u.part))


def _predicate_first(p: Part) -> bool:
    """Whether a clause opens with what it says, not with a noun phrase of its own ("and
    includes airport lounge access", "who treats exotic pets"; not "and the collection
    card to the counter" or "and Telehealth services", items of a list, nor "and he is
    ...", a subject of its own; and says something: _PREDICATE_WORDS content words of its
    own): only then is it said of its sentence's names."""
    toks = p.info.tokens
    i = p.info.lead
    while i < len(toks) and toks[i] in _JOINERS:
        i += 1
    own = p.words & set(lemma_stems(toks, p.info.all_stems))
    return (i < len(toks) and toks[i] not in DETERMINERS and toks[i] not in _PRONOUNS
            and not toks[i][:1].isdigit() and i not in p.info.capitals
            and len(own) >= _PREDICATE_WORDS)


def _named_elsewhere(entity: frozenset[str], theirs: frozenset[str], p: Part, u: Unit,
                     units: Units) -> bool:
    """Whether another sentence or clause of the contexts is about `entity` (all its
    words its subject's or capitalised) and does not state the claim; not when a clause
    names both entities ("Wembley is in London", "Our head chef is Marco": one is the
    other, or in it), or the unit refers to another entity ("his son Peter")."""
    if _POSSESSIVES & set(u.part.info.tokens):
        return False
    rows = set.intersection(*(set(units.by_stem.get(w, ())) for w in entity))
    for r in sorted(rows):
        for c in (units.sentence(r), *units.clauses(r)):
            if c.part is u.part or not entity <= c.words or (c.row == u.row and not c.clause):
                continue  # (the unit's own sentence holds the unit)
            if theirs <= c.words and (c.clause or not units.clauses(r)):
                return False  # (one clause names both)
            if c.row == u.row and not c.part.words - entity - u.words:
                return False  # "..., as is the York branch": the sentence says it of both
            # (an elliptic clause takes its sentence's predicate, no subject: "Count the
            # highest number ..., not the total": "count" names nothing)
            held = c.inherited if c.part.opening != "elliptic" else frozenset()
            if not entity <= (entity_words(c.part) | held):
                continue
            if len(p.words & c.words) >= SHARE * len(p.words) + len(entity):
                continue  # (it says the claim of its own entity)
            return True
    return False


def _synonyms(p: Part, u: Unit, mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether a word of the claim's entity is a near synonym of one of the unit's."""
    words = dict((w, t) for t, w in (*p.pairs, *u.part.pairs))
    a = [words[w] for w in sorted(mine) if w in words]
    b = [words[w] for w in sorted(theirs) if w in words]
    if not a or not b:
        return False
    vecs = word_vectors(a + b)
    return any(float(vecs[i] @ vecs[len(a) + j]) >= SYNONYM_COSINE
               for i in range(len(a)) for j in range(len(b)))


def attributed_elsewhere(p: Part, near: list[Unit], units: Units,
                         topic: frozenset[str] = frozenset()) -> int | None:
    """The context sentence whose statement the claim gives to another entity of the
    contexts (module docstring), or None; `topic`: the entity words of the claim's whole
    sentence (`entity_words`), when `p` is a clause of it."""
    # the claim's own entity: its subject, its names, and, for a clause that opens with
    # its predicate, its sentence's subject (words that are no token of its own)
    # (read only for a unit that states most of the claim: every claim comes here)
    given = taken = own = names = frozenset[str]()
    read = False
    for u in near:
        mine = p.words - u.words
        shared = p.words & u.words
        if (not 1 <= len(mine) <= MAX_ENTITY or len(shared) < max(2, SHARE * len(p.words))
                or mine & TIMES):
            continue
        if not read:
            read = True
            given = p.words - set(lemma_stems(p.info.tokens, p.info.all_stems))
            taken = given & topic if _predicate_first(p) else frozenset()
            own = entity_words(p) | taken
            names = units.alternatives.names | context_names(units)
        if not mine <= own:
            continue
        subject = entity_words(u.part) | u.inherited
        extra = u.part.words - p.words
        theirs = (u.words - p.words) & subject
        if (not theirs or len(theirs) > MAX_ENTITY or len(extra) > MAX_EXTRA
                or len(u.sentence.info.tokens) > MAX_TOKENS
                or theirs & TIMES or _synonyms(p, u, mine, theirs)):
            continue  # (a unit saying much besides is no restatement with one swap)
        if not (shared & subject or (
                (mine | theirs) & names and mine & (p.capitalised | names)
                and theirs & (u.part.capitalised | names))):
            continue  # two names, or one head named two ways ("airport / city-centre branch")
        if any(units.alternatives.together(w, v, u.row) for w in mine for v in theirs):
            continue  # the sentence lists both ("in English, Spanish, Korean and ...")
        if p.figures and not {n for n, _ in p.figures} <= {n for n, _ in u.sentence.figures}:
            continue  # (its figures are another unit's: the number checks read them)
        if any((p.words - given) | mine <= c.words and (c.clause or not units.clauses(c.row)
                                        or len(p.words) >= RESTATES * len(c.words))
               for c in near):
            continue  # a unit says it of the claim's own entity (a sentence of several
            # clauses only when the claim restates the most of it: a copy)
        if (_same_slot(p, u, mine, theirs, subject_run(p) | taken)
                and _named_elsewhere(mine, theirs, p, u, units)):
            return u.row
    return None
