"""An answer's text without its citation markers (`strip`), and where its markers cut a
sentence into pieces that cite different passages (`cited_pieces`): "Membership is £30 a
year [1], or £5 for families on benefits [2]" is two claims, each drawn from its own
passage, that the offline judge checks one by one (judge/offline/answer.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

PUNCT = ".,;:!?。"
_WORD = re.compile(r"\w")
_EDGES = " \t,;:\u2013\u2014-"  # what a piece loses at its ends once cut out
# the word that joined a piece to the one before it ("..., except in August, sessions
# move ..."), no part of what the piece claims: a piece opened so loses it (a condition's
# "if" or "unless" stays: without it the piece would claim what it only supposes)
_JOIN = re.compile(r"^(?:and|or|but|yet|except|plus|whereas|while)\b[\s,]*", re.IGNORECASE)


class Span(Protocol):
    """A marker's place in the text."""

    start: int
    end: int


def clusters(text: str, a: int, b: int, raws: Sequence[Span]) -> list[tuple[int, int]]:
    """The markers within `text[a:b]` as spans, those only spaces apart made one
    ("[1] [3]" is one removal)."""
    out: list[tuple[int, int]] = []
    for r in raws:
        s, e = max(r.start, a), min(r.end, b)
        if s >= e:
            continue
        while s > a and e < b and text[s - 1] + text[e] in ("[]", "()"):  # "[[2]]"
            s, e = s - 1, e + 1
        if out and (s <= out[-1][1] or not text[out[-1][1]:s].strip(" \t")):
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def strip(text: str, a: int, b: int, raws: Sequence[Span]) -> str:
    """`text[a:b]` without the markers in it (sorted): a space left before punctuation
    or doubled by the removal goes too; other text is kept as is."""
    out: list[str] = []
    pos = a
    for s, e in clusters(text, a, b, raws):
        piece = text[pos:s]
        nxt = text[e] if e < b else ""
        if not nxt or nxt in PUNCT or nxt.isspace():
            piece = piece.rstrip(" \t")
        elif piece[-1:].isalnum() and nxt.isalnum():  # "see[1]and": words stay apart
            piece += " "
        out.append(piece)
        pos = e
    out.append(text[pos:b])
    return "".join(out)


def tidy(sentence: str) -> str:
    return " ".join(sentence.split())


def _cites(cut: Sequence[tuple[int, int]], raws: Sequence[Span],
           targets: Sequence[tuple[int, ...]]) -> list[frozenset[int]]:
    """The passages each cluster of `cut` cites (raws and clusters both in order: one
    walk)."""
    out: list[set[int]] = [set() for _ in cut]
    k = 0
    for r, ts in zip(raws, targets, strict=True):
        while k < len(cut) and cut[k][1] <= r.start:
            k += 1
        if k < len(cut) and cut[k][0] <= r.start:
            out[k].update(ts)
    return [frozenset(c) for c in out]


def _piece(text: str, a: int, b: int, raws: Sequence[Span]) -> str:
    return tidy(strip(text, a, b, [r for r in raws if a <= r.start < b])
                ).lstrip(PUNCT + _EDGES).rstrip(_EDGES)


def cited_pieces(text: str, a: int, b: int, raws: Sequence[Span],
                 targets: Sequence[tuple[int, ...]]) -> tuple[str, ...]:
    """The sentence `text[a:b]` cut at its markers that stand mid-sentence (words on
    either side) and cite other passages than the next piece's markers do: each piece
    is a clause its writer drew from its own passage. () when no marker cuts it (one
    passage cited, markers only at the end, or a piece with no marker of its own)."""
    first = _WORD.search(text, a, b)
    if first is None or len(raws) < 2:
        return ()
    last = b - 1
    while last > first.start() and not text[last].isalnum() and text[last] != "_":
        last -= 1
    cut = clusters(text, a, b, raws)
    cites = _cites(cut, raws, targets)
    ends = [k for k, (s, e) in enumerate(cut) if first.start() < s and e <= last]
    if not ends:
        return ()
    pieces, pos = [], a
    for n, k in enumerate(ends):
        after = cites[ends[n + 1]:ends[n + 1] + 1] if n + 1 < len(ends) else cites[k + 1:]
        if not cites[k] or not after or any(not c or c == cites[k] for c in after):
            continue  # the same passage(s) on both sides, or a piece citing nothing
        pieces.append(_piece(text, pos, cut[k][0], raws))
        pos = cut[k][1]
    if pos == a:
        return ()
    pieces.append(_piece(text, pos, b, raws))
    return tuple(j for p in pieces if _WORD.search(j := _JOIN.sub("", p)))
