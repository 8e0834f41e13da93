"""Claim-level alignment: which context sentence (or clause) each claim restates, and whether it
agrees with it.

A claim (an answer sentence, or each clause of a longer one) is aligned with the context units that
restate it: a unit is a context sentence or one of its clauses (clauses.py), and it restates the
claim when it states most of the claim's content words and the claim states much of its own
(`Fit`), a word the contexts offer as an alternative counting as stated ("Plus" for "Pro"). Against
each such unit the claim's subject, entities, figures, quantifier and polarity must agree:

- "entity": a word replaced by one the contexts offer as its alternative ("Plus subscribers" for
  "Pro subscribers"; "Paracetamol" where "Ibuprofen and paracetamol" are listed; another
  sentence's subject as the subject), or a slot's or unit's fact given to another (swapped_items);
- "number": a figure counting the same thing with another value ("5 devices" / "2 devices"), or in
  another slot (placed.py) or name's number (labels.py);
- "quantifier": "all" or "every" where the unit is restricted ("Pro subscribers only", "unless
  ..."; not "no X" for "not any X": negated_any.py), or one of several alternatives, or where
  another unit denies the predicate of part of the whole ("Economy Light tickets can't change");
- "negation" / "antonym": the polarity of what the two share differs (a negation on a shared word,
  or a word replaced by its antonym; both: no flip), or a relation turned in words the content
  words do not show ("30 minutes after" / "... before": relations.py); "role swap": two names in
  reversed roles (contradiction.role_swap).

The claim contradicts its contexts when it restates some unit and agrees with none (one restating
it without a conflict makes it consistent). A sentence's clauses are preferred when one restates
the claim (another clause's negation or figure plays no part). A clause no context states, beside
one a context restates, is reported (`Finding.unstated`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from .attached import attached_elsewhere
from .attributed import attributed_elsewhere, entity_words
from .availability import availability_flip
from .carried_limit import dropped as carried_dropped
from .clauses import DETERMINERS, Part, clause_parts, clauses, neighbours, part, said_otherwise
from .conditions import conditioned
from .contradiction import role_swap
from .counts import durations_differ, lengths_of_time
from .denial import denied_elsewhere, denies_of_part
from .dropped import (
    adds_only,
    dropped_case,
    drops_days,
    drops_exception,
    drops_only,
    drops_time,
    tail_days,
)
from .everywhere import said_wider
from .figure_homes import in_other_units, rounded_from, stated_together
from .labels import other_bearer
from .lexical import FILLER, antonyms_in, stem
from .list_items import list_items
from .listed import listed_denial
from .meridiem import clock_moved
from .mixed import misplaced_name, named_elsewhere
from .named_place import named_in_place
from .negated_any import same_denial
from .objects import swapped_object
from .only_narrowed import only_narrowed
from .other_times import other_times
from .otherwise import part_otherwise
from .phrase_swap import phrase_swap
from .placed import bound_flipped, misplaced_figure
from .polarity import antonym_pool, even_so, polarity, turned_elsewhere, unit_flip
from .rate_change import period_changed
from .referents import referent, referent_swapped
from .referrals import referral_end
from .relations import relation_turned
from .scope import (
    TIMES,
    acronym,
    denied_of_all,
    drops_fronted,
    elsewhere,
    generic_widened,
    name_swap,
    narrowed,
    time_bound,
)
from .sentences import ContextIndex, SentenceInfo
from .shared_quantifier import pronoun_widened, widened
from .sibling import own_sibling
from .stated import close as _close
from .stated import unstated as _unstated
from .subjects import taken
from .swapped_items import item_swapped
from .time_limit import names_limit
from .totals import without_worked
from .units import Unit, Units, uncounted
from .weeks import CALENDAR

RESTATES = 0.8  # share of a claim's content words a unit must state to restate it
RESTATED = 0.34  # ... and share of the unit's own that the claim must state
CONTAINED_SHARE = 0.4  # a unit wholly inside a claim restates it when the claim is this much it
MIN_WORDS = 2  # claims and units with fewer content words are not aligned
FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine"})  # "I agree"
# a clause naming its source ("According to the leaflet, ...") states no detail either
_SOURCE = re.compile(r"^\W*(?:according to|as (?:stated|explained|described) (?:in|by))\b",
                     re.IGNORECASE)
FILLER_STEMS = frozenset(stem(w) for w in FILLER)
MAX_SWAP_EDIT = 2  # a claim differing from a unit in more words is no swap of one of them
_KIND_ORDER = ("role swap", "number", "entity", "quantifier", "negation", "antonym")


@dataclass(frozen=True, slots=True)
class Fit:
    """How a claim lines up with a unit: the shares each states of the other, the words
    replaced by an alternative (claim word, unit word) or by an antonym."""

    covered: float  # share of the claim's content words the unit states
    covering: float  # share of the unit's content words the claim states
    swaps: tuple[tuple[str, str], ...]
    antonyms: int
    only_in_unit: frozenset[str]

    @property
    def restates(self) -> bool:
        return self.covered >= RESTATES and self.covering >= RESTATED

    @property
    def candidate(self) -> bool:
        return self.restates or (self.covering == 1.0 and self.covered >= CONTAINED_SHARE)


def _fit(p: Part, u: Unit, units: Units, subject: bool = True) -> Fit | None:
    """How the claim `p` lines up with the unit; `subject`: p's first word is its subject
    (p is a sentence or its first clause)."""
    uw = u.words
    if len(uw) < MIN_WORDS:
        return None
    only_c, only_u, uw_all = p.words - uw, uw - p.words, u.sentence.words
    swaps: list[tuple[str, str]] = []
    antonyms = 0
    # ("don't need to" / "must"; "2 days" / "24 hours", its sentence no "days": lengths)
    used = set(said_otherwise(p, u.part)) | lengths_of_time(p, u.part, only_c - uw_all, only_u)
    for t, w in p.pairs:
        if w not in only_c or w in used:
            continue
        ants = antonyms_in(t, antonym_pool(u.part) | u.inherited, u.sentence.info.tokens)
        if ants:
            antonyms += 1
            used.add(w)
            used.update(ants & only_u)
            continue
        if len(only_c) > MAX_SWAP_EDIT or w not in units.stems:
            continue  # no minimal edit, or the other entity is in no context
        for v in sorted(only_u - used):
            # offered as alternatives, in the same place in both sentences; or the
            # subjects of two context sentences, one for the other, nothing else changed
            if units.alternatives.together(w, v, u.row) or (w in CALENDAR) != (
                    v in CALENDAR):
                continue  # the sentence lists both ("singer, songwriter and musician");
                # a month or a day is no alternative of a name ("November" / "Paine")
            if acronym(t, u.sentence):
                break  # "GNR" for "Guns N' Roses"
            if ((units.alternatives(w, v) or (units.alternatives.names_pair(w, v, p)
                                              and w not in u.sentence.words))
                    and _same_slot(w, v, p, u, subject)) or (
                    subject and len(only_c) == 1 and w == p.first and v == u.sentence.first
                    and (not u.clause or u.part.first == v or v in u.inherited)
                    and units.subject_pair(w, v)):  # (a clause's subject: its sentence's)
                swaps.append((w, v))
                used.update((w, v))
                break
            if _moved(w, v, p, u, subject):
                swaps.append((w, v))  # what the claim moved is all its sentence's
                used.update(only_c & u.sentence.words)
                used.add(v)
                break
    if not swaps and len(only_c) > 1 and name_swap(p, u.part, only_c, only_u):
        swaps.append(("".join(sorted(only_c)), "".join(sorted(only_u))))
        used.update(only_c)  # a name of several words for another name
    if not swaps and (theirs := phrase_swap(p, u, only_c, only_u, units)) is not None:
        swaps.append((" ".join(sorted(only_c)), " ".join(sorted(theirs))))
        used.update(only_c | theirs)  # a phrase the contexts name elsewhere
    matched_c = len(p.words) - len(only_c - used)
    matched_u = len(uw) - len(only_u - used)
    return Fit(matched_c / len(p.words), matched_u / len(uw), tuple(swaps), antonyms,
               frozenset(only_u - used))


def _moved(w: str, v: str, p: Part, u: Unit, subject: bool) -> bool:
    """Whether the claim puts the subject of another clause of the unit's sentence in
    the place of the unit's word, a clause that denies or limits what it says of it: the
    sentence sets the two apart ("... is available to permanent staff, but interns are
    not eligible": "available to interns"; "Read replicas are used for SELECT queries
    only, and all writes go to the primary": "writes go to the read replicas")."""
    if not u.clause or w not in u.sentence.words or w in u.words:
        return False
    if not any(c.first == w and c.text != u.part.text and _own_subject(c)
               and (c.restricted or any(h is not None for h in c.negations))
               for c in clause_parts(u.sentence.text)):
        return False
    return _same_slot(w, v, p, u, subject)


def _own_subject(c: Part) -> bool:
    """Whether a clause opens with a subject of its own: no verb opening, and its first
    content word not followed by a determiner ("and covers your spouse": a verb)."""
    if c.opening is not None:
        return False
    toks = c.info.tokens
    at = next((i for i, t in enumerate(toks) if c.first and t.startswith(c.first[:3])), None)
    return at is None or at + 1 >= len(toks) or toks[at + 1] not in DETERMINERS


def _same_slot(w: str, v: str, p: Part, u: Unit, subject: bool = True) -> bool:
    """Whether a claim word and a unit word fill the same place: both subjects (the unit's
    own first word, or the one it takes from its sentence), or next to the same word
    ("Plus subscribers" / "Pro subscribers", "the Authorization / Retry-After header")."""
    if subject and w == p.first and (v in u.inherited if u.inherited else v == u.part.first):
        return True
    return not neighbours(p).get(w, frozenset()).isdisjoint(neighbours(u.part).get(v, ()))


def _numbers(p: Part, u: Part, sentence: Part | None = None) -> bool:
    """A figure of the claim counts what the unit counts with another value; a clause
    counts, besides its own, what its sentence counts and it does not ("and an
    arrangement fee of £999" of "The 2-year fixed mortgage has ...": a 2-year one)."""
    figures = list(u.figures)
    if sentence is not None:  # (dates and times are no counts of the subject)
        own = {k for _, k in figures}
        figures += [(m, k) for m, k in sentence.figures
                    if k not in own and k is not None and k[0] != "@" and k != "time"]
    figs, said = set(figures), set(p.figures)
    # (the unit's value too: "open 6:00-22:00"; its own in other units, or hedged, rounded)
    return durations_differ(p.figures, figures) or any(key is not None and (n, key) not in figs
               and n not in in_other_units(u) and not rounded_from(p, (n, key), figures)
               and any(k == key and m != n for m, k in figures)
               and not all((m, k) in said for m, k in figs if k == key)
               for n, key in p.figures)


def _conflicts(p: Part, u: Unit, fit: Fit, units: Units, said: frozenset[str]) -> list[str]:
    kinds = []
    if role_swap(p.info, u.part.info):
        kinds.append("role swap")
    if (_numbers(p, u.part, u.sentence if u.clause else None) or period_changed(
            p.text, u.part.text)) and not stated_together(p, u.row, units, said):  # (rate_change)
        kinds.append("number")
    if fit.swaps:
        kinds.append("entity")
    if p.universal and ((not (u.part.universal or same_denial(p, u.part)) and (
        (u.sentence.restricted or u.part.restricted) and not p.restricted
        or (not _adverbial(p) and (
            any(units.alternatives.has_alternative(v) for v in fit.only_in_unit)
            or pronoun_widened(p, u.part, fit.only_in_unit)
            or (not p.figures and any(h in u.part.counted for h in p.quantified if h))))
    )) or narrowed(p, u.part) or (u.clause and narrowed(p, u.sentence))
            or time_bound(p, u.part, u.sentence, calendar=units.calendar)
            or drops_fronted(p, u.sentence, said, u.part if u.clause else None)
            # (a clause with no subject of its own: under its sentence's times)
            or (u.clause and bool(u.inherited)
                and time_bound(p, u.sentence, u.sentence, figures=False, calendar=units.calendar))
            or drops_days(p, u.part) or (u.clause and tail_days(p, u.part, u.sentence))) or (
            fit.covered == 1.0 and (drops_time(p, u.part) or drops_only(
                p, u.part, u.sentence if u.clause else None, said) or drops_exception(
                p, u.part, u.sentence if u.clause else None, said))):
        kinds.append("quantifier")
    if "quantifier" not in kinds and (fit.restates and (adds_only(
            p, u, fit.only_in_unit, units) or part_otherwise(p, u, units, said)
            or said_wider(p, u)) or only_narrowed(p, u.part)):  # ("Only X ..." / "All ...")
        kinds.append("quantifier")  # "Tours run in English only" / "... English and Spanish"
    if fit.restates and relation_turned(p, u.part) and len(p.negations) == len(
            u.part.negations):
        kinds.append("antonym")  # "30 minutes after departure" for "... before departure"
    if flip := unit_flip(p, u, fit.antonyms, units):
        kinds.append(flip)
    return kinds


def _adverbial(p: Part) -> bool:
    """Whether every quantifier of the claim is one of time ("every month", "all day",
    "at any time"): how often, not of whom; it widens a claim only against "only", "unless"."""
    return all(h in TIMES for h in p.quantified)


def _exception(p: Part, near: list[Unit]) -> bool:
    """A universal claim ("All tickets can be changed", "All withdrawals are free") and
    a unit that denies its predicate, in other words, of something it includes
    (`denial.denies_of_part`), or a unit on what it quantifies that denies its predicate
    of part of the whole ("Economy Light tickets cannot be changed") or counts it ("3
    free withdrawals"); for "nobody" or "everyone", a unit saying the same of a
    restricted subject ("people with stomach ulcers should not take it")."""
    if None in p.quantified and p.words and any(
            p.words <= u.words and u.part.restricted and not u.part.universal for u in near):
        return True
    if p.universal and not any(h is not None for h in p.negations) and (
            other_times(p, near) or any(denies_of_part(u, p) for u in near)):
        return True
    if any(len(p.words & u.part.words - {p.first}) >= MIN_WORDS
           and generic_widened(p, u.part) for u in near):
        return True  # "Tenants can keep pets" for "Tenants on the ground floor may ..."
    heads = {h for h in p.quantified if h and h not in TIMES}
    if p.universal and _adverbial(p) and any(_only_then(p, u) for u in near):
        return True  # "open 24 hours all year round" for "... during exams only"
    if not heads:
        return False
    for u in near:
        words = u.part.words
        if not heads & words or not words - p.words or u.part.universal:
            continue  # not on what the claim quantifies, or no narrower
        if len(p.words & words) < MIN_WORDS:
            continue
        if polarity(p, u.part):
            return True
        if (p.first in heads and u.part.first == p.first
                and len(p.words & words - heads) >= MIN_WORDS and narrowed(p, u.part)):
            return True  # it says the claim's predicate of part of its subject
        if not p.figures and heads & u.part.counted:
            return True
    return False


def _only_then(p: Part, u: Unit) -> bool:
    """Whether a unit says what a claim quantified over time says, limited to one time
    ("only", "except"): all it states beyond the claim is its limit, at most
    MAX_SWAP_EDIT words, and it states at least three of the claim's words."""
    toks = u.part.info.tokens  # (not a claim naming the limit: time_limit.names_limit)
    return (u.part.restricted and ("only" in toks or "except" in toks) and not any(
        h is not None for h in u.part.negations) and len(u.words - p.words) <= MAX_SWAP_EDIT
        and len(u.words & p.words) >= 3 and not names_limit(p, u.part))


@dataclass(frozen=True, slots=True)
class Judged:
    """A claim (or clause) against the units that restate it."""
    conflict: str | None = None  # the kind; None when it agrees with one, or restates none
    row: int | None = None  # the context sentence it conflicts with
    restated: bool = False  # a unit restates it word for word (no word replaced)
    close: bool = False  # ... each word it lacks near one of the unit's (_close)


def _need(n: int) -> int:
    """The content words a unit must share with a claim of n: fewer can neither contain a
    unit nor restate the claim."""
    return max(min(MIN_WORDS, n), min(math.ceil(CONTAINED_SHARE * n),
                                      math.ceil(RESTATES * n) - MAX_SWAP_EDIT))


def judge_part(p: Part, units: Units, doc: int | None = None, subject: bool = True,
               said: frozenset[str] = frozenset(), topic: frozenset[str] = frozenset()
               ) -> Judged:
    """The conflict of a claim (or clause) with the units that restate it; `said`: the
    words of the claim's whole sentence when `p` is a clause of it."""
    if not p.words or (len(p.words) < MIN_WORDS and not p.universal):
        return Judged()
    near = units.near(p, doc, _need(len(p.words)))
    when = {h for h in p.quantified if h in TIMES}
    if when and len(p.words - when) >= MIN_WORDS and any(
            time_bound(p, u.part, u.sentence, calendar=units.calendar) for u in near):
        p = replace(p, words=p.words - when)  # "at any time" says when, not what
    if _exception(p, near) or (p.universal and any(
            elsewhere(p, u.part, u.sentence) for u in near)) or (
            not any(p.words <= u.words for u in near)
            and any(named_in_place(p, u.part) for u in near)) or any(
                carried_dropped(p, u, units, said) for u in near if not u.clause):
        return Judged("quantifier")
    if (row := listed_denial(p, near)) is not None or (
            row := availability_flip(p, units.near(p, doc, 1))) is not None:
        return Judged("negation", row)  # "we can move pianos" / "We cannot move pianos, ..."
    if (row := dropped_case(p, near, units, said, doc)) is not None:
        return Judged("quantifier", row)  # "all our quotes are free" / "... within 15 miles"
    if (row := misplaced_figure(p, near, units, doc)) is not None or (
            row := bound_flipped(p, units, doc)) is not None:
        return Judged("number", row)  # "students ... 42 days" / "... 42 days for staff"
    if (row := misplaced_name(p, near, units)) is not None or (
            row := named_elsewhere(p, units, doc)) is not None:
        return Judged("entity", row)  # "Marco leads yoga" / "... by Priya, ... by Marco"
    if len(p.words) < MIN_WORDS:
        return Judged()
    fits = [(u, f) for u in near
            if (f := _fit(p, u, units, subject)) is not None and f.candidate
            and not other_bearer(p, u, units)]
    restated = any(f.restates and not f.swaps for _, f in fits)
    close = bool(said) and restated and any(  # (a clause's only: `align`'s Finding.restated)
        f.restates and not f.swaps and _close(p, u) for u, f in fits)
    # a clause that restates the claim stands for its sentence, and for a clause of it that
    # states less ("Cancelled orders are refunded automatically if ..." for "Cancelled
    # orders are refunded automatically"; "..., but not if it is written off")
    by_clause = {u.row for u, f in fits if u.clause and f.restates}
    wider = [u for u, f in fits if u.clause and f.restates]
    fits = [(u, f) for u, f in fits
            if (u.clause and (f.restates or not any(
                w.row == u.row and w.part is not u.part and u.words < w.words for w in wider)))
            or u.row not in by_clause]
    # a sentence restating the claim, subject swapped, stands for a clause of it the claim
    # merely holds ("The Duo plan includes ..." / "The Family plan ...")
    whole = {u.row for u, f in fits if not u.clause and f.restates and f.swaps}
    fits = [(u, f) for u, f in fits if f.restates or not u.clause or u.row not in whole]
    judged = own_sibling(p, [(u, f, _conflicts(p, u, f, units, said)) for u, f in fits],
                         near, lambda u: _fit(p, u, units, subject),
                         lambda u, f: _conflicts(p, u, f, units, said))  # "Bronze ... £55"
    if (row := attributed_elsewhere(p, near, units, topic)) is not None:
        return Judged("entity", row)  # "Tom is our specialist" / "Priya is ...; Tom ..."
    # (a unit restating the claim, polarity turned, outweighs one the claim merely contains)
    outweighed = any(f.restates and {"negation", "antonym"} & set(kinds)
                     for _, f, kinds in judged)
    # (... and one stating every word of the claim, none replaced, one that leaves a word
    # unstated: "The Display range is not suitable" / "Our Garden range is ... suitable")
    whole_turned = any(f.covered == 1.0 and not f.swaps and {"negation", "antonym"} & set(
        kinds) for _, f, kinds in judged)
    if any(not kinds and not uncounted(p, u) and (f.restates or not outweighed)
           and (f.covered == 1.0 or not whole_turned) for u, f, kinds in judged):
        return Judged(restated=restated, close=close)
    if (row := denied_elsewhere(p, units, doc)) is not None:
        return Judged("negation", row)  # "can keep a cockerel" / "Cockerels are not permitted"
    if (row := turned_elsewhere(p, near, units.near(p, doc, 1), units)) is not None:
        return Judged("negation", row)  # "not welcome in rooms" / "welcome in ground-floor rooms"
    if any(denied_of_all(p, u.part) for u in near):
        return Judged("negation")  # "allowed in ground-floor rooms" / "not in any room"
    if any(widened(p, u.part) or part_otherwise(p, u, units, said) or said_wider(p, u)
           or only_narrowed(p, u.part) for u in near):
        return Judged("quantifier")  # "every flight" for "long-haul flights"
    judged = [j for j in judged if j[2]]  # (those left: a figure they leave uncounted)
    if not judged:
        return Judged(restated=restated, close=close)
    # the unit it restates most closely, with the fewest replaced words, explains it
    u, _, kinds = max(judged, key=lambda x: (x[1].covered, -len(x[1].swaps), x[1].covering))
    return Judged(min(kinds, key=_KIND_ORDER.index), u.row, restated, close)


@dataclass(frozen=True)
class Finding:
    """What alignment found for one claim sentence."""

    conflict: str | None = None  # its kind (module docstring), None: no contradiction
    row: int | None = None  # the context sentence it contradicts
    unstated: str | None = None  # a clause of it that no context states
    restated: bool = False  # each of its clauses (two or more) a unit restates, no conflict


def align(s: SentenceInfo, ctx: ContextIndex, doc: int | None = None) -> Finding:
    """The claim sentence's conflict with the contexts (each of its clauses aligned on its
    own when it has several, a later clause with the names of the sentence), and a clause
    of it no context states. `doc`: align within that context document only."""
    if len(ctx) == 0 or s.asks:
        return Finding()  # (a question asserts nothing)
    units = Units.of(ctx)
    parts = without_worked(conditioned(clauses(s.text)), ctx)  # (totals.py)
    # (a day or month is a time, no name a later clause is about: "Monday to Saturday")
    names = frozenset(stem(n) for n in s.names) - CALENDAR
    whole = without_worked([part(s.text)], ctx)[0] if len(parts) > 1 else parts[0]
    if (row := even_so(whole, units, doc, _need(len(whole.words)))) is not None or (
            row := availability_flip(whole, units.near(whole, doc, 1))) is not None:
        return Finding("negation", row)  # "even if ill" / "unless ill"; "open" / "closed"
    if (row := item_swapped(whole, units, doc)) is not None:
        return Finding("entity", row)  # "The main pool ... 32°C" / "The learner pool ..."
    restated, every, said, topic = False, True, frozenset[str](), frozenset[str]()
    if len(parts) > 1:
        if whole.universal and _exception(whole, units.near(whole, doc,
                                                            _need(len(whole.words)))):
            return Finding("quantifier")  # "All staff, contractors included, receive ..."
        said = whole.words | {t for t in whole.info.tokens if t[:1].isdigit()}  # (figures)
        topic = entity_words(whole)
        # a name said of another sentence's (clause's) words in a clause of its own ("...
        # Tom Ellery, who coordinates releases"): read as a whole
        if (row := named_elsewhere(whole, units, doc)) is not None or (
                row := misplaced_name(whole, units.near(whole, doc, _need(len(whole.words))),
                                      units)) is not None:
            return Finding("entity", row)
    for k, p in enumerate(parts):
        # a later clause read with its sentence's names ("..., and get one point per pound")
        # and, with no subject, what it takes from it ("Team connects 10 devices and ...")
        took = taken(parts, k)
        if (meant := referent(parts, k, took)) and (
                row := referent_swapped(p, meant, units, doc)) is not None:
            return Finding("entity", row)  # "Olive oil ...: it produces a hard bar"
        given = names | (took - CALENDAR)
        if k and given - p.words:
            p = replace(p, words=p.words | given)
        if (row := attached_elsewhere(p, units, doc, whole.figures)) is not None or (
                row := clock_moved(p, units, doc)) is not None:  # ("closes at 6pm": 6am)
            return Finding("number", row)  # "Peak courts cost £8" / "Off-peak ... £8"
        judged = judge_part(p, units, doc, subject=k == 0, said=said, topic=topic)
        if judged.conflict is not None:
            return Finding(judged.conflict, judged.row)
        restated, every = restated or judged.restated, every and judged.close
    if doc is None and (swapped := swapped_object(part(s.text), units)) is not None:
        return Finding(unstated=swapped)  # "a brass padlock key" for "the blue key card"
    if len(parts) > 1 and doc is None and restated:
        for p in parts:
            if FIRST_PERSON & set(p.info.tokens) or _SOURCE.match(p.text):
                continue
            if end := referral_end(p.text):  # what a referral sends the user to: "there"
                p = part(p.text[end:])  # ("so keep an eye out there"), "diving lessons"
            # the clause, and each item of a list in it ("..., theft, windscreen repair
            # and breakdown recovery": "breakdown recovery")
            for q in (p, *(part(x) for x in list_items(p.text))):
                if len(q.words - FILLER_STEMS) >= MIN_WORDS and _unstated(q, units):
                    return Finding(unstated=q.text)
    return Finding(restated=len(parts) > 1 and every)


