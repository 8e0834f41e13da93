"""Marker-like text the grammar does not read (part of the one grammar of `markers`), and
half-open markers (`[2` with no `]`, `unclosed_problems`).

A short bracketed label with a digit where a clause ends ("... weekdays {x1}.", "[p1 x]",
"«note 2»"), any bracket kind but the round one, that no rule of `markers` reads stays
in the answer, so every judge reads it as words or figures of a claim. It is reported
per answer as a problem ("unread marker-like text '{x1}' in sentence b: read as words",
trial 70: five of a user's sixteen cited answers were flagged for a `{1}` nothing said
was left in). Round brackets are left out: "(2024)", "(p. 1)", "(ISO 9001)", "(COVID-19)"
and "(Figure 2)" end sentences of prose. A "see" marker naming no context ("(see:
Shipping times)", `titles.see_like`) is reported so too. Linear: one scan, one merge
walk per filter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from ragassay.text.code import outside
from ragassay.text.loose import BRACKETS, ENDS
from ragassay.text.titles import see_like

_OPEN = "[" + "".join(o for o, _ in BRACKETS) + "【"  # every bracket kind of a marker
_CLOSE = "]" + "".join(c for _, c in BRACKETS) + "】"
_LIKE = re.compile(rf"[{re.escape(_OPEN)}]([^{re.escape(_OPEN + _CLOSE)}()\n]{{1,24}})"
                   rf"[{re.escape(_CLOSE)}]")
_DIGIT = re.compile(r"\d")
_MATH = ("}", "_", "^", "\\")  # glued after these it is a formula's: "\\frac{1}{2}."
MAX_UNREAD = 20  # reported per answer at most (the grammar keeps 20 problems in all)
_RUN = r"[\d\s,;\-–—]{0,200}"
_UNCLOSED = re.compile(rf"\[\s*\^?\s*\d{_RUN}(?:$|(?=[^\d\s,;\-–—\]]))|【[^】\n]{{0,200}}$")


class _Sentence(Protocol):  # what this module reads of a markers.CitedSentence
    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...


def unread_problems(text: str, sentences: Sequence[_Sentence],
                    read: Sequence[tuple[int, int]], code: Sequence[tuple[int, int]]
                    ) -> list[str]:
    """A problem per marker-like label of `text` outside code and outside the markers
    read (`read`: their spans, sorted), naming the sentence (from `sentences`, in order)
    whose text keeps it."""
    hits = [(m.start(), m.group(0)) for m in _LIKE.finditer(text)
            if _DIGIT.search(m.group(1)) and ENDS.match(text, m.end())
            and text[m.start() - 1:m.start()] not in _MATH]
    hits = sorted(dict([*hits, *see_like(text)]).items())  # one per start, in order
    spans = [(a, a + len(t)) for a, t in hits]
    kept = [t for (_, t), c, r in zip(hits, outside(spans, code), outside(spans, read),
                                      strict=True) if c and r]
    out: list[str] = []
    i = 0
    for label in kept[:MAX_UNREAD]:
        j = i
        while j < len(sentences) and label not in sentences[j].text:
            j += 1
        where = ""
        if j < len(sentences):
            i, where = j, f" in sentence {sentences[j].key}"
        out.append(f"unread marker-like text {label!r}{where}: read as words")
    return out


def unclosed_problems(text: str, read: Sequence[tuple[int, int]],
                      code: Sequence[tuple[int, int]]) -> list[str]:
    """Half-open markers (`[2` with no `]`) outside code and outside the markers read
    (`read`: their spans, sorted)."""
    hits = [(m.start(), m.end(), m.group(0).strip()) for m in _UNCLOSED.finditer(text)]
    spans = [(a, b) for a, b, _ in hits]
    in_code = outside(spans, code)
    in_marker = outside(spans, read)
    return [f"unclosed citation marker {t!r}"
            for (_, _, t), c, k in zip(hits, in_code, in_marker, strict=True) if c and k]
