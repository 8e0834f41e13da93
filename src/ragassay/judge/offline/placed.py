"""Which slot of the contexts a claim's figure is bound to (claim-level alignment).

A figure in the contexts belongs to a slot: a clause of its sentence, an item of a
"label: value" list, or a sentence about one step. A claim that takes a figure from one
slot and gives it the words of another is a number change, though the figure occurs in
the contexts:

- another clause of the same sentence ("loans last 21 days for students and 42 days
  for staff": "students ... 42 days"), told apart by the words of its clause, a time
  of day included ("open 7am-10pm on weekdays and 8am-8pm at weekends");
- another item of a list ("Battery: £69. Screen: £149." in one sentence);
- another sentence, when the claim restates, besides the figure's word, at least
  SHARED_WORDS of the words of the sentence that gives the same thing another value and
  none of the words that set the figure's own slot apart (an exception, an extension:
  "held for 18 days ... unless ... an extension of up to 30 days": "held for 30 days");
- a figure the contexts give only with another noun, where a sentence the claim
  restates gives the claim's noun another value ("up to 6 bags ... within 10 miles":
  "up to 10 bags");
- a bound turned round: "at least 30 players" where the contexts say only "up to 30
  players", or "can bring more than 2 guests" (a comparison right after a modal's verb)
  for "up to 2 guests" (`bound_flipped`).

Read the other way, a denied comparison the other side states as its bound ("Riders
can't weigh more than 95 kg" / "The maximum rider weight is 95 kg") is no flip of
polarity (`denied_bound`, which polarity.unit_flip asks).

A claim that states the other slot's value too, or is itself conditional ("if you ask
for an extension, ..."), is left alone: it may say both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .clauses import Part, part, subject_words
from .counts import DAY
from .lexical import MONTHS, stem
from .normalise import normalise_text
from .pieces import MODALS
from .sentences import SentenceInfo
from .units import Unit, Units

_MONTH_STEMS = frozenset(stem(m) for m in MONTHS)
SHARED_WORDS = 2  # content words a claim must share with a slot of another sentence
# a claim that states a condition of its own may state the exception's value
CONDITIONAL = frozenset({"if", "unless", "except", "provided", "when"})
# a "label: value" item: a label, a colon, a value opened by a figure
_ITEM = re.compile(r"^[^:\d][^:]*:\s*\d")
_ITEM_BREAK = re.compile(r"(?:[.;])\s+")


@dataclass(frozen=True, slots=True)
class FigureSlot:
    """A slot of a context sentence (a clause, a list item or the sentence) with the
    figures it holds."""

    unit: Unit
    figures: frozenset[tuple[float, str | None]]

    @property
    def row(self) -> int:
        return self.unit.row

    @property
    def words(self) -> frozenset[str]:
        return self.unit.words


def _items(u: Unit) -> list[Unit]:
    """The items of a sentence that is a list of two or more "label: value" items
    ("Battery: 69 pounds. Screen: 149 pounds"), each a slot of its own."""
    text = u.sentence.text
    if text.count(":") < 2:
        return []
    pieces = [x.strip() for x in _ITEM_BREAK.split(normalise_text(text)) if x.strip()]
    if len(pieces) < 2 or not all(_ITEM.match(x) for x in pieces):
        return []
    return [Unit(part(x), u.row, True, u.sentence) for x in pieces]


def figure_slots(units: Units, row: int) -> list[FigureSlot]:
    """The slots of a context sentence: its list items, else its clauses (the smallest
    holding each figure: a condition read with its clause holds the condition's too),
    else the sentence. Read once per sample's contexts (every claim figure asks)."""
    cache = units.ctx.derive("placed.slots", dict[int, list[FigureSlot]])
    if row not in cache:
        cache[row] = _read_slots(units, row)
    return cache[row]


def _read_slots(units: Units, row: int) -> list[FigureSlot]:
    whole = units.sentence(row)
    pieces = _items(whole) or units.clauses(row) or [whole]
    out = [FigureSlot(c, frozenset(c.part.figures)) for c in pieces]
    return [s for s in out if s.figures and not any(
        o is not s and o.figures <= s.figures and o.unit.part.text in s.unit.part.text
        and o.unit.part.text != s.unit.part.text for o in out)]


def _of_rival(p: Part, home: FigureSlot, rival: FigureSlot) -> bool:
    """Whether the claim speaks of the rival slot's subject, not the home's, though it
    shares a word of the home's predicate or subject: it says every word that sets the
    rival's subject apart and lacks the home's first word ("Tickets for children under 12
    cost 11 EUR" against "Children under 12 pay 6 EUR; adult tickets cost 11 EUR":
    children, not adult)."""
    mine, theirs = subject_words(home.unit.part), subject_words(rival.unit.part)
    apart_home, apart_rival = mine - theirs, theirs - mine
    first = home.unit.part.first  # (the home's first word, unsaid: "Adults pay £180 ...
    # and juniors ... pay £90" says both slots, the adults' first)
    return (first in apart_home and first not in p.words and bool(apart_rival)
            and apart_rival <= p.words)


def _subject_of(p: Part, written: frozenset[str], home: FigureSlot, rival: FigureSlot
                ) -> bool:
    """Whether the claim's subject (what a clause takes from its sentence, else its
    first word) is the rival slot's first word, no word of the home slot's, and the
    claim lacks the home's first word: "Varifocal lenses are made to order and are ready
    within 7 days" against "New glasses are ready within 7 days. Varifocal lenses take up
    to 14 days" speaks of varifocals, in the words of another thing's slot."""
    first, mine = rival.unit.part.first, home.unit.part.first
    subject = (p.words - written) or {p.first}
    return bool(first) and first in subject and first not in home.words and (
        mine not in p.words)


def counted_key(key: str | None) -> bool:
    """Whether a figure's key is what it counts (no date, name or unknown)."""
    return key is not None and key[0] not in "@#"


def _rows(near: list[Unit], units: Units, doc: int | None, n: float,
          keys: Iterable[str]) -> list[int]:
    """The context sentences a figure of the claim may be bound in: those near it, those
    naming what it counts and those stating its value."""
    docs = units.ctx.docs
    by_value = units.ctx.derive("placed.by_value", lambda: _by_value(units.ctx.infos))
    rows = {u.row for u in near} | set(by_value.get(n, ()))
    for k in keys:
        rows.update(units.by_stem.get(k, ()))
    return sorted(j for j in rows if doc is None or docs[j] == doc)


def _by_value(infos: list[SentenceInfo]) -> dict[float, list[int]]:
    """The context sentences stating each value."""
    out: dict[float, list[int]] = {}
    for j, info in enumerate(infos):
        for v in info.values:
            out.setdefault(v, []).append(j)
    return out


_SPEAKERS = frozenset({"we", "i", "you", "they"})
_FRAME_TOKENS = 3  # tokens before the speaker a sentence's framing phrase has, at most


def _framing(home: FigureSlot) -> frozenset[str]:
    """The words of a time or place phrase opening the figure's clause before its speaker
    ("Last year we admitted 412 ..."): they frame every clause of the sentence ("... and
    released 268 ..."), so a claim saying them says no word of the figure's own slot."""
    toks = home.unit.part.info.tokens
    at = next((i for i, t in enumerate(toks[:_FRAME_TOKENS + 1]) if t in _SPEAKERS), 0)
    if not at or not home.unit.sentence.info.text.startswith(home.unit.part.text[:8]):
        return frozenset()
    stems = home.unit.part.info.all_stems
    return frozenset(stems[:at]) & home.words


def misplaced_figure(p: Part, near: list[Unit], units: Units, doc: int | None = None
                     ) -> int | None:
    """The context sentence whose slot the claim's figure is taken from another slot
    for (module docstring), or None."""
    conditional = bool(CONDITIONAL & set(p.info.tokens))
    shared = {u.row for u in near if not u.clause and len(p.words & u.words) >= SHARED_WORDS}
    said = set(p.figures)
    written = part(p.text).words
    for n, key in p.figures:
        if key is None or not (counted_key(key) or key == DAY):
            continue  # (a year, a name's number or a figure counting nothing)
        rows = _rows(near, units, doc, n, () if key in (DAY, "time") or " " in key else (key,))
        slots = [s for j in rows for s in figure_slots(units, j)]
        homes = [s for s in slots if (n, key) in s.figures]
        rivals = [s for s in slots if (n, key) not in s.figures
                  and any(k == key and m != n for m, k in s.figures)
                  and not any((m, k) in said for m, k in s.figures if k == key)]
        # (a date's month is of its figure, no word of its slot: "reopens on 24 December"
        # against "closes on 24 December and reopens on 2 January")
        own: set[str | None] = {key, *(_MONTH_STEMS if key == DAY else ())}
        borrowed = not homes  # the figure only with another noun: "10 miles", "10 bags"
        if borrowed:
            if key in (DAY, "time"):
                continue
            homes = [s for s in slots if any(
                m == n and counted_key(k) and k != "time" for m, k in s.figures)]
            own |= {k for s in homes for m, k in s.figures if m == n}
        for r in rivals:
            # a home in the rival's sentence, else the one home of the contexts
            mine = [h for h in homes if h.row == r.row] or homes
            if len(mine) != 1:
                continue
            home = mine[0]
            apart = home.words - r.words - own - _framing(home)
            of_rival = len(homes) == 1 and (_of_rival(p, home, r) or _subject_of(
                p, written, home, r))
            if p.words & apart and not of_rival:
                continue  # the claim has words of the figure's own slot
            # (words of its own: a clause "and 3 pm" has only what its sentence names; a
            # clause's subject, its sentence's, the rival's: "Varifocals ... and are ready")
            moved = written & (r.words - home.words) - {key}
            if borrowed or home.row != r.row:  # the claim restates the rival's sentence
                if not conditional and len(p.words & r.words - {key}) >= SHARED_WORDS and (
                        borrowed or moved or of_rival):
                    return r.row
            elif r.row in shared and moved:
                return r.row
    return None


# a figure's bound: what the tokens before it or after it say of it ("a maximum of", "no
# more than", "as many as", "at most" are written "up to", "a minimum of" and "no fewer
# than" "at least" before any match: normalise._BOUND_WORDS)
_AT_LEAST = (("at", "least"), ("minimum",))
_AT_MOST = (("up", "to"), ("maximum",))
_EXACTLY = frozenset({"exactly", "precisely"})  # a figure neither side bounds: "exactly 8"
# a comparison after a modal is a strict bound of what may be done, on the same side: "can
# bring more than 6 books" against "up to 6 books" says the other side; denied ("can't
# bring more than 6"), the other side. Elsewhere it says which things ("orders over £40",
# "bags over 23 kg are not accepted", "tours with fewer than 6 people"): no bound.
_ABOVE = (("over",), ("above",), ("exceed",)) + tuple(
    (w, "than") for w in ("more", "greater", "longer", "bigger", "larger", "heavier",
                          "older", "higher", "taller"))
_BELOW = (("under",), ("below",)) + tuple(
    (w, "than") for w in ("less", "fewer", "shorter", "smaller", "lighter", "younger",
                          "lower"))
_OTHER = {"min": "max", "max": "min"}
# a span before something: its upper bound says what a lower one says of the time
_EARLIER = frozenset({"before", "ahead", "advance", "prior", "beforehand", "earlier",
                      "notice"})
_AFTER = {("or", "more"): "min", ("or", "over"): "min", ("or", "fewer"): "max",
          ("or", "less"): "max", ("at", "most"): "max", ("at", "least"): "min"}


_PARTICLES = frozenset({"in", "for", "up", "out", "on", "off", "back", "away"})


_ADVERBS = frozenset({"now", "also", "still", "only", "ever", "always", "usually", "then"})
_DENYING = frozenset({"not", "never"})


def _compared(toks: tuple[str, ...], i: int) -> tuple[str, bool] | None:
    """The side a comparison before the figure at `i` bounds what may be done: right
    after a modal's verb (and its particle), "can bring more than 6", "can check in more
    than 6", "can be under 25", or as the verb, "can exceed 23 kg" ("min" / "max"); an
    adverb or a negation may stand after the modal ("can now borrow", "can never have");
    and whether a negation denies it ("can't bring more than 6": "max", True). None: no
    such comparison ("can send items over £50": the comparison says which items)."""
    for side, phrases in (("min", _ABOVE), ("max", _BELOW)):
        for x in phrases:
            at = i - len(x)
            if at < 1 or toks[at:i] != x:
                continue
            j = at - 1
            if x != ("exceed",):  # (else the comparison is the verb)
                j -= 1 + (toks[j] in _PARTICLES)  # past the verb and its particle
            denied = False
            while j >= 0 and (toks[j] in _DENYING or toks[j] in _ADVERBS):
                denied, j = denied or toks[j] in _DENYING, j - 1
            modal = toks[j] if j >= 0 else ""
            if modal.endswith(("n't", "n’t")):
                denied, modal = True, {"ca": "can", "wo": "will"}.get(modal[:-3], modal[:-3])
            if modal not in MODALS:
                return None
            denied = denied or modal == "cannot"
            return (_OTHER[side] if denied else side), denied
    return None


def _bounds(p: Part, compared: bool = True) -> dict[float, set[str]]:
    """Each figure's bounds in the text: "min" ("at least 30", "30 or more") or "max"
    ("up to 30", "30 or fewer"); `compared`: a comparison's after a modal too ("can
    bring more than 30", `_compared`), in a clause with no other negation."""
    toks = p.info.tokens
    out: dict[float, set[str]] = {}
    for i, t in enumerate(toks):
        if not t[:1].isdigit():
            continue
        try:
            value = float(t)
        except ValueError:
            continue
        found = out.setdefault(value, set())
        for side, phrases in (("min", _AT_LEAST), ("max", _AT_MOST)):
            if any(toks[max(0, i - len(x)):i] == x for x in phrases):
                found.add(side)
        if i and toks[i - 1] in _EXACTLY:
            found.add("exact")  # against "at least 8" or "up to 8": one side dropped
        if compared and (c := _compared(toks, i)) is not None and _negated(p) <= int(c[1]):
            found.add(c[0])
        if _EARLIER & set(toks[i + 1:i + 4]):
            found.add("min")
            found.add("max")  # "up to 24 hours before" is "at least 24 hours before"
        after = tuple(toks[i + 1:i + 3])
        if after not in _AFTER and toks[i + 1:i + 2] and toks[i + 1].isalpha():
            after = tuple(toks[i + 2:i + 4])  # past what it counts: "8 people or more"
        if after in _AFTER:
            found.add(_AFTER[after])
    return out


def figure_bounds(p: Part) -> dict[float, set[str]]:
    """Each figure's bounds in the text (`_bounds`), for readers outside this module."""
    return _bounds(p)


def denied_bound(p: Part, u: Part) -> bool:
    """Whether the claim's one negation denies a comparison of a figure ("Riders can't
    weigh more than 95 kg") that the unit bounds the same way ("The maximum rider weight
    is 95 kg"): a bound said in other words, no flip of polarity."""
    toks = p.info.tokens
    if _negated(p) != 1:
        return False
    theirs = _bounds(u)
    for i, t in enumerate(toks):
        if not (t[:1].isdigit() and t.replace(".", "", 1).isdigit()):
            continue
        n, c = float(t), _compared(toks, i)
        mine = {k for v, k in p.figures if v == n}
        if c is not None and c[1] and theirs.get(n) == {c[0]} and mine & {
                k for v, k in u.figures if v == n}:
            return True  # ("6 books and 6 DVDs": each 6 counts what it counts)
    return False


def _negated(p: Part) -> int:
    """How many of the clause's negations bear on a word."""
    return sum(1 for h in p.negations if h is not None)


def bound_flipped(p: Part, units: Units, doc: int | None = None) -> int | None:
    """The context sentence that bounds the claim's figure the other way: the claim
    says "at least 30 players" where each context slot that counts players with 30 and
    shares a word with the claim besides "players" says "up to 30 players" (or the
    reverse; "more than 6 books" against "up to 6 books"). A span before something is no
    bound ("up to 24 hours before"); two comparisons ("above 8" / "below 8") are a
    turned relation, not a bound (alignment's "antonym")."""
    mine, stated = _bounds(p), _bounds(p, compared=False)
    for n, key in p.figures:
        sides = mine.get(n, set())
        if (key is not None and not counted_key(key)) or len(sides) != 1:
            continue
        found = [s.unit for j in _rows([], units, doc, n, ()) for s in figure_slots(units, j)
                 if (n, key) in s.figures and p.words & s.words - {key}]
        theirs = [_bounds(u.part).get(n, set()) for u in found]
        plain = stated.get(n)
        if found and all(len(b) == 1 and not b & sides for b in theirs) and (
                plain or all(_bounds(u.part, compared=False).get(n) for u in found)) and (
                plain and key is not None or not _elsewhere(p, found, units)):
            return found[0].row  # (two comparisons, "above 8" / "below 8": a turned relation)
    return None


def _elsewhere(p: Part, found: list[Unit], units: Units) -> bool:
    """Whether the claim has a word its bound's sentences lack that another context
    sentence says with another of the claim's words: a case of its own ("Gold members
    can bring more than 2 guests" beside "Gold members have no guest limit"; "In the
    summer, classes can have fewer than 6 pupils" beside "Smaller classes run in the
    summer"), which a comparison's bound (or a figure that counts nothing) is not set
    against (review 18b); "... more than 2 guests to the pool" beside "The pool opens at
    7am" says none (review 18c)."""
    rows = {u.row for u in found}
    own = p.words - frozenset().union(*(u.sentence.words for u in found))
    return any(r not in rows and (p.words - own) & units.sentence(r).words
               for w in own for r in units.by_stem.get(w, ()))
