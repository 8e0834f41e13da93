"""Letter-and-digit source labels (part of the one grammar of `markers`).

RAG prompts label passages with a letter and a digit, and bots cite them so: `[A1]`,
`[S2]`, `[P3]`, `[a1]`, `(A1)`, `[A1][B2]`, `[A1, B2]`, `[A1; B2]`, `(A1)(B2)` (trial
75: an `(A1)` left in a verbatim answer was read as a figure "1" and an entity "A1" the
passages lack, "contradicts the context"). The same spelling is also text: a room
("Room [B2] is on the second floor"), a paper size ("(A1)"), a language level ("B2").
So a label of one letter and a number, bracketed alone, is a marker only

- where a clause ends (before punctuation or the line's end, or in a group of markers
  that ends so): "Room [B2] is ..." stays text; a square-bracketed one also mid-clause
  in an answer whose same labels end a clause elsewhere ("... 14 days [A1] and ...
  3 days [B2].");
- and when no passage writes it as text ("Print it on A1 paper.", "level B2"): the
  passages' word, kept in the answer, is a word every judge finds there.

Read as one, it cites the passage whose leading label it is ("[B1] Returns ..." names
the second passage `b1`, `titles.leading_label`), else the passage at its number, as
`[S1]` always has (`markers`). A source word makes any label a marker wherever it
stands (`[Source A1]`, `(Doc A1)`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

CODE = r"[A-Za-z][-_]?\d{1,3}"
"""One letter and a number, glued or joined by - or _: "A1", "s-2", "P_3"."""
_CODE = re.compile(CODE)
_TERM = re.compile(rf"(?<![\w-]){CODE}(?![\w-])")
_JOIN = r"[ \t]*(?:[,;]|\band\b)[ \t]*"
PAREN_CODES = re.compile(rf"\([ \t]*({CODE}(?:{_JOIN}{CODE})*)[ \t]*\)"
                         rf"(?:[ \t]*\([ \t]*{CODE}(?:{_JOIN}{CODE})*[ \t]*\))*")
"""Letter-and-digit labels in round brackets: "(A1)", "(A1, B2)", "(A1)(B2)"."""


def norm_code(label: str) -> str:
    """A label as codes compare it: "A-1" and "a1" alike."""
    return label.lower().replace("-", "").replace("_", "")


def is_code(label: str) -> bool:
    """Whether a label is one letter and a number ("A1", "s-2")."""
    return _CODE.fullmatch(label) is not None


def paren_labels(marker: str) -> str:
    """The labels of a round-bracketed group as the grammar reads them: "(A1)(B2)" ->
    "A1, B2"."""
    return ", ".join(_CODE.findall(marker))


def context_terms(contexts: Iterable[object], labels: Iterable[str]) -> frozenset[str]:
    """The letter-and-digit words the passages write as text (their leading labels,
    `labels`, apart), normalised."""
    found = {norm_code(m.group(0)) for c in contexts if isinstance(c, str)
             for m in _TERM.finditer(c)}
    return frozenset(found - {norm_code(x) for x in labels})


# where a clause ends: punctuation (a closing bracket, quote or emphasis too) or the
# line's end
_END = re.compile(r"[ \t]*(?:$|\n|[.!?,;:。)\]\"'”’*](?!\w))")


def as_markers(text: str, found: Sequence[tuple[int, int, bool, Sequence[str]]],
               terms: frozenset[str]) -> list[bool]:
    """Per letter-and-digit marker of `text` (start, end, whether round-bracketed, its
    labels normalised; a group "[A1], [B2]" spans the group), whether it is read as a
    marker: no label a word of the passages (`terms`), and where a clause ends; a
    square-bracketed one also mid-clause when another ends a clause."""
    # per marker: whether it ends a clause, whether no label is a passage's word, round
    read = [(_END.match(text, b) is not None and (not r or text[a - 1:a] in (" ", "\t")),
             terms.isdisjoint(codes), r) for a, b, r, codes in found]
    styled = any(e and f and not r for e, f, r in read)
    return [f and (e or (styled and not r)) for e, f, r in read]
