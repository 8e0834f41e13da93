"""A claim that says what the contexts say of one of two parallel things of another
(claim-level alignment, session 16): "The main pool is the warmest, kept at 32°C" for
"The learner pool is kept at 32°C and the main pool at 28°C"; "Standard parcels are
delivered by DHL" for "Express shipments are handled by DHL, while standard parcels go
through the national postal service"; "The Bio sauna is the hottest, at 85-90°C" for
"The Finnish sauna runs at 85-90°C. The Bio sauna is gentler at 55-60°C."

The contexts set two slots side by side: two clauses of a sentence joined by ";",
", while", ", but" or "and the", or two neighbouring sentences of a passage of at most
MAX_SENTENCES (or of two short passages) whose subjects share a word. Each has an entity of its own
(`attributed.entity_words`: its subject, its names) and says something of its own (its
predicate: its other words and its figures that the other slot lacks). The claim is
about the second slot's entity (a word of it that the first slot lacks is among the
claim's own entity words), names nothing of the first slot's entity, says the first
slot's predicate (one of its own figures or names, or MIN_SAID of its words) and none
of the second slot's, and little besides (MAX_OTHER words neither slot has).

No sentence longer than MAX_TOKENS, with an aside in brackets or with a pronoun is a
slot, and two passages hold a pair only when each is short (SHORT_PASSAGE sentences at
most, session 19: two snippets side by side, "Tuesday games are played at Greenbank
Fields." / "Thursday games move to the Northside pitches."): on the dev sets' web text
looser pairs pushed a faithful claim down for every two unfaithful ones and cost WiCE
0.06 AUROC (session 16's LOO, docs/judges-history.md). Left alone
too: a denied claim (it may say the second slot lacks it), a comparison ("than",
"unlike", "the other ..."), and a claim whose predicate another sentence states too
("It also has ...", "Both tents come with ...").
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from .attributed import entity_words, names_of, subject_run
from .clauses import Part, clause_parts, part
from .units import Unit, Units

_CONTRAST = frozenset({"while", "whereas"})
# a clause saying its sentence's predicate of another entity: "..., as is the York branch"
_SAME = re.compile(r"^\W*(?:and\s+)?(?:as|so|nor|neither)\s+(?:is|are|was|were|do|does|did|"
                   r"has|have|can|will|would)\b", re.IGNORECASE)
_REFERRING = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "this",
                        "these", "that", "those", "there"})
_ASIDE = re.compile(r"[(\[]")
# two clauses set side by side: "...; ...", "..., while ...", "... and the ..."
_JOINED = re.compile(r";|,\s*(?:while|whereas|but)\b|\band\s+(?:the|our|a|an)\b",
                     re.IGNORECASE)
COMPARES = frozenset({"than", "unlike", "like", "both", "other", "whereas", "while"})
MAX_TOKENS = 30  # a longer sentence is no slot (real passages: many parallel things)
MAX_SENTENCES = 5  # ... and a passage of more (a web page: many things side by side)
SHORT_PASSAGE = 2  # sentences of a passage whose sentence pairs with the next passage's
MAX_OTHER = 3  # content words of the claim neither slot has, at most
MIN_SAID = 2  # words of the first slot's own predicate a claim says, without a figure


@dataclass(frozen=True, slots=True)
class _Slot:
    """A clause (or a sentence) with the words of its entity and its figures' values."""

    unit: Unit
    entity: frozenset[str]
    subject: frozenset[str]  # its subject run (else its entity)
    names: frozenset[str]
    values: frozenset[float]
    passage: int  # sentences of its passage

    @property
    def row(self) -> int:
        return self.unit.row

    @property
    def words(self) -> frozenset[str]:
        return self.unit.part.words


def _slot(u: Unit, passage: int) -> _Slot:
    entity, subject = _entity(u.part)
    return _Slot(u, entity, subject or entity, names_of(u.part),
                 frozenset(n for n, _ in u.part.figures), passage)


def _entity(c: Part) -> tuple[frozenset[str], frozenset[str]]:
    """A slot's entity words and its subject run; a clause opening "while" / "whereas"
    has a subject of its own ("..., while standard parcels go ...")."""
    first = c.info.tokens[c.info.lead:c.info.lead + 1]
    if first and first[0] in _CONTRAST:
        c = part(c.text.split(None, 1)[1] if " " in c.text else "")
    # (session 26: reading a day or a month as when, not what, "Yoga classes run on
    # Wednesdays" as said of yoga, was withdrawn: a held-out answer went right to wrong)
    return entity_words(c), subject_run(c)


def _slots(units: Units) -> list[_Slot]:
    """Every short context sentence of a short passage (MAX_TOKENS, MAX_SENTENCES), and,
    of such a sentence of several clauses, each clause with a subject of its own read with
    the clauses after it that have none ("The river route to Old Bridge" "and back takes
    about 90 minutes") or say its predicate of another ("as is the York branch"); read
    once per sample, and nothing of a long passage or sentence (a web page's)."""
    def read() -> list[_Slot]:
        docs, infos = units.ctx.docs, units.ctx.infos
        size = Counter(docs)  # sentences per passage
        out: list[_Slot] = []
        for j, info in enumerate(infos):
            if size[docs[j]] > MAX_SENTENCES or len(info.tokens) > MAX_TOKENS:
                continue
            whole = units.sentence(j)
            out.append(_slot(whole, size[docs[j]]))
            groups: list[list[str]] = []
            pieces = clause_parts(whole.part.text)
            for c in pieces if len(pieces) > 1 else ():
                if c.opening is None and _entity(c)[0] and not _SAME.match(c.text):
                    groups.append([c.text])
                elif groups:
                    groups[-1].append(c.text)
            out += [_slot(Unit(part(", ".join(g)), j, True, whole.part), size[docs[j]])
                    for g in groups]
        # (a list item has no predicate of its own; a pronoun's entity is the sentence
        # before's, "Today, she heads ..."; an aside in brackets is a web page's)
        return [s for s in out if s.entity and s.words - s.entity
                and not _REFERRING & set(s.unit.part.info.tokens)
                and not _ASIDE.search(s.unit.sentence.text)]
    return units.ctx.derive("parallel.slots", read)


def _parallel(a: _Slot, b: _Slot, units: Units) -> bool:
    """Whether two slots stand side by side (module docstring): clauses of one sentence
    joined as two (not items of a list split into clauses: "trains, buses and boats"),
    or neighbouring sentences of one passage whose subjects share a word."""
    if a.row == b.row:
        return a.unit.clause and b.unit.clause and bool(_JOINED.search(
            a.unit.sentence.text)) and not any(
            units.alternatives.together(w, v, a.row) for x, y in ((a, b), (b, a))
            for w in x.subject for v in y.words)
    if a.unit.clause or b.unit.clause or abs(a.row - b.row) != 1:
        return False  # (next to each other only)
    if units.ctx.docs[a.row] != units.ctx.docs[b.row] and max(a.passage, b.passage) > (
            SHORT_PASSAGE):
        return False  # (two passages: each a short one, as two snippets side by side)
    return bool(a.subject & b.subject)  # ("the Finnish sauna" / "the Bio sauna")


def _first_own(a: _Slot, b: _Slot) -> frozenset[str]:
    """The first of a slot's entity words the other lacks, in its order ("Ferries to
    Arran sail from Ardrossan": Arran, not where they sail from), or none."""
    own = a.entity - b.words
    return next((frozenset({w}) for w in a.unit.part.info.stems if w in own), frozenset())


def parallel_swap(claim: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose slot's predicate the claim gives to the other slot's
    entity (module docstring), or None."""
    if any(claim.negations) or not claim.words or COMPARES & set(claim.info.tokens):
        return None  # (a denial, or a comparison: "warmer than the other pool, at 28C")
    said_values = frozenset(n for n, _ in claim.figures)
    about = entity_words(claim)
    slots = [s for s in _slots(units) if doc is None or units.ctx.docs[s.row] == doc]
    for b in slots:
        if not (b.entity & about):
            continue
        for a in slots:
            if a is b or not _parallel(a, b, units):
                continue
            # (its first word too: "Guided tours leave ...", a subject run read as none)
            # (or, its subject shared, its first name: "Flights to Madrid" / "... Lisbon")
            own_a = ((a.subject | {a.unit.part.first} - {None}) - b.words) or _first_own(a, b)
            own_b = b.entity - a.words
            taken = own_b & claim.words & about
            if not own_a or not taken or own_a & claim.words:
                continue
            pred_a = a.words - a.subject - b.words
            pred_b = b.words - b.entity - a.words
            if claim.words & pred_b or said_values & (b.values - a.values):
                continue  # (it says the second slot's own predicate too)
            if len(claim.words - a.words - b.words) > MAX_OTHER:
                continue  # (the claim says much that neither slot does: no mix of the two)
            said = claim.words & pred_a
            figures = said_values & (a.values - b.values)
            if not (figures or said & a.names or len(said) >= MIN_SAID):
                continue
            if any(said <= units.sentence(j).part.words and figures <= set(info.values)
                   for j, info in enumerate(units.ctx.infos) if j != a.row):
                continue  # (another sentence says it: "It also has ...", "Both tents ...")
            return a.row
    return None
