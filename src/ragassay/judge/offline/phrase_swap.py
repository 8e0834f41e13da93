"""A phrase swapped for another that the contexts name elsewhere (issue #38, sessions 7, 24).

"The red pandas are in Mountain Ridge, next to the cafe" against "The snow leopards are
housed in Mountain Ridge, next to the cafe" (and, in another sentence, "The red pandas
live in the Himalayan Forest zone"): the claim says what the unit says, with a run of
words put where the unit has a run of its own. One word for one word is alignment's
swap (`alignment._fit`), a name of several capitalised words for another
`scope.name_swap`; this reads a run of any words, as the contexts give it:

- the claim's words the unit lacks are one run of its content words, between the same
  neighbours as a run of the unit's own that the claim lacks (the content word before
  and the one after, or the start or end of both), at least one neighbour a word; where
  the claim's run opens or ends it, the unit's run stops at the unit's next word the
  claim states (a claim that fronts what the unit says last: "On Fridays lanes 1-4 are
  kept for parties" / "Lanes 1-4 are kept for league play on Fridays"); the
  unit's run is at most one word longer, and the token just before or just after both
  runs is the same ("The red pandas are" / "The snow leopards are": one frame; not "The
  peregrine falcon is" / "This is a list of");
- the claim's run is stated, word for word in that order, by another context sentence:
  the contexts name it elsewhere, so it is another entity of theirs, not a rewording
  (a single word only as a name there: "Mark" in "... is Mark, who works Mondays"; a
  lowercase word of another sentence, "nausea and epilepsy" for "nausea and dizziness",
  was tried in session 24 and withdrawn: it flagged a faithful cited answer of a
  held-out set);
- the unit's sentence does not name it, unless the unit is a clause and another clause
  of its sentence states the run and not the unit's, as many words, none a near-synonym
  of its counterpart, not listed with it, and the claim states nothing more of that
  clause (`_sibling_clause`: "Weekday tours start at the visitor centre" against
  "Weekday tours start at the north gate; weekend tours start at the visitor centre");
  a clause that limits or denies is alignment's `_moved`; nor is a word of either run
  an acronym of the other's sentence ("PGA" for "Producers Guild of America").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .clauses import Part, clause_parts
from .scope import acronym

if TYPE_CHECKING:
    from .units import Unit, Units

MAX_RUN = 4  # content words of a swapped phrase, at most (a name, a product, a place)


def phrase_swap(p: Part, u: Unit, only_c: frozenset[str], only_u: frozenset[str],
                units: Units) -> frozenset[str] | None:
    """The unit's run of words that the claim's run takes the place of (module
    docstring), or None."""
    if not 1 <= len(only_c) <= MAX_RUN or not only_u:
        return None
    named = bool(only_c & u.sentence.words)  # (its sentence names the claim's run)
    if named and not u.clause:
        return None
    claim = [w for _, w in p.pairs]
    at = [i for i, w in enumerate(claim) if w in only_c]
    if not at:
        return None
    lo, hi = at[0], at[-1]
    run = claim[lo:hi + 1]
    if any(w not in only_c for w in run) or set(run) != only_c:
        return None  # not one run
    before = claim[lo - 1] if lo else None
    after = claim[hi + 1] if hi + 1 < len(claim) else None
    if before is None and after is None:
        return None
    theirs = _run_between(u, before, after, p.words)
    if (not theirs or len(theirs) > len(run) + 1 or any(w not in only_u for w in theirs)
            or not _same_frame(p, lo, hi, u.part, theirs)):
        return None
    if _abbreviates(p, lo, hi, u, theirs):
        return None  # "PGA" for "Producers Guild of America": one name
    if named:
        return frozenset(theirs) if _sibling_clause(p, u, run, theirs, units) else None
    word = p.pairs[lo][0] if len(run) == 1 else None
    stating = [r for r in units.by_stem.get(run[0], ())
               if r != u.row and _states_run(units, r, run, word)]
    if not stating or any(set(theirs) <= units.sentence(r).words for r in stating):
        return None  # (a sentence naming both says they are one: "Our head chef is Marco")
    return frozenset(theirs)


def _sibling_clause(p: Part, u: Unit, run: list[str], theirs: list[str],
                    units: Units) -> bool:
    """Whether another clause of the unit's sentence states the claim's run, word for
    word, and none of the unit's run it replaces, the two runs as long and no
    near-synonyms word for word: the sentence sets them apart ("Our cars are manual;
    automatic lessons use a hybrid":
    "manual lessons use a hybrid"; not "Our cars are Fiestas; the cars are serviced":
    "Fiestas are serviced", where the other clause names the unit's run too, nor two
    items of one list the sentence's clauses cut apart). A claim that states more of
    the other clause than its run, words or a figure the unit lacks, restates that
    clause in other words ("Adults pay 14 EUR" of "Children under 10 pay 7 EUR; adult
    tickets cost 14 EUR")."""
    if len(run) != len(theirs) or not all(
            units.distinct(w, v) for w, v in zip(run, theirs, strict=True)):
        return False  # one word for one ("pay" / "tickets cost": a rewording)
    if any(units.alternatives.together(w, v, u.row) for w in run for v in theirs):
        return False  # one list cut into clauses ("Opened paints, inks and solvents ...")
    n = len(run)
    for c in clause_parts(u.sentence.text):
        words = [w for _, w in c.pairs]
        if c.text == u.part.text or ((p.words - set(run)) & c.words) - u.words or any(
                f in c.figures for f in p.figures if f not in u.part.figures):
            continue  # (the claim restates the other clause)
        if set(theirs).isdisjoint(words) and any(
                words[i:i + n] == run for i in range(len(words) - n + 1)):
            return True
    return False


def _abbreviates(p: Part, lo: int, hi: int, u: Unit, theirs: list[str]) -> bool:
    """Whether a word of one run is an acronym of the other's sentence ("PGA" of
    "Producers Guild of America")."""
    mine = [t for t, _ in p.pairs[lo:hi + 1]]
    their_words = [t for t, w in u.part.pairs if w in theirs]
    return any(acronym(t, p) for t in their_words) or any(
        acronym(t, u.sentence) for t in mine)


def _positions(p: Part) -> list[int]:
    """The token position of each of the part's content words (`Part.pairs`)."""
    out, k = [], 0
    for i, t in enumerate(p.info.tokens):
        if k < len(p.pairs) and t == p.pairs[k][0]:
            out.append(i)
            k += 1
    return out


def _same_frame(p: Part, lo: int, hi: int, u: Part, theirs: list[str]) -> bool:
    """Whether the two runs sit in the same frame of words: the token just before them
    is the same in both, or the one just after ("The red pandas are ..." / "The snow
    leopards are ..."; not "The peregrine falcon is ..." / "This is a list of ...")."""
    mine, at = _positions(p), _positions(u)
    words = [w for _, w in u.pairs]
    start = next((i for i in range(len(words) - len(theirs) + 1)
                  if words[i:i + len(theirs)] == theirs), None)
    if start is None or len(mine) != len(p.pairs) or len(at) != len(u.pairs):
        return False
    a, b = mine[lo], mine[hi]
    c, d = at[start], at[start + len(theirs) - 1]
    tp, tu = p.info.tokens, u.info.tokens
    before = a > 0 and c > 0 and tp[a - 1] == tu[c - 1]
    after = b + 1 < len(tp) and d + 1 < len(tu) and tp[b + 1] == tu[d + 1]
    return before or after


def _run_between(u: Unit, before: str | None, after: str | None,
                 said: frozenset[str]) -> list[str]:
    """The unit's content words between `before` and `after`; for None, up to the
    unit's word next to the other neighbour that the claim states too (`said`), or the
    unit's start or end (a claim that fronts a time: "On Fridays X is for Y" / "X is for
    Z on Fridays"); empty when a neighbour is not there."""
    words = [w for _, w in u.part.pairs]
    start = 0
    if before is not None:
        if before not in words:
            return []
        start = words.index(before) + 1
    elif after is not None and after in words:
        end = words.index(after)
        start = next((i + 1 for i in range(end - 1, -1, -1) if words[i] in said), 0)
    end = len(words)
    if after is None:
        end = next((i for i in range(start, len(words)) if words[i] in said), end)
    else:
        end = next((i for i in range(start, len(words)) if words[i] == after), -1)
        if end < 0:
            return []
    return words[start:end]


def _states_run(units: Units, row: int, run: list[str], word: str | None) -> bool:
    """Whether the context sentence states the run word for word, in order (a single
    word as a name of it: `word`, the claim's token, among its names)."""
    if word is not None:
        return word in units.ctx.infos[row].names
    words = [w for _, w in units.sentence(row).part.pairs]
    n = len(run)
    return any(words[i:i + n] == run for i in range(len(words) - n + 1))
