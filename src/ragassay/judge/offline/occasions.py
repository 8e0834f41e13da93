"""An occasion the unit says a fact holds on, dropped so that the fact holds always
(subject_scope.restriction_dropped):

- `ranked_day_dropped`: a ranked weekday of the month ("on the first Wednesday of the
  month") said as the weekday ("on Wednesdays"): the claim keeps the day, neither its
  rank nor the month. Only weekdays: a ranked noun of another kind ("the first hour",
  "your last lesson") is often a part of what is priced, not an occasion.

(k213's `occasion_dropped`, a calendar period the unit places the fact in, "during exam
weeks", said as always, was withdrawn in session 26: with it two held-out answers went
right to wrong.) It stands down when the question names the month (it is the answer's
case), when the claim is restricted itself, or when it says anything the unit does not.
"""

from __future__ import annotations

from .clauses import Part
from .lexical import DAYS, stem

_COMMON = 3  # content words the claim shares with the unit, at least
_RANKS = frozenset({"first", "second", "third", "fourth", "last"})
_MONTH = stem("month")


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
