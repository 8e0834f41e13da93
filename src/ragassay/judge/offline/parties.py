"""Two parties of one relation exchanged in a claim that otherwise restates a context
sentence word for word ("The tenant pays the landlord" for "The landlord pays the
tenant"; "Members email the office" for "The office emails members"): contradiction's
role swap for common nouns, which have no capital to tell them by.

The claim must say only the sentence's content words; its subject (its first content
word) and a later party each occur once in both sentences, in the reverse order in the
context, with the same relation between them (the same words in the same order but for
articles and possessives, at most MAX_RELATION content words, no list's "and"/"or"):
so the same voice ("Bins are collected by the council" restates "The council collects
bins") and the same preposition ("the floor below the spa" is the converse of "the
floor above the restaurant", no swap).
"""

from __future__ import annotations

from .sentences import SentenceInfo

MAX_RELATION = 3
_LISTS = frozenset({"and", "or", "nor"})
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "our", "your", "his", "her",
                          "my", "this", "that", "these", "those", "s"})


def _places(s: SentenceInfo) -> dict[str, int]:
    """Token position of each content stem that occurs once in the sentence."""
    seen: dict[str, list[int]] = {}
    content = set(s.stems)
    for i, st in enumerate(s.all_stems):
        if st in content and i >= s.lead:
            seen.setdefault(st, []).append(i)
    return {st: at[0] for st, at in seen.items() if len(at) == 1}


def _between(s: SentenceInfo, lo: int, hi: int) -> tuple[tuple[str, ...], int]:
    """Every word strictly between two positions as stems, in order, but for articles
    and possessives ("sends the invoice to the"), and how many are content words."""
    content = set(s.stems)
    run = tuple(st for t, st in zip(s.tokens[lo + 1:hi], s.all_stems[lo + 1:hi], strict=True)
                if t not in _DETERMINERS)
    return run, sum(st in content for st in run)


def parties_swapped(s: SentenceInfo, c: SentenceInfo) -> bool:
    """Whether the claim `s` restates the context sentence `c` with its subject and
    another party exchanged (module docstring)."""
    if not s.stems or not set(s.stems) <= set(c.stems) or s.negated != c.negated:
        return False
    mine, theirs = _places(s), _places(c)
    first = next((st for st in s.all_stems[s.lead:] if st in set(s.stems)), None)
    if first is None or first not in mine or first not in theirs:
        return False
    x, cx = mine[first], theirs[first]
    for other, y in mine.items():
        cy = theirs.get(other)
        if y <= x or cy is None or cy >= cx:
            continue
        rel, n = _between(s, x, y)
        if 0 < n <= MAX_RELATION and rel == _between(c, cy, cx)[0] and not _LISTS & set(
                s.tokens[x + 1:y]):
            return True
    return False
