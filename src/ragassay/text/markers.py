"""Citation markers in an answer: the one grammar every reader shares.

Markers are citations, not claims: `text.key_sample` strips them from the answer every
suite and judge reads, and the `citations` suite reads which contexts each sentence
cites from the same parse (`KeyedSample.citations`).

Styles read: `[1]`, `[1.]`, `[1, 3]`, `[1-3]`, `[1][2]`, `[^2]`, `(Source 2)` (also
`(Sources 1 and 3)`, `(Doc 2)`, `(Passage 2)`, `(Context 2)`, `(Ref 2)`, `(ref. 2)`,
`[ref. 3]`, `(source: doc 2)`, `(ref: document 2)`, `[src 1]`, `(cite: 1)`, `[Ctx 1]`,
`[footnote 1]`, `[Source A]`: a letter after a source word is a position, A the first),
a letter and a number alone (`[A1]`, `(A1)`, `[a1, b2]`) where a clause ends (`codes`),
`【1】`, `【4:0†source】`, `[1†L3-L5]`, `[1: library hours]`, ids or titles the sample names
(`metadata.citation_ids`, or `metadata.context_ids` / `metadata.context_titles`, one per
context in order, or a mapping id -> 0-based context index): `[doc-a]`, `(Source: Refund
policy)`, or a passage's leading label, "refund_policy.md: ..." (`titles`), and "(see:
Refund policy)" naming one; a source word and a colon name a source in either bracket (`[Source:
faq/returns]`), one the sample does not name being fabricated; id-style labels (`[doc1]`,
`[doc-1]`, `[ref_2]`, `[web:1]`, `[source:2]`, `[S1]`, `[†1]`, `(doc1)`, `[chunk 4]`):
when the sample names no ids, the label's number is the context's position, as in `[Doc
1]`; when it does, one it does not name is fabricated; and the loose forms of `loose`
(`(1)` and `(1)(2)` where a sentence ends, `{1}`, `<1>`, `«1»`, `［1］` and other brackets
around numbers where a clause ends, superscripts, `<sup>1</sup>`, `^1` and `†1`; a
"see"/"cf." wrapper goes with its markers). A trailing sources section ("Sources:\n[1] Opening
hours", "References: Document 1, Document 2": `sources`) lists sources and makes no claim:
it is cut from the answer before it is read, as footnote definitions ending it are ("[^1]:
refund_policy.md": the marker cites the passage the line names).
`(p. 1)` (a page) and `{0}` mid-sentence are text; marker-like text no rule reads
(`{x1}` where a clause ends, "(see: X)" naming no context) is a problem (`unread`).

Text inside code (a fenced block, an inline code span) holds no markers: `items[0]` in
code is code. Numbers are 1-based (`[1]` is the first context) unless the sample says
`metadata.citation_base: 0`, or reading the answer's markers 0-based leaves fewer of
them pointing at nothing than reading them 1-based (one stray `[0]` beside `[1]` ...
`[n]` does not flip the answer). Under 1-based numbering an `[0]` glued to a word
(`items[0]`) is indexing, not a marker. A marker that points at no context (a number
past the contexts, an id the sample does not name) is fabricated; a marker that cannot
be read (`[1-`, `[]`, `[3-1]`) is a problem: both are reported per sample, never raised.
Markers before a sentence's first word belong to the sentence before it
("... 30 days. [2] Shipping ...").

Every step is linear in the answer (360 KB of half-open markers: tests/text/test_markers.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ragassay.text.code import code_spans, outside
from ragassay.text.codes import PAREN_CODES, as_markers, is_code, norm_code, paren_labels
from ragassay.text.loose import SEE, SOURCE_WORDS, loose_markers, removals
from ragassay.text.prose_cites import prose_markers
from ragassay.text.sentences import item_text_start, letter_key, sentence_spans
from ragassay.text.sources import definitions, footnotes_start, note_label, sources_start
from ragassay.text.titles import Numbering, named_in, numbering, see_titles
from ragassay.text.titles import norm_id as _norm_id
from ragassay.text.unmarked import PUNCT as _PUNCT
from ragassay.text.unmarked import cited_pieces
from ragassay.text.unmarked import clusters as _clusters
from ragassay.text.unmarked import strip as _strip
from ragassay.text.unmarked import tidy as _tidy
from ragassay.text.unread import unclosed_problems, unread_problems

MAX_RANGE = 50  # a range wider than this ([1-1000]) is a problem, not 1000 citations
MAX_PROBLEMS = 20  # problems kept per answer (a hostile answer can have thousands)

_BRACKET = re.compile(r"\[\s*([^\[\]\n]{0,200}?)\s*\]")
# (no bracket inside: "(source: [2])" is the marker [2] and its wrapper)
_PAREN = re.compile(rf"\(\s*(?:{SEE}\s+)?({SOURCE_WORDS}(?:\b|(?=[-_]?\d))"
                    r"[^()\[\]\n]{0,200}?)\s*\)", re.IGNORECASE)
_COLON = re.compile(rf"^{SOURCE_WORDS}\s*:", re.IGNORECASE)
_LENTICULAR = re.compile(r"【([^【】\n]{0,200})】")
_RANGE = re.compile(r"^(\d+)\s*[-–—]\s*(\d+)$")
_NUMBER = re.compile(r"^#?(\d+)\.?$")  # "[1.]": a full stop inside the bracket
# a number and what follows it: "[1†L3-L5]" (line ranges), "[1: library hours]" (a title)
_TITLED = re.compile(r"^((?:[A-Za-z][-_]?)?\d{1,4})\s*(?:†|:\s+(?=[^\W\d_]))")
_LETTER = re.compile(r"^[A-Z]$")  # "Source A" (after a source word): the first context
# "Source 2", "source: 2", "Doc #2", "ref. 2" (the word abbreviated with a full stop)
_WORD_PREFIX = re.compile(rf"^{SOURCE_WORDS}\.?(?:\s*[:#]\s*#?|\s+#?)(?=\S)",
                          re.IGNORECASE)
# an id-style label: a short word (two letters or more) and a number, glued or joined by
# - _ or : (doc1, doc-1, ref_2, source3, web:1), or one capital or a dagger-like sign
# and a number, glued or joined by - or _ (S1, a1, †1: `codes`)
_ID_NUMBER = re.compile(r"^(?:[^\W\d_]{2,12}(?:[-_]|:[ \t]?)?|(?:[A-Za-z]|[†‡§¶])[-_]?)"
                        r"(\d{1,4})$")
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
    """An answer sentence without its markers, and what it cites; `pieces`: its clauses
    as mid-sentence markers citing different passages cut it (`unmarked.cited_pieces`)."""

    key: str
    text: str
    markers: tuple[Marker, ...] = ()
    pieces: tuple[str, ...] = ()

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
    """The answer's sentences (markers removed, keyed `a`, `b`, ...), the answer's text
    without its markers (`text`: paragraphs and code kept), the problems found, and
    whether a trailing sources section was cut (`listed`: its entries cite nothing)."""

    sentences: list[CitedSentence] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    text: str = ""
    listed: bool = False

    @property
    def n_citations(self) -> int:
        """Citations: (sentence, context) pairs plus (sentence, fabricated label) pairs."""
        return sum(len(s.cited) + len(s.fabricated) for s in self.sentences)

    @property
    def n_fabricated(self) -> int:
        return sum(len(s.fabricated) for s in self.sentences)

    @property
    def n_markers(self) -> int:
        return sum(len(s.markers) for s in self.sentences)


# ---- reading one marker ----------------------------------------------------------------

@dataclass
class _Raw:
    """A marker found in the text before numbering: its labels (numbers, as spelled, or
    ids)."""

    start: int
    end: int
    text: str
    numbers: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    problem: str | None = None
    glued: bool = False  # written straight after a word character: `items[0]`
    lead: bool = False  # a prose lead-in ("According to passage 1, ..."): its sentence's
    spelled: dict[int, str] = field(default_factory=dict)  # number -> label as written
    letters: list[str] = field(default_factory=list)  # "A": the first context
    codes: list[str] = field(default_factory=list)  # "A1" alone: a marker by position
    coded: bool = False  # every label a letter and a number, no source word (`codes`)
    round: bool = False  # in round brackets: "(A1)"


def _bare(part: str, ids: Mapping[str, int]) -> str:
    """A label without its source word ("Source 2" -> "2"), or words ("source: doc 2",
    "ref: document 2" -> "2"), unless what the first leaves is an id the sample names."""
    bare = _WORD_PREFIX.sub("", part).strip()
    return bare if _norm_id(bare) in ids else _WORD_PREFIX.sub("", bare).strip()


def _read_part(part: str, ids: Mapping[str, int], raw: _Raw, declared: bool) -> bool:
    """Read one label of a marker into `raw`; False when it is not a citation label.
    `ids`: every name (`Numbering.names`); `declared`: whether the sample names ids."""
    if _norm_id(part) in ids:
        raw.ids.append(_norm_id(part))
        return True
    bare = _bare(part, ids)
    if (m := _NUMBER.match(bare)) is not None:
        raw.numbers.append(int(m.group(1)))
    elif (r := _RANGE.match(bare)) is not None:
        lo, hi = int(r.group(1)), int(r.group(2))
        if hi < lo or hi - lo >= MAX_RANGE:
            raw.problem = f"range {lo}-{hi}"
        else:
            raw.numbers.extend(range(lo, hi + 1))
    elif _norm_id(bare) in ids:
        raw.ids.append(_norm_id(bare))
    elif _LETTER.match(bare) and bare != part:  # "Source A", "[Doc B]"
        raw.letters.append(part)
    elif (m := _ID_NUMBER.match(bare)) is None:
        return False
    else:
        if bare == part and is_code(bare):  # "A1" with no source word: `codes`
            raw.codes.append(norm_code(bare))
        if declared:  # the sample names its ids: one it does not name points at nothing
            raw.ids.append(_norm_id(bare))
        else:  # no ids: the label's number is the context's position, as in "Doc 1"
            raw.numbers.append(int(m.group(1)))
            raw.spelled.setdefault(int(m.group(1)), bare)
    return True


def _read(content: str, ids: Mapping[str, int], strict: bool, declared: bool) -> _Raw | None:
    """The labels of a marker's content; None when it is not a citation (an ordinary
    bracket like "[sic]"). `strict`: the content must be numbers or ids."""
    raw = _Raw(0, 0, "")
    footnote = content.lstrip().startswith("^")
    if not content.strip(" ^"):
        raw.problem = "empty"
        return raw
    whole = _norm_id(content.lstrip("^"))
    if whole in ids:
        raw.ids.append(whole)
        return raw
    unread, n_read = [], 0
    for part in _SPLIT.split(content):
        part = part.strip().lstrip("^").strip()
        if part and not _read_part(part, ids, raw, declared):
            unread.append(_WORD_PREFIX.sub("", part).strip())
        n_read += bool(part)
    # "[A1]", "[A1, B2]": a marker by its position (`codes`); "[^A1]" is a footnote
    raw.coded = not footnote and 0 < len(raw.codes) == n_read
    if unread:
        looks_like_id = len(unread) == 1 and declared and bool(_ID_LIKE.match(unread[0]))
        if not (raw.numbers or raw.ids or raw.problem or footnote or not strict
                or looks_like_id):
            return None
        raw.ids.extend(_norm_id(u) for u in unread)  # unknown ids: fabricated
    return raw


def _loose(text: str) -> list[_Raw]:
    """`(1)` where a sentence ends and superscripts (`loose`), and citations written as
    prose (`prose_cites`), read as numbers."""
    out = []
    for start, end, labels, lead in [(*m, False) for m in loose_markers(text)] \
            + prose_markers(text):
        raw = _Raw(start, end, text[start:end], lead=lead)
        for part in _SPLIT.split(labels):
            _read_part(part.strip(), {}, raw, False)
        out.append(raw)
    return out


def _find(text: str, nb: Numbering, code: Sequence[tuple[int, int]]) -> list[_Raw]:
    """Every marker outside code, in order (a wrapper like "(see [1])" included); a "see"
    marker naming a title first, so that it wins its span (`titles`)."""
    ids = nb.names
    found = [_Raw(a, b, text[a:b], ids=[name]) for a, b, name in see_titles(text, ids)]
    for pattern, strict in ((_BRACKET, True), (_PAREN, True), (_LENTICULAR, False),
                            (PAREN_CODES, True)):
        for m in pattern.finditer(text):
            content = m.group(1)
            if pattern is _LENTICULAR:  # 【4:0†source】: the number before ':' or '†'
                content = re.split(r"[†:]", content, maxsplit=1)[0]
            elif pattern is PAREN_CODES:  # "(A1)(B2)": one marker, by position (`codes`)
                content = paren_labels(m.group(0))
            elif (t := _TITLED.match(content)) and _norm_id(content) not in ids:
                content = t.group(1)
            # "(Source: Refund policy)", "[Source: services/dyeing]" name a source;
            # "(documents must be ...)" does not
            raw = _read(content, ids, strict and not _COLON.match(content), bool(nb.ids))
            if raw is not None:
                raw.start, raw.end, raw.text = m.start(), m.end(), m.group(0)
                raw.glued = m.start() > 0 and (text[m.start() - 1].isalnum()
                                               or text[m.start() - 1] == "_")
                raw.round = pattern is PAREN_CODES
                raw.coded = raw.coded and pattern is not _LENTICULAR
                found.append(raw)
    loose = sorted(_loose(text), key=lambda r: r.start)
    taken = sorted((r.start, r.end) for r in found)
    found += [r for r, k in zip(loose, outside([(r.start, r.end) for r in loose], taken),
                                strict=True) if k]
    found.sort(key=lambda r: (r.start, -r.end))
    # a marker inside another is part of it: the "[1]" of "<sup>[1]</sup>"
    outer: list[_Raw] = []
    for r in found:
        if not outer or r.end > outer[-1].end:
            outer.append(r)
    found = outer
    keep = outside([(r.start, r.end) for r in found], code)
    kept = [r for r, k in zip(found, keep, strict=True) if k]
    for r, (a, b) in zip(kept, removals(text, [(r.start, r.end) for r in kept]), strict=True):
        r.start, r.end = a, b
    return kept


# ---- numbering ---------------------------------------------------------------------------

def _fabricated(numbers: Sequence[int], base: int, n: int) -> int:
    return sum(not 0 <= x - base < n for x in numbers)


def _base(raws: Sequence[_Raw], numbering: Numbering) -> int:
    """The answer's numbering: the sample's, else 1 unless reading the free-standing
    markers 0-based leaves strictly fewer pointing at nothing."""
    if numbering.base is not None:
        return numbering.base
    numbers = [x for r in raws if not r.glued for x in r.numbers]
    if 0 not in numbers:
        return 1
    n = numbering.n_contexts
    return 0 if _fabricated(numbers, 0, n) < _fabricated(numbers, 1, n) else 1


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
            fabricated.append(raw.spelled.get(n, str(n)))
    letters = [(ord(x[-1]) - ord("A"), x) for x in raw.letters]  # "Source A": the first
    targets += [i for i, _ in letters if i < numbering.n_contexts]
    fabricated += [x for i, x in letters if i >= numbering.n_contexts]
    for label in raw.ids:
        if label in numbering.names:
            targets.append(numbering.names[label])
        else:
            fabricated.append(label)
    return Marker(raw.text, tuple(dict.fromkeys(targets)), tuple(dict.fromkeys(fabricated)))


def _leading(text: str, start: int, raws: Sequence[_Raw]) -> list[bool]:
    """Per marker of a sentence: whether no word precedes it in the sentence (markers
    apart); one walk over the sentence."""
    out, seen, pos = [], False, start
    for r in raws:
        seen = seen or bool(_WORD.search(text, pos, max(pos, r.start)))
        out.append(not seen)
        pos = max(pos, r.end)
    return out


def _spans(answer: str, raws: Sequence[_Raw]) -> list[tuple[int, int]]:
    """Sentence spans of the answer, split as the answer without its markers splits
    ("EUR.[1] Adults" is two sentences, as "EUR. Adults" is), mapped back onto the
    answer; each from the end of the one before, so that a marker between two sentences
    leads the second (and so goes to the first)."""
    if not raws:
        return list(sentence_spans(answer))
    kept: list[str] = []
    where: list[int] = []  # the answer's offset of each kept character
    pos = 0
    for s, e in _clusters(answer, 0, len(answer), raws):
        stop, nxt = s, answer[e] if e < len(answer) else ""
        if not nxt or nxt in _PUNCT or nxt.isspace():
            while stop > pos and answer[stop - 1] in " \t":
                stop -= 1
        kept.append(answer[pos:stop])
        where.extend(range(pos, stop))
        if stop > pos and answer[stop - 1].isalnum() and nxt.isalnum():
            kept.append(" ")
            where.append(s)
        pos = e
    kept.append(answer[pos:])
    where.extend(range(pos, len(answer)))
    ends = [where[b - 1] + 1 for _, b in sentence_spans("".join(kept))][:-1]
    return list(zip([0, *ends], [*ends, len(answer)], strict=True))


def _sentences(answer: str, raws: list[_Raw], markers: list[Marker]) -> list[CitedSentence]:
    """The answer's sentences without markers; leading markers go to the sentence before."""
    out: list[CitedSentence] = []
    k = 0
    for a, b in _spans(answer, raws):
        mine: list[int] = []
        while k < len(raws) and raws[k].start < b:
            if raws[k].start >= a:
                mine.append(k)
            k += 1
        own = [raws[i] for i in mine]
        a = item_text_start(answer, a, b)
        text = _tidy(_strip(answer, a, b, own))
        has_words = bool(_WORD.search(text))
        lead = _leading(answer, a, own)
        moving = [(first or not has_words) and not raws[i].lead
                  for first, i in zip(lead, mine, strict=True)] if out else [False] * len(own)
        moved = [markers[i] for i, m in zip(mine, moving, strict=True) if m]
        kept = [markers[i] for i, m in zip(mine, moving, strict=True) if not m]
        if moved:
            prev = out[-1]
            out[-1] = CitedSentence(prev.key, prev.text, prev.markers + tuple(moved),
                                    prev.pieces)
        if has_words:
            pieces = cited_pieces(answer, a, b, own, [markers[i].targets for i in mine])
            out.append(CitedSentence(letter_key(len(out)), text, tuple(kept), pieces))
    return out


def _coded(answer: str, found: list[_Raw], nb: Numbering) -> list[_Raw]:
    """The markers found, less the letter-and-digit labels that are text by their place
    or are words of the passages ("Room [B2] is ...", `codes`)."""
    coded = [r for r in found if r.coded]
    if not coded:
        return found
    keep = as_markers(answer, [(r.start, r.end, r.round, r.codes) for r in coded], nb.terms)
    text = {id(r) for r, k in zip(coded, keep, strict=True) if not k}
    return [r for r in found if id(r) not in text]


def _noted(raws: Sequence[_Raw], notes: Mapping[str, str], nb: Numbering) -> list[str]:
    """Footnote markers read through their definitions (`sources.definitions`): one
    whose line names a passage ("[^1]: refund_policy.md") cites it; a word label whose
    line names none ("[^note]: Some page") cites nothing, and is reported."""
    problems: list[str] = []
    if not notes:  # the answer ends with no footnote definitions (most do)
        return problems
    for r in raws:
        label = note_label(r.text)
        if label is None or label not in notes:
            continue
        if (name := named_in(notes[label], nb.names)) is not None:
            r.numbers, r.ids, r.letters = [], [name], []
        elif not label.isdigit():
            r.ids = []
            problems.append(f"footnote {r.text!r} names no passage ({notes[label][:60]!r}): "
                            "cites nothing")
    return problems


def parse_citations(answer: str, numbering: Numbering) -> ParsedAnswer:
    """The answer's sentences with their markers resolved, the answer without its
    markers, and the problems found."""
    code = code_spans(answer)
    end = footnotes_start(answer[:sources_start(answer, code)], code)
    listed = end < len(answer)
    notes = definitions(answer[end:])
    if listed:  # a trailing sources section (or footnotes) lists sources: no claim
        answer = answer[:end].rstrip()
        code = code_spans(answer)
    found = _find(answer, numbering, code)
    raws = _coded(answer, found, numbering)
    # the sentence a prose lead-in opened opens with its next word ("According to
    # passage 1, orders ship" -> "Orders ship"): same length, so every span still holds
    answer = "".join(c.upper() if i in {r.end for r in raws if r.lead} else c
                     for i, c in enumerate(answer)) if any(r.lead for r in raws) else answer
    problems = _noted(raws, notes, numbering)
    base = _base(raws, numbering)
    # under 1-based numbering `items[0]` is indexing, not a citation
    raws = [r for r in raws if not (base == 1 and r.glued and r.numbers == [0]
                                    and not r.ids)]
    read = [(r.start, r.end) for r in found]
    problems += unclosed_problems(answer, read, code)
    if base == 1 and any(0 in r.numbers for r in raws):
        problems.append("marker [0] with 1-based numbering (metadata.citation_base: 1)")
    markers = [_resolve(r, numbering, base, problems) for r in raws]
    text = _strip(answer, 0, len(answer), raws).strip() if raws else answer
    out = ParsedAnswer(_sentences(answer, raws, markers), problems, text, listed)
    out.problems += unread_problems(answer, out.sentences, read, code)
    unique = list(dict.fromkeys(out.problems))
    more = len(unique) - MAX_PROBLEMS
    out.problems = unique[:MAX_PROBLEMS] + ([f"... and {more} more"] if more > 0 else [])
    return out


def parse_answer(answer: str, contexts: Sequence[Any], metadata: Mapping[str, Any]
                 ) -> ParsedAnswer:
    """`parse_citations` with the sample's numbering; problems with its ids come first."""
    nb, problems = numbering(contexts, metadata)
    parsed = parse_citations(answer, nb)
    parsed.problems = problems + parsed.problems
    return parsed
