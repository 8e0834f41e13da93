"""Citations written as prose (part of the one grammar of `markers`): an attribution to a
numbered passage that says where a sentence comes from and states nothing itself.

- a lead-in opening a sentence: "According to passage 1, ...", "Per source 2, ...",
  "Based on doc 3, ...", "As document 1 states, ...", "As noted in context 2, ...";
- the passage as the sentence's speaker: "Source 2 says (that) ...", "Passage 1 states:
  ...", "The document 3 notes ...";
- a tail closing a sentence: "..., according to source 1.", "..., as mentioned in
  passage 2." ("(see doc 3)" in brackets is `markers`' own form).

Only the words that name a context ("passage", "source", "document", "doc", "context",
"snippet", "excerpt", "chunk", "reference") and a number (or numbers joined by "," /
"and") are read, so "According to the manual, ..." and "Form 2 says ..." stay text: a
named manual or form is part of the claim. The number is the passage's position, never a
figure of the claim. A lead-in or speaker marker belongs to the sentence it opens (`lead`),
not to the one before, as a bracketed marker before a sentence's first word does.
"""

from __future__ import annotations

import re

_WORDS = r"(?:sources?|passages?|documents?|docs?|contexts?|snippets?|excerpts?|chunks?" \
         r"|references?)"
_NUMS = r"#?(\d{1,3}(?:\s*(?:,|and|&)\s*\d{1,3})*)"
_SOURCE = rf"(?:the\s+)?{_WORDS}\s+{_NUMS}"
_SAYS = (r"(?:says?|states?|notes?|mentions?|explains?|confirms?|indicates?|shows?"
         r"|specifies|specify|clarifies|clarify|reads?|tells\s+us|adds?)")
_AS_IN = r"as\s+(?:stated|noted|mentioned|described|explained|shown|outlined|set\s+out)\s+in"
_OPENS = re.compile(r"(?:^|[.!?:]|\n[ \t]*(?:[-*•])?)\s*$")  # what precedes a lead-in
# "According to passage 1, ...", "As document 1 states, ...", "Source 2 says that ..."
_LEAD = re.compile(
    rf"(?<![\w-])(?:(?:according\s+to|per|based\s+on|{_AS_IN})\s+{_SOURCE}\s*,"
    rf"|as\s+{_SOURCE}\s+{_SAYS}\s*,"
    rf"|{_SOURCE}\s+{_SAYS}(?:\s+that\b|\s*[:,])?)\s*(?=\w)",
    re.IGNORECASE)
# "..., according to source 1." / "... as mentioned in passage 2."
_TAIL = re.compile(
    rf"\s*,?\s*(?:according\s+to|{_AS_IN}|per)\s+{_SOURCE}\s*(?=[.!?]|$)",
    re.IGNORECASE | re.MULTILINE)


def prose_markers(text: str) -> list[tuple[int, int, str, bool]]:
    """The prose citations of `text` as (start, end, labels, lead): the span to remove
    (its comma and spaces with it), the numbers as written ("1", "1 and 3"), and whether it
    opens its sentence."""
    found = [(m.start(), m.end(), _labels(m), True) for m in _LEAD.finditer(text)
             if _OPENS.search(text, max(0, m.start() - 8), m.start())]
    found += [(m.start(), m.end(), _labels(m), False) for m in _TAIL.finditer(text)]
    return sorted(found)


def _labels(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None)
