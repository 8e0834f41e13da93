"""Code in an answer: fenced blocks and inline code spans, which hold no citation markers
(`items[0]` in code is code), and the one merge walk that tells spans inside them."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_TICKS = re.compile(r"`+")
_PARAGRAPH = re.compile(r"\n\s*\n")


def _fences(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks (``` or ~~~, closed by a fence of the same kind at least as
    long, or by the end of the text) as spans."""
    out: list[tuple[int, int]] = []
    pos = 0
    while (m := _FENCE.search(text, pos)) is not None:
        fence = m.group(1)
        line_end = text.find("\n", m.end())
        if fence[0] == "`" and "`" in text[m.end():line_end if line_end >= 0 else None]:
            pos = m.end()  # "```x```" on one line: inline code, not a fence
            continue
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$",
                           re.MULTILINE)
        end = close.search(text, line_end + 1) if line_end >= 0 else None
        stop = end.end() if end is not None else len(text)
        out.append((m.start(), stop))
        pos = max(stop, m.end())
    return out


def _inline_code(text: str, start: int, stop: int, out: list[tuple[int, int]]) -> None:
    """Inline code spans in `text[start:stop]`, paragraph by paragraph: a run of
    backticks closed by the next run of the same length in the same paragraph
    (CommonMark); a run with no closer is a literal backtick."""
    for m in _PARAGRAPH.finditer(text, start, stop):
        _code_runs(text, start, m.start(), out)
        start = m.end()
    _code_runs(text, start, stop, out)


def _code_runs(text: str, start: int, stop: int, out: list[tuple[int, int]]) -> None:
    runs = [(m.start(), m.end()) for m in _TICKS.finditer(text, start, stop)]
    by_length: dict[int, list[int]] = {}
    for i, (a, b) in enumerate(runs):
        by_length.setdefault(b - a, []).append(i)
    i = 0
    while i < len(runs):
        a, b = runs[i]
        same = by_length[b - a]
        k = bisect_right(same, i)
        if k < len(same):
            j = same[k]
            out.append((a, runs[j][1]))
            i = j + 1
        else:
            i += 1


def code_spans(text: str) -> list[tuple[int, int]]:
    """Fenced blocks and inline code spans of `text`, in order, as spans."""
    out: list[tuple[int, int]] = []
    last = 0
    for a, b in _fences(text):
        _inline_code(text, last, a, out)
        out.append((a, b))
        last = b
    _inline_code(text, last, len(text), out)
    return out


def outside(found: list[tuple[int, int]], blocked: Sequence[tuple[int, int]]) -> list[bool]:
    """For spans sorted by start: whether each starts outside every blocked span
    (sorted, disjoint); one merge walk."""
    keep, k = [], 0
    for a, _ in found:
        while k < len(blocked) and blocked[k][1] <= a:
            k += 1
        keep.append(not (k < len(blocked) and blocked[k][0] <= a))
    return keep


