"""A claim that joins the name of one clause of a context sentence to what another
clause says ("Marco leads the yoga classes" for "Yoga classes are led by Priya ..., and
spin classes are taught by Marco ..."; "Dan specialises in fine-line work" for "Maya
specialises in fine-line and botanical work; Dan does traditional pieces").

The whole sentence states every word of such a claim, so alignment finds it restated;
read clause by clause, the claim takes a name only one clause has, none of the names of
the clause whose words it says (which has one of its own), and at least MIN_SAID of that
clause's own words; the name it takes is the other clause's doer (its subject, or its
agent after "by"). Short sentences only (MAX_TOKENS): two answers side by side. One of
the conflicts claim-level alignment checks (alignment.py).

Across sentences (`named_elsewhere`, session 10): the claim says the words of one short
sentence, which names an entity of its own, of a name only another sentence has ("For
the postal auction, contact the treasurer, Peter Quinn" where the auction's sentence
names Gwen Harris and Peter Quinn's is about renewals), unless a sentence links the two
names, one is the other's acronym, or the sentence's own name stands in an aside ("...,
manager Jo Baker said").
"""

from __future__ import annotations

import re

from .attributed import context_names
from .clauses import Part, clause_parts, lemma_stems
from .inflection import bases
from .lexical import STOPWORDS, stem
from .pieces import AUXILIARIES
from .scope import TIMES, acronym
from .units import Unit, Units
from .weeks import CALENDAR

MIN_SAID = 2  # words of the other clause's own the claim must say
MIN_SAID_PLACED = 3  # ... when the name it takes is not the clause's doer
_POSSESSIVE = frozenset({"his", "her", "their", "its"})
MAX_TOKENS = 30  # a context sentence longer than this is not read clause by clause here
_CALENDAR = TIMES | CALENDAR  # (and the other words of time: "week", "morning")


def misplaced_name(p: Part, near: list[Unit], units: Units) -> int | None:
    """The context sentence whose clauses the claim mixes (module docstring), or None."""
    claim_names = p.words & p.capitalised - _CALENDAR
    if not claim_names:
        return None
    for u in near:
        if u.clause:
            continue
        if len(u.sentence.info.tokens) > MAX_TOKENS:
            continue  # (a long sentence's clauses are seldom two answers side by side)
        pieces, words = _pieces(u.sentence.text)
        if len(pieces) < 2:
            continue  # (clauses with a subject of their own: "..., and earns 1 point" has none)
        named = units.ctx.infos[u.row].names
        if any(acronym(n, p) for n in named):
            continue  # ("the RBC" for the claim's "Regional Business Council": one entity)
        # (a unit a figure is counted in is no name: "under 150 EUR" / "150 euro")
        names = frozenset(stem(n) for n in named) - _CALENDAR - {
            k for _, k in u.sentence.figures if k is not None}
        # each clause's own words: those no other clause of the sentence has
        owns = [w - frozenset().union(*(x for k, x in enumerate(words) if k != i))
                for i, w in enumerate(words)]
        for j, own_j in enumerate(owns):
            doer = bool(own_j & names & claim_names & _doers(pieces[j]))
            # a name elsewhere in the clause ("pan in the Wanlock Burn") only in a clause
            # that says something besides its names (not a list item, "Polish and Urdu"),
            # and with more of the other clause said
            if not doer and not (own_j & names & claim_names
                                 and len(words[j] - names) >= MIN_SAID):
                continue  # the claim names none of clause j's names
            said_j = (own_j & p.words) - names
            for i, own_i in enumerate(owns):
                if i == j or _POSSESSIVE & set(pieces[i].info.tokens):
                    continue  # ("and his son Peter built ...": the other doer's own)
                said_i = ((own_i & p.words) | _reworded(p, pieces[i], own_i)) - names
                if (own_i & names and not own_i & names & p.words
                        and len(said_i) >= (MIN_SAID if doer else MIN_SAID_PLACED)
                        and len(said_i) > len(said_j)):
                    return u.row
    return None


def _reworded(p: Part, c: Part, own: frozenset[str]) -> frozenset[str]:
    """The clause's own words the claim says in another regular form ("hosted" /
    "hosting": one base, which the 5-letter stems split)."""
    mine = bases(p.info.tokens)
    return frozenset(w for t, w in c.pairs if w in own and w not in p.words
                     and mine & bases((t,)))


_RELATIVE = frozenset({"where", "which", "who", "whose"})


def _pieces(text: str) -> tuple[list[Part], list[frozenset[str]]]:
    """The clauses of a sentence with a subject of their own, each with its words and
    those of the relative clauses after it ("afternoon sessions move to the Mennock
    Water, | where the current is gentler": the gentler current is the Mennock's)."""
    pieces: list[Part] = []
    words: list[frozenset[str]] = []
    for c in clause_parts(text):
        if pieces and (c.opening == "relative" or c.info.tokens[:1] and
                       c.info.tokens[0] in _RELATIVE):
            words[-1] |= c.words
        elif c.opening is None:
            pieces.append(c)
            words.append(c.words)
    return pieces, words


def _doers(c: Part) -> frozenset[str]:
    """The words of a clause's doer: before its first auxiliary ("Dublin should stay
    dry", "Dan does traditional pieces") or right after "by" ("... are taught by Marco");
    none in a clause without an auxiliary (a list item: "cereal and UHT milk")."""
    toks = c.info.tokens
    stems = lemma_stems(toks, c.info.all_stems)
    aux = next((i for i, t in enumerate(toks) if t in AUXILIARIES), None)
    if aux is None:
        return frozenset()
    out = set(stems[:aux])
    out.update(stems[i + 1] for i, t in enumerate(toks[:-1]) if t == "by")
    return frozenset(out)


MIN_PREDICATE = 2  # content words besides its names a claim must share with a sentence
PREDICATE_SHARE = 0.4  # ... and this share of them at least
MAX_DOC_SENTENCES = 3  # sentences of the passage holding that sentence, at most


def named_elsewhere(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence whose words the claim says of a name another sentence has:
    the one sentence sharing most of the claim's words besides its names (PREDICATE_SHARE
    of them, MIN_PREDICATE or more, no other sentence as many), which lacks a name of
    the claim, names an entity of its own the claim does not, and is short (MAX_TOKENS,
    in a passage of at most MAX_DOC_SENTENCES), while one other sentence has the claim's
    name ("For the postal auction, contact the treasurer, Peter Quinn" for "Postal
    auction queries go to the auction secretary, Gwen Harris. Membership renewals are
    handled by the treasurer, Peter Quinn."). Not
    when a sentence holding the claim's name has the other's too ("The final is at
    Wembley." and "Wembley is in London." for "The final is in London"), nor when the
    other is an acronym of the claim's ("PGA" for "Producers Guild of America"). None
    when there is none."""
    info = p.info
    # (a capitalised first word is a name only where the contexts name it: "Tomasz
    # leads ...", not "Pick up your ...")
    opening = frozenset(info.all_stems[info.lead:info.lead + 1]) - context_names(
        units) - initial_names(units)
    claim_names = p.words & p.capitalised - _CALENDAR - opening
    said = p.words - claim_names
    if not claim_names or len(said) < MIN_PREDICATE:
        return None
    rows = units.rows_of(doc)
    row = units.closest(said, rows, max(MIN_PREDICATE, PREDICATE_SHARE * len(said)))
    if row is None:
        return None
    sentence = units.sentence(row).part
    if len(sentence.info.tokens) > MAX_TOKENS:
        return None
    missing = claim_names - sentence.stems
    if not missing:
        return None
    if len(units.ctx.rows(units.ctx.docs[row])) > MAX_DOC_SENTENCES:
        return None  # (a long passage names its topic once and then says "he", "the band")
    head = first_stem(sentence)  # "Mia does X." / "Jess does Y.": each opens on its name
    if head in _PRONOUNS and row and missing & units.sentence(row - 1).part.stems:
        return None  # "Delivery is free ... It usually takes 3 days": its subject
    holding = [k for k in rows if k != row and missing & units.sentence(k).part.stems]
    if len(holding) != 1 or not missing <= units.sentence(holding[0]).part.stems:
        return None  # one other sentence has the claim's name: another entity's, no topic
    names = units.ctx.infos[row].names
    own = frozenset(stem(n) for n in names) - _CALENDAR - p.words
    if head is not None and head in initial_names(units) and first_stem(
            units.sentence(holding[0]).part) in missing:
        own |= {head} - p.words
    if not own or any(acronym(n, p) for n in names):
        return None  # ("the PGA award" for "the Producers Guild of America award": one)
    if any(own & units.sentence(k).part.stems for k in holding):
        return None  # a sentence links the two ("Wembley is in London"): no swap
    if _aside(sentence, own, p.words):
        return None  # "..., manager Jo Baker said": its name is the source's, no slot
    if _speaker(sentence, units, row, holding[0], missing):
        return None  # "Book with us" beside "Castlegate Physio is open ...": the speaker
    return row


_FIRST_PERSON = frozenset({"we", "us", "our", "ours"})


def _speaker(sentence: Part, units: Units, row: int, holding: int,
             missing: frozenset[str]) -> bool:
    """Whether the claim's name is the passage's speaker: the sentence it restates speaks
    in the first person plural ("book with us") and the one sentence naming it is of
    the same passage and opens on it ("Castlegate Physio is open Monday to Friday"), so
    the claim writes the name where the sentence writes "us"."""
    ctx = units.ctx
    return (bool(_FIRST_PERSON & set(sentence.info.tokens))
            and ctx.docs[holding] == ctx.docs[row]
            and first_stem(units.sentence(holding).part) in missing)


_PRONOUNS = frozenset({"it", "they", "this", "these", "he", "she", "its", "their"})
# a capitalised first word before a verb: "Priya covers ...", "Jess does ..." (not "Full
# membership costs ...", "Bike repairs are ...": an auxiliary after the "-s" word is a
# plural's; "Bus passes cost ..." reads as one, hence two such openings at least)
_OPENS_NAMED = re.compile(r"\W*([A-Z][a-z]+)\s+([a-z]+)(?:\s+([a-z]+))?")


def initial_names(units: Units) -> frozenset[str]:
    """The stems of context sentences' capitalised first words before a verb that no
    context writes in lower case, where two sentences or more open so, side by side
    ("Mia specialises in ...", "Jess does gel manicures ..."): names, as capitalised words
    past the first token are. One such opening alone is mostly a noun ("Delivery is free
    ...", "Bus passes cost ...": review 15)."""
    def build() -> frozenset[str]:
        text = " ".join(i.text for i in units.ctx.infos)
        out = set()
        for i in units.ctx.infos:
            m = _OPENS_NAMED.match(i.text)
            if m is None or re.search(rf"\b{m.group(1).lower()}\b", text):
                continue
            verb, after = m.group(2), m.group(3) or ""
            if verb in AUXILIARIES or (verb.endswith("s") and not verb.endswith("ss")
                                       and after not in AUXILIARIES):
                out.add(stem(m.group(1).lower()))
        out -= STOPWORDS
        return frozenset(out) if len(out) > 1 else frozenset()
    return units.ctx.derive("mixed.initial_names", build)


def first_stem(p: Part) -> str | None:
    """The stem of the sentence's first token past its lead, or None."""
    info = p.info
    return info.all_stems[info.lead] if info.lead < len(info.all_stems) else None


def _aside(sentence: Part, own: frozenset[str], claimed: frozenset[str]) -> bool:
    """Whether every clause of the sentence naming its own entity is an aside the claim
    does not restate: words besides the names, none of them the claim's ("manager Jo
    Baker said", "run by Heritage Walks"); a clause of names alone ("..., Gwen Harris")
    is the slot itself, and so is the sentence's first clause when it holds no verb of
    its own: its subject, a name with its title ("Tom Becker, the competitions officer,
    organises ...")."""
    pieces = clause_parts(sentence.text)
    naming = [c for c in pieces if c.words & own]
    return bool(naming) and len(naming) < len(pieces) and all(
        (c.words - own) and not (c.words - own) & claimed
        and not (c is pieces[0] and _verbless(c)) for c in naming)


_SAYS = frozenset({"said", "says", "say"})


def _verbless(c: Part) -> bool:
    """Whether a clause is a noun phrase alone: no auxiliary, no verb of saying, no word
    in -ed past its first ("Jo Baker said", "Jo Baker has confirmed" are the source)."""
    toks = c.info.tokens
    return not any(t in AUXILIARIES or t in _SAYS or (k and t.endswith("ed"))
                   for k, t in enumerate(toks))
