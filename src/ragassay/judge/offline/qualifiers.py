"""The phrase that qualifies each of a sentence's values of one thing, where the sentence
gives them side by side in phrases of one shape, not in clauses of their own ("A service
costs £40 for a hatchback and £65 for a van"; "one carer to every 4 infants under one,
and one to every 10 children over three"; "Tickets are £9 each, or £7 each for parties of
ten or more"): the phrase after a value, up to the next value of the same thing, is what
that value is for (the opening rate, "per night", "each", is no part of it).

A claim that gives one of the values with the words only another value's phrase says,
and none only its own says ("The service on a van is £40"), has taken the figure from
the other phrase: a number change. Read only where the other value's phrase opens with a
word that ties a qualification to its value (`_TIES`: "for", "under", "aged", ...), so
that a value written after its subject ("adults pay £10 and children £5": "and
children" follows the £10) is no phrase of the value before it. A claim that gives both
values (or more of that thing's from the sentence) may say both, and is left alone.
"""

from __future__ import annotations

from .clauses import DETERMINERS, Part
from .counts import DAY, is_number
from .placed import CONDITIONAL, counted_key
from .units import Units

# words that open a phrase qualifying the value before it
_TIES = frozenset({"for", "to", "under", "over", "aged", "with", "on", "from", "during",
                   "after", "before", "if", "when", "in", "at", "between", "up"})
_RATE = frozenset({"per", "a", "an"})  # "per night", "a month": the value's rate
_EACH = frozenset({"each", "apiece"})
PAIR = 2  # values of the thing the sentence gives: two side by side, each once (a
# sentence of more, "$3.50 per share, up $1.01 per share, ... $55.4 million", is a report
# of figures, not a pair of offers)
MAX_PHRASE = 8  # tokens of a qualifying phrase, at most
_RANGE = frozenset({"to", "until", "till", "through", "between"})
MAX_RANGE_GAP = 6  # tokens from a range's first value to its second, at most
# a phrase ends where a join opens a clause of its own ("..., and the other fee is ...")
_JOINS = frozenset({"and", "or", "but", "while", "whereas"})
_OPENS = DETERMINERS | {"we", "you", "they", "it", "there"}


def _number(s: str) -> float | None:
    """The value a stem writes, if it is a number ("250g": none)."""
    try:
        return float(s) if is_number(s) else None
    except ValueError:
        return None


def _positions(toks: tuple[str, ...], stems: list[str], key: str) -> list[int]:
    """The token positions of the sentence's values counting `key` (the next stem), an
    ordinal ("a third bag") none."""
    return [i for i, s in enumerate(stems[:-1])
            if _number(s) is not None and is_number(toks[i]) and stems[i + 1] == key]


def _phrase(toks: tuple[str, ...], stems: list[str], start: int, end: int,
            content: frozenset[str], key: str) -> tuple[bool, frozenset[str]]:
    """Whether the tokens from `start` (after a value and its noun) to `end` open with a
    tie word, its rate skipped, and the content stems and numbers of the phrase."""
    i = start
    while i < end and (toks[i] in _RATE or toks[i] in _EACH):
        i += 1 if toks[i] in _EACH else 2
    tied = i < end and toks[i] in _TIES
    end = next((k for k in range(i, end - 1) if toks[k] in _JOINS and toks[k + 1] in _OPENS),
               end)
    words = frozenset(s for s in stems[i:end] if (s in content or is_number(s)) and s != key)
    return tied, words - _RATE


def _claim_words(p: Part, n: float) -> frozenset[str]:
    """The claim's content stems and the numbers it gives besides `n`."""
    numbers = {s for s in p.info.all_stems if _number(s) not in (None, n)}
    return p.words | numbers


def _swapped_in(p: Part, n: float, key: str, sentence: tuple[tuple[str, ...], list[str]],
                content: frozenset[str], given: set[tuple[float, str | None]]) -> bool:
    toks, stems = sentence
    at = _positions(toks, stems, key)
    values = [float(stems[i]) for i in at]  # (numbers all: `_positions`)
    if len(values) != PAIR or len(set(values)) != PAIR or n not in values or sum(
            (m, key) in given for m in set(values)) != 1:
        return False
    if _RANGE & set(toks[at[0] + 1:at[1]]) and at[1] - at[0] <= MAX_RANGE_GAP:
        return False  # a range ("from $1.30 to $1.40 for the year"), not a pair
    phrases = []
    for j, i in enumerate(at):
        end = at[j + 1] if j + 1 < len(at) else len(toks)
        tied, words = _phrase(toks, stems, i + 2, end, content, key)
        phrases.append((values[j], tied, end - i - 2 <= MAX_PHRASE, words))
    own = frozenset[str]().union(*(w for v, _, _, w in phrases if v == n))
    said = _claim_words(p, n)
    if said & own - frozenset().union(*(w for v, _, _, w in phrases if v != n)):
        return False  # it says a word only its own value's phrase says
    return any(tied and short and said & (words - own)
               for v, tied, short, words in phrases if v != n)


def qualifier_swapped(p: Part, units: Units, rows: list[int],
                      said: set[tuple[float, str | None]]) -> int | None:
    """The context sentence one of whose values the claim gives with the words of
    another value's phrase (module docstring), or None. `said`: the figures of the
    claim's whole sentence (it may give the other value in another clause)."""
    if CONDITIONAL & set(p.info.tokens):
        return None
    for n, key in p.figures:
        if key is None or not counted_key(key) or key in ("time", DAY):
            continue
        for j in rows:
            info = units.ctx.infos[j]
            if info.asks or n not in info.values:
                continue
            if _swapped_in(p, n, key, (info.tokens, info.all_stems), frozenset(info.stems),
                           said | set(p.figures)):
                return j
    return None
