"""Contexts named by id or title (part of the one grammar of `markers`): the sample's
numbering, a passage's leading label, and a "(see: X)" marker naming a title.

- Ids and titles the sample declares: `metadata.citation_ids`, `context_ids` or
  `context_titles` (`numbering`).
- A passage's leading label (trial 74): RAG prompts put a label in front of each passage
  ("refund_policy.md: ...", "[faq.html] ...", "Title: Warranty terms\\n..."). When the
  sample declares no `context_titles`, a clear one is read as the passage's title
  (`Numbering.labels`): a file name with an extension ("refund_policy.md:",
  "[faq.html]", also named without its extension, "refund policy"), a bracketed first
  run of at most MAX_LABEL_WORDS words ("[Refund policy] ..."), a first run of at most
  MAX_LABEL_WORDS words ending in a colon ("Refund policy: ..."), or after a field name
  ("Title: ...", "Source: ...") the rest of its line. A label two passages share names
  neither. A label only adds a name a marker may use: it never makes another marker
  fabricated, as declared ids do (`[doc1]` stays context 1).
- "(see: X)", "(see X)", "[see: X]" (also "see also", "cf."): a citation of the context
  whose declared id or title, or leading label, is X (`see_titles`); one naming no
  context stays text and is reported as unread marker-like text (`see_like`), as
  "(see below)" and "(see Figure 2)" are not (prose).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ragassay.text.codes import CODE, context_terms

MAX_LABEL_WORDS = 6  # a leading label is a short run of words, not a sentence
FILE = r"[\w./-]*\w\.[A-Za-z][A-Za-z0-9]{0,4}"
"""A file name with an extension: "refund_policy.md", "docs/faq.html" (`sources` too)."""
_LEAD_FILE = re.compile(rf"\s*\[?\s*({FILE})\s*\]?\s*(?::|\n|$|[-–—|]\s)")
# a letter and a number, bracketed or before a colon: "[A1] ...", "(B2) ...", "C3: ..."
_LEAD_CODE = re.compile(rf"\s*(?:\[\s*({CODE})\s*\]|\(\s*({CODE})\s*\)|({CODE})\s*:)(?=\s)")
_SOURCE_CODE = re.compile(rf"(?:source|doc(?:ument)?|passage|context|chunk)\s+({CODE})",
                          re.IGNORECASE)
_LEAD_BRACKET = re.compile(r"\s*\[\s*([^\[\]\n]{1,80}?)\s*\]")
_LEAD_COLON = re.compile(r"\s*([^\s:\[\](){}][^:\n.!?]{0,80}?)\s*:(?=\s)")
_FIELDS = frozenset({"title", "source", "file", "filename", "document", "doc", "section",
                     "heading", "name"})
_LINE = re.compile(r"\s*([^\n]{1,80}?)\s*(?:\n|$|[.|]\s|\s[-–—]\s)")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,4}$")
SEE_TITLE = re.compile(r"(\(|\[)\s*(?:see(?:\s+also)?|cf\.?)(\s*:\s*|\s+)([^()\[\]\n]{1,80}?)"
                       r"\s*(\)|\])", re.IGNORECASE)
"""A "see" marker: its bracket, the colon or space after the word, its title, its close."""
_PROSE = re.compile(r"(?:above|below|fig(?:ure|\.)?|tables?|chapters?|appendix|pages?|p\.)\b",
                    re.IGNORECASE)


def norm_id(text: str) -> str:
    """An id or title as markers match it: case and spacing ignored."""
    return " ".join(str(text).lower().split()).strip(" .:#")


def _words(label: str) -> bool:
    """A short run of words with two letters or more: a label, not a number, a letter
    ("A:", which "[A]" would then name) or a sentence."""
    return sum(c.isalpha() for c in label) >= 2 and len(label.split()) <= MAX_LABEL_WORDS


def leading_label(passage: str) -> str | None:
    """The label a passage starts with ("refund_policy.md:", "[faq.html]", "Title:
    Warranty terms"), or None when it starts with no clear one."""
    if (m := _LEAD_FILE.match(passage)) is not None:
        return m.group(1)
    if (m := _LEAD_CODE.match(passage)) is not None:  # "[A1] ...": `codes`
        return m.group(1) or m.group(2) or m.group(3)
    if (m := _LEAD_BRACKET.match(passage)) is not None:
        return m.group(1) if _words(m.group(1)) else None
    if (m := _LEAD_COLON.match(passage)) is None or not _words(m.group(1)):
        return None
    if norm_id(m.group(1)) not in _FIELDS:
        return m.group(1)
    line = _LINE.match(passage, m.end())  # "Title: Warranty terms": the field's value
    return line.group(1) if line is not None and _words(line.group(1)) else None


def passage_labels(leading: Sequence[str | None]) -> dict[str, int]:
    """Each passage's leading label (`leading`: `leading_label`'s, one per passage), and
    a file name's stem -> its index; one two passages share is left out."""
    seen: dict[str, set[int]] = {}
    for i, label in enumerate(leading):
        if label is None:
            continue
        stem = _EXTENSION.sub("", label).replace("_", " ").replace("-", " ")
        code = m.group(1) if (m := _SOURCE_CODE.fullmatch(label)) else ""  # "Source A1"
        for key in {norm_id(label), norm_id(stem), norm_id(code)} - {""}:
            seen.setdefault(key, set()).add(i)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}


@dataclass(frozen=True)
class Numbering:
    """How a sample's markers map onto its contexts."""

    n_contexts: int
    ids: Mapping[str, int] = field(default_factory=dict)  # normalised id/title -> index
    base: int | None = None  # None: read from the answer (1 unless 0-based fits better)
    labels: Mapping[str, int] = field(default_factory=dict)  # passages' leading labels
    terms: frozenset[str] = frozenset()  # letter-and-digit words of the passages (`codes`)

    @cached_property
    def names(self) -> dict[str, int]:
        """Every name a marker may use: the declared ids, and the leading labels."""
        return {**self.labels, **self.ids}


def numbering(contexts: Sequence[Any], metadata: Mapping[str, Any]) -> tuple[Numbering, list[str]]:
    """The sample's numbering, and problems with its ids (an id list of the wrong length)."""
    problems: list[str] = []
    ids: dict[str, int] = {}
    n = len(contexts)
    for key in ("citation_ids", "context_ids", "context_titles"):
        given = metadata.get(key)
        if given is None:
            continue
        if isinstance(given, Mapping):
            for k, v in given.items():
                if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n:
                    ids.setdefault(norm_id(k), v)
                else:
                    problems.append(f"metadata.{key}[{k!r}] is not a context index 0..{n - 1}")
        elif isinstance(given, list | tuple):
            if len(given) != n:
                problems.append(f"metadata.{key} names {len(given)} ids for {n} contexts")
            for i, k in enumerate(given[:n]):
                if k is not None and str(k).strip():
                    ids.setdefault(norm_id(str(k)), i)
        else:
            problems.append(f"metadata.{key} is neither a list nor a mapping")
    base = metadata.get("citation_base")
    if base not in (None, 0, 1) or isinstance(base, bool):
        problems.append(f"metadata.citation_base is {base!r}, not 0 or 1")
        base = None
    leading = [leading_label(c) if isinstance(c, str) else None for c in contexts]
    labels = passage_labels(leading) if metadata.get("context_titles") is None else {}
    terms = context_terms(contexts, [*filter(None, leading), *labels])
    return Numbering(n, ids, base, labels, terms), problems


def _pair(m: re.Match[str]) -> bool:
    return (m.group(1) == "(") == (m.group(4) == ")")


def see_titles(text: str, names: Mapping[str, int]) -> list[tuple[int, int, str]]:
    """(start, end, name) of each "see" marker whose title is a name of `names`."""
    return [(m.start(), m.end(), norm_id(m.group(3))) for m in SEE_TITLE.finditer(text)
            if _pair(m) and norm_id(m.group(3)) in names]


def see_like(text: str) -> list[tuple[int, str]]:
    """(start, text) of each "see" marker that reads as one: a colon after the word, a
    square bracket, or a title ("(see Refund Policy)", "(see faq.html)"); not prose
    ("(see below)", "(see Figure 2)")."""
    out = []
    for m in SEE_TITLE.finditer(text):
        title = m.group(3)
        marked = ":" in m.group(2) or m.group(1) == "["
        titled = (title[:1].isupper() or re.fullmatch(FILE, title) is not None) and (
            len(title.split()) <= MAX_LABEL_WORDS and not _PROSE.match(title))
        if _pair(m) and (marked or titled):
            out.append((m.start(), m.group(0)))
    return out


_FIELD = re.compile(r"(?:sources?|see|from|title|document|doc|file|ref(?:erence)?)\s*:\s*",
                    re.IGNORECASE)
_LINK = re.compile(r"\[([^\[\]\n]{1,80})\]\([^()\s]*\)")  # a markdown link: its text
_TAIL = re.compile(r"\s*(?:[,;(]|\s[-–—|]\s)")


def named_in(text: str, names: Mapping[str, int]) -> str | None:
    """The name of `names` a footnote's text names ("refund_policy.md", "Refund policy,
    section 2", "Source: [Refund policy](https://...)"), or None."""
    text = _LINK.sub(r"\1", text).strip().strip("*_\"'“”")
    text = text[m.end():] if (m := _FIELD.match(text)) else text
    for candidate in (text, _TAIL.split(text, maxsplit=1)[0]):
        if (name := norm_id(candidate.strip().strip("*_\"'“”"))) in names:
            return name
    return None
