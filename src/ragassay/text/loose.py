"""Citation markers of the forms that are also ordinary text, and what goes with a
marker when it is removed (part of the one grammar of `markers`).

- `(1)`, `(1, 2)`, `(#1)`, `(1)(2)`: a marker only where a sentence ends ("... admission
  (1).") and never in an answer that enumerates with them ("(1) first, (2) second"); up
  to two digits, so "(2024)" is a year.
- other brackets around numbers (a list or a range): `{1}`, `{{1}}`, `<1>`, `‹1›`, `«1»`,
  `⟨1⟩`, `〔1〕`, fullwidth `［1］` / `（1）` (trial 70), where a clause ends, set off
  after a word or glued to it ("weekdays{1}."), so a template's `{0}` mid-sentence,
  `x{1}y` and `\\frac{1}{2}` stay text.
- superscripts (`¹`, `²˒³`): after sentence punctuation, a word of four letters or more
  or a capitalised abbreviation ("admission¹", "EUR¹"); never after a digit or a short
  unit ("10⁶", "m²", "mm²"). Their plain-text spelling with a caret (`^1`, `^1,^2`,
  `^1^2`, `^1,2`, `^1, 2`, `^1-3`, `^(1)`, `^(1)(2)`, `^{1}`, as models write footnotes
  without markdown)
  under the same rule, and only
  where a clause ends (before punctuation or the line's end: "warranty^1, and", or
  right after a sentence's full stop: "EUR.^1 Adults"), so an
  exponent inside a formula stays text ("2^10", "x^2", "size^2 here", "width^2 + h").
  HTML superscripts (`<sup>1</sup>`, `<sup>1,2</sup>`, as chat UIs emit them) under the
  superscripts' rule ("m<sup>2</sup>" is a unit); bracketed (`<sup>[1]</sup>`) anywhere.
  A dagger and digits (`†1`, `†1,†2`) under the caret's rule.
- wrappers: "(see [1])", "(cf. [1], [2])", "(source [2])" and ", see [1]." go whole with
  their markers,
  and markers joined by "," / ";" / "and" are one removal (no "(see )" or "," left).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragassay.text.code import outside

SEE = r"(?:see(?:\s+also)?|cf\.?|compare|e\.\s?g\.,?|per|via|from)"
"""Words that may wrap a marker: "(see [1])", "(cf. Source 2)"."""
SOURCE_WORDS = (r"(?:sources?|docs?|documents?|passages?|contexts?|refs?|references?"
                r"|citations?|chunks?|snippets?|excerpts?|srcs?|cite[ds]?|ctx|footnotes?)")
"""Words that name a source: "(Source 2)", "(ref: doc 1)", "[src 1]", "(cite: 1)",
"[Ctx 1]", "[footnote 1]" (trial 70); before a bracketed marker a wrapper like SEE:
"(source [2])", "(sources: [1], [3])" (trial 65)."""
_WRAPPER = rf"(?:{SEE}|{SOURCE_WORDS}\.?[ \t]*:?)"

_NUMBERS = r"#?\d{1,2}(?:[ \t]*[,;–—-][ \t]*\d{1,2})*"
_PAREN_ONE = rf"\([ \t]*{_NUMBERS}[ \t]*\)"
_PAREN_NUMBER = re.compile(rf"{_PAREN_ONE}(?:[ \t]*{_PAREN_ONE})*")  # "(1)(2)": one marker
BRACKETS = (("{", "}"), ("<", ">"), ("‹", "›"), ("«", "»"), ("⟨", "⟩"), ("〔", "〕"),
            ("［", "］"), ("（", "）"))
"""The brackets other than round and square that hold a loose marker (`unread` reads the
same kinds, and the square and lenticular, for marker-like text)."""
# (each bracket kind its own pair: "{1>" is no marker)
_OTHER = re.compile("|".join(
    rf"{re.escape(o)}[ \t]*{_NUMBERS}[ \t]*{re.escape(c)}"
    for o, c in (("{{", "}}"), *BRACKETS)))
_LABEL_PARTS = re.compile(r"\d{1,2}(?:[ \t]*[–—-][ \t]*\d{1,2})?")
ENDS = re.compile(r"[ \t]*(?:$|\n|[.!?,;:。](?!\w))")
"""Where a clause ends: sentence or clause punctuation, or the line's end, after spaces."""
_ENUMERATES = re.compile(r"\(\s*\d{1,2}\s*\)[ \t]*[^\W\d_]")
_SUPER = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+(?:[,˒][⁰¹²³⁴⁵⁶⁷⁸⁹]+)*(?![\w⁰¹²³⁴⁵⁶⁷⁸⁹])")
_CLAUSE_END_RE = r"[ \t]*(?:$|\n|[.,;:!?)\]](?!\d))"
_CLAUSE_END = re.compile(_CLAUSE_END_RE)
# one range ("1-3") or a list ("1, 2"): "^1-2-3" is no marker; a descending range
# ("^3-1") is one that cannot be read, as "[3-1]" is (the grammar reports both)
_CARET_LIST = r"\d{1,2}(?:[ \t]*[–-][ \t]*\d{1,2}|(?:[ \t]*,[ \t]*\d{1,2})*)"
_PAREN_LIST = rf"\([ \t]*{_CARET_LIST}[ \t]*\)"
_BRACE_LIST = rf"\{{[ \t]*{_CARET_LIST}[ \t]*\}}"
# `^1`, `^1,2`, `^1-3`, `^(1)`, `^{1, 2}`; `^1, 2` only where the clause ends there (in
# "admission^1, 2 rooms" the 2 is text); more brackets after the caret's: `^(1)(2)`,
# `^(1) (2)`, `^{1} {2}`; joined: `^1,^2`, `^1^2`
_CARET_ONE = (rf"\^(?:\d{{1,2}}(?:[ \t]*,[ \t]*\d{{1,2}})+(?={_CLAUSE_END_RE})"
              rf"|\d{{1,2}}(?:[–-]\d{{1,2}}|(?:,\d{{1,2}})*)"
              rf"|{_PAREN_LIST}(?:[ \t]*{_PAREN_LIST})*|{_BRACE_LIST}(?:[ \t]*{_BRACE_LIST})*)")
# (one run of spaces before an optional comma: "[ \t]*[,˒]?[ \t]*" is quadratic in a
# long run of spaces)
_CARET = re.compile(rf"{_CARET_ONE}(?:[ \t]*(?:[,˒][ \t]*)?{_CARET_ONE})*(?![\w^]|\.\d)")
_SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹˒", "0123456789,")
# an HTML superscript of numbers, "<sup>1</sup>", "<sup>1,2</sup>"; bracketed,
# "<sup>[1]</sup>", it is a marker wherever it stands
_HTML_SUP = re.compile(rf"<sup>[ \t]*(?:\[[ \t]*({_CARET_LIST})[ \t]*\]|({_CARET_LIST}))[ \t]*"
                       r"</sup>", re.IGNORECASE)
# a dagger footnote glued or set off after a word: "weekdays †1", "admission†1,†2"
_DAGGER = re.compile(r"[†‡]\d{1,2}(?:[ \t]*(?:[,˒][ \t]*)?[†‡]\d{1,2}|,\d{1,2})*"
                     r"(?![\w†‡]|\.\d)")
_AFTER = ".,;:!?)]\"'”’。"
_SEE_OPEN = re.compile(rf"\(\s*{_WRAPPER}\s*$", re.IGNORECASE)
_SEE_BARE = re.compile(rf"(?:[,;]|\s[-–—])\s*{_WRAPPER}\s+$", re.IGNORECASE)
_JOIN = re.compile(r"[ \t]*(?:[,;&]|\band\b)?[ \t]*", re.IGNORECASE)
_CLOSE = re.compile(r"[ \t]*\)")


def _ends_sentence(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` closes a sentence: a word (not a line's start, not
    `f(1)`) before it, and after it only sentence punctuation or the line's end."""
    before = text[start - 1] if start > 0 else ""
    # ("^": an exponent's bracket, "10^(6)."; a caret footnote is read by _CARET)
    if before.isalnum() or before in "_^" or ENDS.match(text, end) is None:
        return False
    j = start  # something other than space before it on its line (one walk back)
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    return j > 0 and text[j - 1] != "\n"


def _clause_ends(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` ends a clause after a word: glued to it ("weekdays{1}.")
    or set off by spaces, as `_ends_sentence` (not after "}" or "_": `\\frac{1}{2}.`)."""
    before = text[start - 1] if start > 0 else ""
    if before.isalnum():
        return ENDS.match(text, end) is not None
    return before in " \t" and _ends_sentence(text, start, end)


def _numbers(marker: str) -> str:
    """A bracketed marker's numbers as the grammar reads them: "(1)(2)" -> "1, 2"."""
    return ", ".join(_LABEL_PARTS.findall(marker))


def _superscript(text: str, start: int) -> bool:
    j = start
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    if j == 0:
        return False
    if text[j - 1] in _AFTER:
        return True
    k = j
    while k > 0 and text[k - 1].isalpha():
        k -= 1
    word = text[k:j]
    return (len(word) >= 4 or (len(word) >= 2 and word.isupper())) and not (
        k > 0 and text[k - 1].isdigit())


def _short_word_note(text: str, start: int, end: int) -> bool:
    """An HTML superscript after a short lower-case word that is no unit, where a clause
    ends ("a tawny owl<sup>1</sup>."): a footnote; a unit's ("m<sup>2</sup>") follows a
    figure or is a unit of length (`_POWERED`)."""
    k = start
    while k > 0 and text[k - 1].isalpha():
        k -= 1
    word = text[k:start]
    return (2 <= len(word) < 4 and word.islower() and word not in _POWERED
            and not re.search(r"\d[ \t]?$", text[max(0, k - 8):k])
            and _CLAUSE_END.match(text, end) is not None)


# units whose square or cube a caret writes ("50 cm^2", "3 m^3"): after any other short
# word a caret is a footnote ("up to 25 kg^1", "8 kg^2"), and "^1" after any word is
# one (no one writes a first power)
_POWERED = frozenset({"m", "dm", "cm", "mm", "km", "ft", "in", "yd", "mi", "nm", "um",
                      "\u03bcm", "\u00b5m", "x", "y", "n"})  # (micrometres: Greek mu, micro sign)


def _after_unit(text: str, start: int, marker: str) -> bool:
    """A caret glued to a short word that is no unit of length ("kg^2", "cm^1"): a
    footnote; the short word itself follows a figure ("25 kg"), so it is a unit."""
    k = start
    while k > 0 and text[k - 1].isalpha():
        k -= 1
    word = text[k:start].lower()
    if not word or not re.search(r"\d[ \t]?$", text[max(0, k - 8):k]):
        return False
    return marker.lstrip("^").strip() == "1" or word not in _POWERED


def _spaced(text: str, start: int) -> bool:
    """A caret set off by a space after a word or a figure ("... 8 pm ^1.", "to 12 ^2."):
    a footnote, where an exponent is written glued ("10^6")."""
    return start >= 2 and text[start - 1] in " \t" and text[start - 2].isalnum()


def _caret_labels(marker: str) -> str:
    """A caret marker's labels as the grammar reads them: "^(1-3),^5" -> "1-3, 5"."""
    ranges = re.sub(r"[ \t]*([–-])[ \t]*", r"\1", marker)
    return ", ".join(p for p in re.split(r"[\^(){}\s,˒†‡]+", ranges) if p)


def loose_markers(text: str) -> list[tuple[int, int, str]]:
    """The loose markers of `text` as (start, end, labels): the numbers as ASCII text
    ("1, 2"), for the grammar to read."""
    found: list[tuple[int, int, str]] = []
    if not _ENUMERATES.search(text):
        found += [(m.start(), m.end(), _numbers(m.group(0)))
                  for m in _PAREN_NUMBER.finditer(text)
                  if _ends_sentence(text, m.start(), m.end())]
    found += [(m.start(), m.end(), _numbers(m.group(0))) for m in _OTHER.finditer(text)
              if _clause_ends(text, m.start(), m.end())]
    found += [(m.start(), m.end(), m.group(0).translate(_SUPER_DIGITS))
              for m in _SUPER.finditer(text) if _superscript(text, m.start())]
    found += [(m.start(), m.end(), _caret_labels(m.group(1) or m.group(2)))
              for m in _HTML_SUP.finditer(text)
              if m.group(1) is not None or _superscript(text, m.start())
              or _short_word_note(text, m.start(), m.end())]
    carets = [(m.start(), m.end(), _caret_labels(m.group(0)))
              for pattern in (_CARET, _DAGGER) for m in pattern.finditer(text)
              if (_superscript(text, m.start()) or _spaced(text, m.start())
                  or _after_unit(text, m.start(), m.group(0)))
              and (_CLAUSE_END.match(text, m.end()) or text[m.start() - 1] in ".!?")]
    # "^(1)": one marker, not a caret around a "(1)" (one merge walk)
    found.sort()
    carets.sort()
    free = outside([(a, b) for a, b, _ in found], [(a, b) for a, b, _ in carets])
    return sorted([f for f, k in zip(found, free, strict=True) if k] + carets)


def removals(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Per marker span (sorted): the span to remove with it, widened to the wrapper
    around its group ("(see [1], [2])", ", see [1].") and to the whole group when
    several markers are joined ("[1], [2]")."""
    out = list(spans)
    i = 0
    while i < len(out):
        j = i
        while (j + 1 < len(out) and (m := _JOIN.match(text, spans[j][1])) is not None
               and m.end() == spans[j + 1][0]):
            j += 1
        start, end = spans[i][0], spans[j][1]
        window = max(0, start - 24)
        head = text[window:start]
        if (o := _SEE_OPEN.search(head)) and (c := _CLOSE.match(text, end)):
            start, end = window + o.start(), c.end()
        elif (o := _SEE_BARE.search(head)) and ENDS.match(text, end):
            start = window + o.start()
        if j > i or (start, end) != spans[i]:
            out[i:j + 1] = [(start, end)] * (j + 1 - i)
        i = j + 1
    return out
