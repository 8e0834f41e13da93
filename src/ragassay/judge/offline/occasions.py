"""An occasion the unit says a fact holds on, dropped so that the fact holds always
(subject_scope.restriction_dropped):

- `occasion_dropped`: a calendar period the unit places the fact in ("during exam weeks",
  "in the summer holidays", "over the Christmas period", "in the winter months") and a
  claim that states the rest of the fact in the unit's words and keeps no word of the
  period ("the library stays open until midnight"): one case said as the rule;
- `ranked_day_dropped`: a ranked weekday of the month ("on the first Wednesday of the
  month") said as the weekday ("on Wednesdays"): the claim keeps the day, neither its
  rank nor the month. Only weekdays: a ranked noun of another kind ("the first hour",
  "your last lesson") is often a part of what is priced, not an occasion.

Both stand down when the question or the claim's own sentence names a word of the
occasion (it is the answer's case), when the claim is restricted itself, or when it says
anything the unit does not.
"""

from __future__ import annotations

from .clauses import Part, clause_parts, lemma_stems
from .lexical import DAYS, STOPWORDS, stem

# the head nouns of a calendar period: a stretch of the year, not a part of the day or a
# place ("in the lobby", "in the evening" say where or when in a day)
_PERIODS_TEXT = """
    holidays holiday vacation term termtime semester period break season seasons sale
    sales fortnight months weeks summer winter spring autumn christmas easter festival exams
"""
_PERIODS = frozenset(stem(w) for w in _PERIODS_TEXT.split())
_OPENERS = frozenset({"during", "in", "over", "throughout"})
_SPAN = 5  # tokens from the preposition to the period's head, at most
_COMMON = 3  # content words the claim shares with the unit, at least
_RANKS = frozenset({"first", "second", "third", "fourth", "last"})
_MONTH = stem("month")
# a report of the past says when one thing happened, no rule of when it holds
_PAST = frozenset({"was", "were", "had", "did", "wasn't", "weren't", "didn't"})
_CENTURIES = frozenset({"17", "18", "19", "20"})  # a year dates an event


def _periods(toks: tuple[str, ...], stems: list[str]) -> list[frozenset[str]]:
    """The content stems of each calendar period phrase: an opener, then words up to a
    period head ("during exam weeks", "in the summer holidays"); "during a match",
    "during their stay" say when, of every one."""
    out: list[frozenset[str]] = []
    for i, t in enumerate(toks):
        if t not in _OPENERS:
            continue
        words: list[str] = []
        for j in range(i + 1, min(len(toks), i + 1 + _SPAN)):
            if toks[j][:1].isdigit() or not toks[j][:1].isalpha():
                break  # "in 2 weeks" is a span, not an occasion
            if toks[j] not in STOPWORDS:
                words.append(stems[j])
            if stems[j] in _PERIODS and (j + 1 >= len(toks) or stems[j + 1] not in _PERIODS):
                out.append(frozenset(words))
                break
    return out


def occasion_dropped(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether the unit places its fact in a calendar period and the claim, restricted in
    no way of its own and in the unit's words only (three at least), keeps no word of it."""
    if p.restricted or not p.words <= u.words or len(p.words) < _COMMON:
        return False
    both = set(p.info.tokens) | set(u.info.tokens)
    if _PAST & both or any(len(t) == 4 and t.isdigit() and t[:2] in _CENTURIES for t in both):
        return False  # ("The flow was measured in 1907"; "In 1897 Curie supervised ...")
    pieces = [q for q in clause_parts(u.text) if p.words <= q.words] or [u]
    toks = pieces[0].info.tokens  # (a period in another clause times another fact:
    stems = lemma_stems(toks, pieces[0].info.all_stems)  # "..., although ... during ...")
    return any(words and not words & (p.words | p.stems | given)
               for words in _periods(toks, stems))


def ranked_day_dropped(p: Part, u: Part, given: frozenset[str] = frozenset()) -> bool:
    """Whether the unit names a weekday only ranked within the month ("the last Sunday of
    each month") and the claim, in the unit's words only, says the weekday unranked."""
    if p.restricted or len(p.words) < _COMMON or _RANKS & set(p.info.tokens):
        return False
    if _MONTH in p.stems or not p.words <= u.words | {_MONTH}:
        return False
    toks = u.info.tokens
    days = {stem(d) for d in DAYS}
    ranked = {stem(toks[i]) for i in range(1, len(toks) - 1)
              if toks[i - 1] in _RANKS and stem(toks[i].rstrip("s")) in days
              and toks[i + 1] == "of"}
    plain = {stem(t) for i, t in enumerate(toks)
             if stem(t.rstrip("s")) in days and (not i or toks[i - 1] not in _RANKS)}
    return bool((ranked - plain) & p.words) and not {_MONTH} & given
