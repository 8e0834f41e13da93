"""Citation markers in an answer: which contexts each answer sentence cites.

Styles read: `[1]`, `[1, 3]`, `[1-3]`, `[1][2]`, `[^2]`, `(Source 2)` (also
`(Sources 1 and 3)`, `(Doc 2)`, `(Passage 2)`, `(Context 2)`, `(Ref 2)`), `【1】` and
`【4:0†source】`, and ids or titles the sample names (`metadata.citation_ids`, or
`metadata.context_ids` / `metadata.context_titles`, one per context in order, or a mapping
id -> 0-based context index): `[doc-a]`, `(Source: Refund policy)`.

Numbers are 1-based (`[1]` is the first context) unless the sample says
`metadata.citation_base: 0` or the answer uses `[0]`. A marker that points at no context
(a number past the contexts, an id the sample does not name) is fabricated; a marker that
cannot be read (`[1-`, `[]`, `[3-1]`) is a problem: both are reported per sample, never
raised. Markers before a sentence's first word belong to the sentence before it
("... 30 days. [2] Shipping ...").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragassay.text import letter_key, split_sentences

MAX_RANGE = 50  # a range wider than this ([1-1000]) is a problem, not 1000 citations

_SOURCE_WORDS = r"(?:sources?|docs?|documents?|passages?|contexts?|refs?|references?|citations?)"
_BRACKET = re.compile(r"\[\s*([^\[\]\n]{0,200}?)\s*\]")
_PAREN = re.compile(rf"\(\s*{_SOURCE_WORDS}\b\s*:?\s*([^()\n]{{0,200}}?)\s*\)", re.IGNORECASE)
_LENTICULAR = re.compile(r"【([^【】\n]{0,200})】")
_UNCLOSED = re.compile(r"\[\s*\^?\s*\d[\d\s,;\-–—]*$|\[\s*\^?\s*\d[\d\s,;\-–—]*(?=[^\d\s,;\-–—\]])"
                       r"|【[^】]*$")
_RANGE = re.compile(r"^(\d+)\s*[-–—]\s*(\d+)$")
_NUMBER = re.compile(r"^#?(\d+)$")
_WORD_PREFIX = re.compile(rf"^{_SOURCE_WORDS}(?:\s*[:#]\s*#?|\s+#?)(?=\S)", re.IGNORECASE)
_ID_LIKE = re.compile(r"^[\w.:/-]*[\d_./:-][\w.:/-]*$")
_SPLIT = re.compile(r"\s*(?:[,;]|\band\b|&)\s*", re.IGNORECASE)
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Marker:
    """One marker as written, the contexts it points at (0-based), and the labels in it
    that point at nothing (fabricated)."""

    text: str
    targets: tuple[int, ...] = ()
    fabricated: tuple[str, ...] = ()


@dataclass(frozen=True)
class CitedSentence:
    """An answer sentence without its markers, and what it cites."""

    key: str
    text: str
    markers: tuple[Marker, ...] = ()

    @property
    def cited(self) -> tuple[int, ...]:
        """The contexts it cites, each once, in order of first citation."""
        return tuple(dict.fromkeys(t for m in self.markers for t in m.targets))

    @property
    def fabricated(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f for m in self.markers for f in m.fabricated))

    @property
    def labels(self) -> list[str]:
        return [m.text for m in self.markers]


@dataclass
class ParsedAnswer:
    sentences: list[CitedSentence] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def n_citations(self) -> int:
        """Citations: (sentence, context) pairs plus (sentence, fabricated label) pairs."""
        return sum(len(s.cited) + len(s.fabricated) for s in self.sentences)

    @property
    def n_fabricated(self) -> int:
        return sum(len(s.fabricated) for s in self.sentences)


@dataclass(frozen=True)
class Numbering:
    """How a sample's markers map onto its contexts."""

    n_contexts: int
    ids: Mapping[str, int] = field(default_factory=dict)  # normalised id/title -> index
    base: int | None = None  # None: 1, or 0 when the answer uses [0]


def _norm_id(text: str) -> str:
    return " ".join(str(text).lower().split()).strip(" .:#")


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
                    ids.setdefault(_norm_id(k), v)
                else:
                    problems.append(f"metadata.{key}[{k!r}] is not a context index 0..{n - 1}")
        elif isinstance(given, list | tuple):
            if len(given) != n:
                problems.append(f"metadata.{key} names {len(given)} ids for {n} contexts")
            for i, k in enumerate(given[:n]):
                if k is not None and str(k).strip():
                    ids.setdefault(_norm_id(str(k)), i)
        else:
            problems.append(f"metadata.{key} is neither a list nor a mapping")
    base = metadata.get("citation_base")
    if base not in (None, 0, 1) or isinstance(base, bool):
        problems.append(f"metadata.citation_base is {base!r}, not 0 or 1")
        base = None
    return Numbering(n, ids, base), problems


def _parts(content: str) -> list[str]:
    parts = [_WORD_PREFIX.sub("", p.strip().lstrip("^").strip()) for p in _SPLIT.split(content)]
    return [p.strip() for p in parts]


@dataclass
class _Raw:
    """A marker found in the text before numbering: its labels (numbers or ids)."""

    start: int
    end: int
    text: str
    numbers: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    problem: str | None = None


def _read(content: str, ids: Mapping[str, int], strict: bool) -> _Raw | None:
    """The labels of a marker's content; None when it is not a citation (an ordinary
    bracket like "[sic]"). `strict`: the content must be numbers or known ids."""
    raw = _Raw(0, 0, "")
    footnote = content.lstrip().startswith("^")
    if not content.strip(" ^"):
        raw.problem = "empty"
        return raw
    whole = _norm_id(content.lstrip("^"))
    if whole in ids:
        raw.ids.append(whole)
        return raw
    unread = []
    for part in _parts(content):
        if not part:
            continue
        if (m := _NUMBER.match(part)) is not None:
            raw.numbers.append(int(m.group(1)))
        elif (r := _RANGE.match(part)) is not None:
            lo, hi = int(r.group(1)), int(r.group(2))
            if hi < lo or hi - lo >= MAX_RANGE:
                raw.problem = f"range {lo}-{hi}"
            else:
                raw.numbers.extend(range(lo, hi + 1))
        elif _norm_id(part) in ids:
            raw.ids.append(_norm_id(part))
        else:
            unread.append(part)
    if unread:
        looks_like_id = len(unread) == 1 and bool(ids) and bool(_ID_LIKE.match(unread[0]))
        if not (raw.numbers or raw.ids or raw.problem or footnote or not strict
                or looks_like_id):
            return None
        raw.ids.extend(_norm_id(u) for u in unread)  # unknown ids: fabricated
    return raw


def _find(text: str, ids: Mapping[str, int]) -> list[_Raw]:
    found: list[_Raw] = []
    for pattern, strict in ((_BRACKET, True), (_PAREN, False), (_LENTICULAR, False)):
        for m in pattern.finditer(text):
            content = m.group(1)
            if pattern is _LENTICULAR:  # 【4:0†source】: the number before ':' or '†'
                content = re.split(r"[†:]", content, maxsplit=1)[0]
            raw = _read(content, ids, strict)
            if raw is not None:
                raw.start, raw.end, raw.text = m.start(), m.end(), m.group(0)
                found.append(raw)
    found.sort(key=lambda r: r.start)
    return found


def _clean(text: str, spans: Sequence[tuple[int, int]]) -> str:
    out, last = [], 0
    for a, b in spans:
        out.append(text[last:a])
        last = b
    out.append(text[last:])
    cleaned = "".join(out).replace("[]", " ")
    cleaned = re.sub(r"\[\s*\]|\(\s*\)", " ", cleaned)
    cleaned = re.sub(r"\s+([.,;:!?。])", r"\1", cleaned)
    return " ".join(cleaned.split())


def _resolve(raw: _Raw, numbering: Numbering, base: int, problems: list[str]) -> Marker:
    targets: list[int] = []
    fabricated: list[str] = []
    if raw.problem:
        problems.append(f"unreadable citation marker {raw.text!r} ({raw.problem})")
    for n in raw.numbers:
        i = n - base
        if 0 <= i < numbering.n_contexts:
            targets.append(i)
        else:
            fabricated.append(str(n))
    for label in raw.ids:
        if label in numbering.ids:
            targets.append(numbering.ids[label])
        else:
            fabricated.append(label)
    return Marker(raw.text, tuple(dict.fromkeys(targets)), tuple(dict.fromkeys(fabricated)))


def parse_citations(answer: str, numbering: Numbering) -> ParsedAnswer:
    """The answer's sentences with their markers resolved, and the problems found."""
    out = ParsedAnswer()
    found: list[tuple[str, list[_Raw]]] = []
    for sentence in split_sentences(answer):
        raws = _find(sentence, numbering.ids)
        for m in _UNCLOSED.finditer(sentence):
            if not any(r.start <= m.start() < r.end for r in raws):
                out.problems.append(f"unclosed citation marker {m.group(0).strip()!r}")
        found.append((sentence, raws))
    numbers = [n for _, raws in found for r in raws for n in r.numbers]
    base = numbering.base if numbering.base is not None else (0 if 0 in numbers else 1)
    if base == 1 and 0 in numbers:
        out.problems.append("marker [0] with 1-based numbering (metadata.citation_base: 1)")
    for sentence, raws in found:
        markers = [_resolve(r, numbering, base, out.problems) for r in raws]
        text = _clean(sentence, [(r.start, r.end) for r in raws])
        has_words = bool(_WORD.search(text))
        lead = [i for i, r in enumerate(raws)
                if not _WORD.search(sentence[: r.start].strip("[](){}【】 "))]
        moved = set(range(len(raws))) if not has_words else set(lead)
        if out.sentences and moved:
            prev = out.sentences[-1]
            out.sentences[-1] = CitedSentence(
                prev.key, prev.text, prev.markers + tuple(markers[i] for i in sorted(moved)))
            markers = [m for i, m in enumerate(markers) if i not in moved]
        if has_words:
            out.sentences.append(CitedSentence(letter_key(len(out.sentences)), text,
                                               tuple(markers)))
    out.problems = list(dict.fromkeys(out.problems))
    return out
