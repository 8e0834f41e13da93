"""A sources section at the end of an answer (part of the one grammar of `markers`).

"Sources:\\n[1] Opening hours\\n[2] Loans", "References: Document 1, Document 2",
"**Sources**\\n- [1] hours.pdf": the block lists where the answer came from and says
nothing about the world, so it is no claim and no uncited sentence. Read as one:

- a heading alone on its line (`Sources`, `References`, `Citations`, `Bibliography`,
  `Works cited`, `Footnotes`; optional `#`, `**` and a colon), then list-like lines to the answer's
  end: a bullet or a label (`[1]`, `[^1]:`, `【1】`, `1.`, `1)`, `(1)`) before the
  line's text, or a short line (at most ten words, not ending in ":");
- or a line "Sources: ..." / "References: ..." whose items (split at "," or ";") are
  markers or short titles (at most six words), then list-like lines to the end.

The block must follow some text, start a line, and lie outside code; "Sources say the
museum opens at 9." mid-answer is a sentence. One walk back over the answer's lines.

Footnote definitions ending the answer are such a block without a heading (trial 75: a
"[^1]: Refund policy" line was judged as a claim naming a title): lines that open with
a footnote's label, `[^1]: refund_policy.md`, `[^note]: Refund policy, section 2`, a
markdown reference `[1]: refund_policy.md`, or
in plain text one naming a source, `^1 Source: ...`, `¹ https://...`, `^2 faq.html` (an
indented line below one goes with it; "^1 Ticket terms apply." is a note, and stays).
`definitions` reads what each label's line says, for `markers` to read the passage it
names (`titles.named_in`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragassay.text.code import outside
from ragassay.text.titles import FILE

_WORDS = (r"(?:sources?(?:[ \t]+used)?|references?|citations?|bibliography|works[ \t]+cited"
          r"|footnotes)")
_BOLD = r"(?:\*\*|__)?"
# on the stripped line; no two runs of spaces side by side (that is quadratic in a long
# run of spaces): "## **Sources:**", "Sources :", "References: ..."
_HEAD = re.compile(rf"(?:#{{1,6}}[ \t]*)?{_BOLD}{_WORDS}{_BOLD}[ \t]?(:)?{_BOLD}",
                   re.IGNORECASE)
_LABEL = (r"(?:\[\^?[^\[\]\n]{1,40}\]:?|【[^【】\n]{1,40}】|\(?\d{1,3}[.):](?!\d)"
          r"|\^\d{1,3}|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})")
_ITEM = re.compile(rf"[ \t]*(?:([-*•+])[ \t]+)?({_LABEL})?[ \t]*")
_RULE = re.compile(r"[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*")
_SPLIT = re.compile(r"[ \t]*[,;][ \t]*")
MAX_LINE = 300  # a longer line is prose, not a listed source
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# a footnote's definition line: its label, then its text; in plain text ("^1 ...",
# "¹ ...") only a source's ("^1 Source: ...", a web address, a file name): "^1 Ticket
# terms apply." is a note that claims
_NAMES_SOURCE = (r"(?=(?:sources?|refs?|references?|see|from|cited?|docs?|documents?"
                 rf"|passages?)[ \t]*:|https?://|{FILE}\b)")
_DEFINITION = re.compile(r"[ \t]{0,3}(?:\[(?:\^[ \t]*([^\[\]\n]{1,40}?)|[ \t]*(\d{1,3}))"
                         r"[ \t]*\]:[ \t]*"
                         rf"|(?:\^(\d{{1,3}})[.:)]?|([⁰¹²³⁴⁵⁶⁷⁸⁹]{{1,3}}))[ \t]+{_NAMES_SOURCE})"
                         r"([^\n]*)", re.IGNORECASE)
_TEXT = 5  # the group of a definition's text
# a footnote marker in the text: "[^1]", "[^note]", "[1]", "^1", "¹"
_NOTE = re.compile(r"\[[ \t]*\^[ \t]*([^\[\]\s,;]{1,40})[ \t]*\]|\[[ \t]*(\d{1,3})[ \t]*\]"
                   r"|\^(\d{1,3})|([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})")


def _listed(line: str) -> bool:
    """Whether a line lists a source: a bullet or a label before its text, or a short
    line that opens nothing ("Opening hours page")."""
    if len(line) > MAX_LINE or line.lstrip().startswith(("```", "~~~")):
        return False
    m = _ITEM.match(line)
    assert m is not None  # every part of _ITEM is optional
    rest = line[m.end():].strip()
    if m.group(1) or m.group(2):
        return True
    return len(rest.split()) <= 10 and not rest.endswith(":")


def _items(line: str, at: int) -> bool:
    """Whether `line[at:]` is a list of markers or short titles."""
    text = line[at:].strip().strip("*_").strip()
    if not text or len(line) > MAX_LINE or text[-1] in "!?:":
        return False
    # a title is short; one ending the line with a full stop, shorter ("Sources: the
    # museum opens at 9." is a sentence)
    most = 3 if text.endswith(".") else 6
    for item in _SPLIT.split(text.rstrip(".")):
        m = _ITEM.match(item)
        assert m is not None
        if not item or (m.group(2) is None and len(item.split()) > most):
            return False
    return True


def _heads(line: str, listed: bool) -> bool:
    """Whether a line opens a sources section: a heading alone on its line above listed
    lines, or "Sources: ..." with its items on the line."""
    text = line.strip()
    if (m := _HEAD.match(text)) is None:
        return False
    rest = text[m.end():]
    if not rest:
        return listed
    return m.group(1) is not None and _items(text, m.end())


def _lines_back(text: str) -> list[tuple[int, int]]:
    """The text's lines as spans, last first (each found once from the end)."""
    out = []
    end = len(text)
    while end >= 0:
        start = text.rfind("\n", 0, end) + 1
        out.append((start, end))
        if start == 0:
            break
        end = start - 1
    return out


def sources_start(text: str, code: Sequence[tuple[int, int]] = ()) -> int:
    """Where a trailing sources section of `text` starts (a horizontal rule before it
    included), or `len(text)` when the text ends with none: one under a heading, else a
    key of the answer's own markers (`_key_start`)."""
    listed = False  # a list-like line seen below the current one
    lines = _lines_back(text)
    for n, (a, b) in enumerate(lines):
        line = text[a:b]
        if not line.strip():
            continue
        if _heads(line, listed):
            return _start(text, a, lines[n + 1:], code)
        if not _listed(line):
            break
        listed = True
    return _key_start(text, lines, code)


# one entry of a key to the answer's markers: "[1] Membership FAQ", "[2] = Opening hours",
# "(1) Guest policy", "¹ Handbook, section 3"
_KEY = re.compile(r"[ \t]*(?:[-*•][ \t]+)?(\[[^\[\]\n^]{1,40}\]|\(\d{1,3}\)|"
                  r"[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}|【[^【】\n]{1,40}】)[ \t]*(?:[=:–—-][ \t]*)?"
                  r"([\w\"'“‘*_].*)")
KEY_WORDS = 10  # a key's entry names a source in this many words at most
# an entry that reads as a statement, not a title: a verb of being or a modal, a pronoun,
# a price or a clock time ("[1] Concessions pay £4", "¹ On bank holidays it opens at 8am")
_STATES = re.compile(r"\b(?:is|are|was|were|be|can|could|will|would|may|must|has|have|do|"
                     r"does|it|they|you|we|\w+n't)\b|[£$€]\s?\d|\d\s?(?:am|pm)\b|\d%",
                     re.IGNORECASE)


def _labels(line: str) -> list[str] | None:
    """The labels of a line that is a key's entries (split at ";"), each a label then a
    short title; None when it is no key."""
    out = []
    for entry in line.split(";"):
        m = _KEY.fullmatch(entry.rstrip())
        if (m is None or len(m.group(2).split()) > KEY_WORDS
                or _SENTENCE_END.search(m.group(2))  # one title, not sentences
                or _STATES.search(m.group(2))):
            return None
        out.append(m.group(1))
    return out


def _key_start(text: str, lines: list[tuple[int, int]],
               code: Sequence[tuple[int, int]]) -> int:
    """Where a key to the answer's markers ending it starts, with no heading (trial 80: a
    last line "[1] Membership FAQ" below "... costs £8 [1]."): lines to the end, each of
    key entries (`_labels`), one of them a label the text above uses as a marker; or the
    last line's tail after a sentence ("... £8 [1]. [1] Membership FAQ", "... [doc1].
    Source: doc1 (FAQ)"); `len(text)` when it ends with none."""
    start, labels = len(text), list[str]()
    for a, b in lines:
        line = text[a:b]
        if not line.strip():
            continue
        found = _labels(line) if len(line) <= MAX_LINE else None
        if found is None:
            if start == len(text):
                return _kept(text, _tail(text, a, b), code)
            break
        start, labels = a, labels + found
    if not any(label in text[:start] for label in labels):
        return len(text)
    return _kept(text, start, code)


_SENTENCE_END = re.compile(r"(?<=[.!?\])])[ \t]+(?=\S)")


def _tail(text: str, a: int, b: int) -> int:
    """Where the line `text[a:b]` ends with a key or a "Sources: ..." line after its
    sentences, or `len(text)`."""
    if b - a > MAX_LINE * 4:
        return len(text)
    for m in _SENTENCE_END.finditer(text, a, b):
        rest = text[m.end():b]
        found = _labels(rest)
        if found and any(lb in text[:m.end()] for lb in found) or _heads(rest, False):
            return m.end()
    return len(text)


def _start(text: str, start: int, above: list[tuple[int, int]],
           code: Sequence[tuple[int, int]]) -> int:
    """The block's start: the heading's line, or a rule just above it (`_kept`)."""
    for a, b in above:
        line = text[a:b]
        if not line.strip():
            continue
        if _RULE.fullmatch(line):
            start = a
            continue
        break
    return _kept(text, start, code)


def _kept(text: str, start: int, code: Sequence[tuple[int, int]]) -> int:
    """A trailing block's start, or `len(text)` when there is none, no text comes before
    it or it lies in code."""
    if start == len(text) or not text[:start].strip() or not outside([(start, start)],
                                                                      code)[0]:
        return len(text)
    return start


def _label(*groups: str | None) -> str:
    return next(g for g in groups if g).translate(_SUPERSCRIPTS).strip().lower()


def footnotes_start(text: str, code: Sequence[tuple[int, int]] = ()) -> int:
    """Where the footnote definitions ending `text` start, or `len(text)` when it ends
    with none (or they are all it holds, or lie in code)."""
    start = len(text)
    for a, b in _lines_back(text):
        line = text[a:b]
        if _DEFINITION.match(line):
            start = a
        elif line.strip() and line[:1] not in " \t":  # blank and indented lines go on
            break
    return _kept(text, start, code)


def definitions(block: str) -> dict[str, str]:
    """The footnote definitions of a block: label ("1", "note") -> its line's text."""
    out: dict[str, str] = {}
    for line in block.splitlines():
        if (m := _DEFINITION.match(line)) is not None and m.group(_TEXT).strip():
            out.setdefault(_label(*m.groups()[:_TEXT - 1]), m.group(_TEXT).strip())
    return out


def note_label(marker: str) -> str | None:
    """A footnote marker's label ("[^Note]" -> "note", "[1]", "^1" and "¹" -> "1"), or
    None for another marker."""
    m = _NOTE.fullmatch(marker.strip())
    return None if m is None else _label(*m.groups())
