"""A universal claim against a unit that says the same of named or counted things in
the place of what the claim ranges over ("Gold members can use the sauna at every gym"
against "... at the Elm Street and Harbour Road branches"; "... on any coffee" against
"... on the two house blends"; "allowed anywhere on the campsite" against "allowed in
the North Field"): the claim widens the unit to everything of a kind the unit never
names.

The reading is narrow on purpose: the unit must restate the rest of the claim, name
nothing of the claim's quantified phrase, be no universal itself, and put in that phrase's
place (the same content word before or after it) a run of its own words holding a name
or a figure and at least two content words ("our 12 bedrooms" for "every room" is all of
them, no part)."""

from __future__ import annotations

from collections.abc import Sequence

from .clauses import UNIVERSAL, Part, lemma_stems
from .counts import is_number
from .lexical import STOPWORDS
from .scope import TIMES

# universals over places: "anywhere on the campsite", "wherever it is"
PLACE_UNIVERSALS = frozenset({"anywhere", "everywhere", "wherever"})
# words that say a unit's own phrase covers a whole place or kind ("throughout the hotel")
_WHOLE = PLACE_UNIVERSALS | {"throughout", "across"}
# a quantified noun's own place phrase ("any gym in town", "all exams of the board")
_PLACE_PREPS = frozenset({"in", "on", "at", "of", "across", "around"})
_OF = frozenset({"of", "our", "the", "your", "their", "its", "these", "those"})
_SHARE = 0.8  # of the claim's other content words the unit must state (alignment.RESTATES)


def _content(toks: Sequence[str], stems: Sequence[str], i: int) -> bool:
    """Whether token i is a content word: no stopword, figure or quantifier."""
    return toks[i] not in STOPWORDS and not is_number(stems[i]) and toks[i] not in UNIVERSAL


def _phrase(p: Part, stems: list[str]) -> tuple[int, int] | None:
    """The claim's quantified phrase as (quantifier, end): "any | gym in town |",
    "anywhere | on the campsite |"; None when it quantifies a time ("any day": scope's
    time_bound) or no word of its own ("anyone": scope.pronoun_widened)."""
    toks = p.info.tokens
    for i in range(p.info.lead, len(toks)):
        t = toks[i]
        if t in PLACE_UNIVERSALS:
            j = i + 1
        elif t in ("all", "any", "every") and i + 1 < len(toks):
            j = i + 1
            while j < len(toks) and toks[j] in _OF:
                j += 1  # "any of our workshops", "all the exams"
            if j >= len(toks) or not _content(toks, stems, j) or stems[j] in TIMES:
                return None
            while j < len(toks) and _content(toks, stems, j):
                j += 1  # "all gym members"
        else:
            continue
        if j < len(toks) and toks[j] in _PLACE_PREPS:
            k = j + 1
            while k < len(toks) and toks[k] in _OF:
                k += 1
            if k < len(toks) and _content(toks, stems, k):
                while k < len(toks) and _content(toks, stems, k):
                    k += 1
                j = k  # "... in town"
        return i, j
    return None


def _around(toks: Sequence[str], stems: Sequence[str], start: int, end: int, lead: int
            ) -> tuple[str | None, str | None]:
    """The content stems just before `start` (past the opener: "Yes, ...") and at or
    after `end`: a phrase's place."""
    before = next((stems[k] for k in range(start - 1, lead - 1, -1)
                   if _content(toks, stems, k)), None)
    after = next((stems[k] for k in range(end, len(toks)) if _content(toks, stems, k)), None)
    return before, after


def _runs(u: Part, stems: list[str], own: frozenset[str]) -> list[tuple[int, int]]:
    """The unit's runs of its own content words (not the claim's), stopwords and figures
    between them, that hold a name or a figure and two content words or more."""
    toks, caps = u.info.tokens, set(u.info.capitals)
    out: list[tuple[int, int]] = []
    i = u.info.lead
    while i < len(toks):
        if not _content(toks, stems, i) or stems[i] in own:
            i += 1
            continue
        j, last = i, i
        while j < len(toks) and (stems[j] not in own or not _content(toks, stems, j)) and (
                toks[j] not in UNIVERSAL):
            if _content(toks, stems, j):
                last = j
            j += 1
        start = i
        while start > u.info.lead and (is_number(stems[start - 1])
                                       or toks[start - 1] in ("the", "and")):
            start -= 1  # "the two house blends": its figure
        words = [k for k in range(i, last + 1) if _content(toks, stems, k)]
        marked = any(k in caps and k > 0 for k in words) or any(
            is_number(stems[k]) for k in range(start, last + 1))
        if len(words) >= 2 and marked and (start == 0 or toks[start - 1] not in _WHOLE):
            out.append((start, last + 1))
        i = last + 1
    return out


def named_in_place(p: Part, u: Part) -> bool:
    """Whether a universal claim says of everything its quantified phrase names what the
    unit says of named or counted things of its own in that phrase's place (module
    docstring)."""
    if u.universal or any(t in _WHOLE for t in u.info.tokens):
        return False
    toks = p.info.tokens
    stems = lemma_stems(toks, p.info.all_stems)
    found = _phrase(p, stems)
    if found is None:
        return False
    at, end = found
    phrase = {stems[k] for k in range(at, end) if _content(toks, stems, k)} | (
        {stems[at]} if toks[at] in PLACE_UNIVERSALS else set())
    if phrase & u.words:
        return False  # the unit names what the claim ranges over (scope.narrowed's)
    rest = p.words - phrase
    if len(rest) < 2 or len(rest & u.words) < _SHARE * len(rest):
        return False
    place = _around(toks, stems, at, end, p.info.lead)
    utoks = u.info.tokens
    ustems = lemma_stems(utoks, u.info.all_stems)
    for start, stop in _runs(u, ustems, frozenset(p.words)):
        theirs = _around(utoks, ustems, start, stop, u.info.lead)
        if any(a is not None and a == b for a, b in zip(place, theirs, strict=True)):
            return True
    return False
