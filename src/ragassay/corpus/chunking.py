"""Chunkers: fixed-size, recursive, sentence, markdown (heading-aware) and semantic.

All chunkers work on the same unit, a *token* = a run of non-whitespace characters
(`\\S+`): deterministic, offline, and every chunk is a contiguous token range, so
its text is exactly `document.text[start:end]`. Built this way, the invariants hold
by construction: the chunks' token ranges cover every token (no text lost), and a
chunk never has more than `size` tokens. chonkie's offline "word" tokenizer was
considered, but it counts the empty strings between repeated spaces as tokens, so
sizes and overlaps would not mean what the config says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ragassay.corpus.documents import Document
from ragassay.embed import Embedder
from ragassay.text import split_sentences

_TOKEN = re.compile(r"\S+")
_HASHES = re.compile(r"#{1,6}")
SECTION_PREFIX = "Section: "

ChunkerKind = Literal["fixed", "recursive", "sentence", "markdown", "semantic"]
Range = tuple[int, int]  # token indices [lo, hi)


def overlap_fits(kind: str | None, size: int, overlap: int) -> bool:
    """Whether a chunker advances: its overlap is below its size (sentence chunks count
    sentences, so they take any overlap)."""
    return kind == "sentence" or overlap < size


class ChunkerSpec(BaseModel):
    """A chunker and its parameters. `size` and `overlap` count tokens, except that the
    sentence chunker's overlap counts sentences; `percentile` is the semantic
    chunker's break threshold (split where neighbour similarity is below it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ChunkerKind = "recursive"
    size: int = Field(default=400, ge=1)
    overlap: int = Field(default=0, ge=0)
    percentile: float = Field(default=25.0, ge=0.0, le=100.0)

    @field_validator("overlap")
    @classmethod
    def _below_size(cls, overlap: int, info: ValidationInfo) -> int:
        """An overlap of a whole chunk or more never advances (the error names `overlap`,
        so a config error points at the key: `strategy[1].overlap: ...`)."""
        size, kind = info.data.get("size"), info.data.get("kind")
        if size is not None and not overlap_fits(kind, size, overlap):
            raise ValueError(f"{overlap} must be smaller than size ({size})")
        return overlap

    @property
    def label(self) -> str:
        """A short readable name: `recursive-400/o50`, `semantic-300/p25`."""
        out = f"{self.kind}-{self.size}"
        if self.kind == "semantic":
            return f"{out}/p{self.percentile:g}"
        return f"{out}/o{self.overlap}" if self.overlap else out


class Chunk(BaseModel):
    """A contiguous span of one document: `text == document.text[start:end]`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    doc_id: str
    index: int
    start: int
    end: int
    text: str
    n_tokens: int
    heading_path: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.doc_id}#{self.index}"

    @property
    def indexed_text(self) -> str:
        """The text retrieval sees and generation reads: heading path as a prefix."""
        if not self.heading_path:
            return self.text
        return SECTION_PREFIX + " > ".join(self.heading_path) + "\n\n" + self.text


class _Doc:
    """A document's token spans and lazily computed sentence starts."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans: list[Range] = [m.span() for m in _TOKEN.finditer(text)]
        self._sentences: list[int] | None = None

    def __len__(self) -> int:
        return len(self.spans)

    def gap(self, i: int) -> str:
        """The whitespace before token i ("\\n" for the first token)."""
        return "\n" if i == 0 else self.text[self.spans[i - 1][1] : self.spans[i][0]]

    def token(self, i: int) -> str:
        return self.text[self.spans[i][0] : self.spans[i][1]]

    def sentence_starts(self) -> list[int]:
        """Token indices where sentences start, aligned by counting each sentence's words
        (split_sentences only normalises whitespace, so word counts line up)."""
        if self._sentences is None:
            starts, p = [], 0
            for sentence in split_sentences(self.text):
                if p >= len(self.spans):
                    break
                starts.append(p)
                p += len(sentence.split())
            self._sentences = starts or [0]
        return self._sentences

    def is_heading(self, i: int) -> bool:
        return "\n" in self.gap(i) and _HASHES.fullmatch(self.token(i)) is not None


def _windows(lo: int, hi: int, size: int, overlap: int = 0) -> list[Range]:
    """Fixed windows of `size` tokens over [lo, hi), consecutive ones sharing `overlap`."""
    out: list[Range] = []
    start = lo
    while True:
        end = min(start + size, hi)
        out.append((start, end))
        if end >= hi:
            return out
        start = end - overlap


def _level_starts(doc: _Doc, level: str, lo: int, hi: int) -> list[int]:
    """Unit starts strictly inside (lo, hi) for one separator level."""
    if level == "sentence":
        return [s for s in doc.sentence_starts() if lo < s < hi]
    tests: dict[str, Callable[[str], bool]] = {
        "section": lambda g: bool(re.search(r"\n[ \t]*\n[ \t]*\n", g)),
        "paragraph": lambda g: bool(re.search(r"\n[ \t]*\n", g)),
        "line": lambda g: "\n" in g,
    }
    test = tests[level]
    heads = level == "section"
    return [i for i in range(lo + 1, hi) if test(doc.gap(i)) or (heads and doc.is_heading(i))]


LEVELS = ("section", "paragraph", "line", "sentence")


def _recursive(doc: _Doc, lo: int, hi: int, budget: int, level: int = 0) -> list[Range]:
    """Split [lo, hi) at the coarsest separator that works, merging neighbours up to budget."""
    if hi - lo <= budget:
        return [(lo, hi)]
    if level >= len(LEVELS):
        return _windows(lo, hi, budget)
    cuts = _level_starts(doc, LEVELS[level], lo, hi)
    if not cuts:
        return _recursive(doc, lo, hi, budget, level + 1)
    bounds = [lo, *cuts, hi]
    out: list[Range] = []
    cur: Range | None = None
    for a, b in zip(bounds, bounds[1:], strict=False):
        if b - a > budget:
            if cur:
                out.append(cur)
                cur = None
            out.extend(_recursive(doc, a, b, budget, level + 1))
        elif cur and b - cur[0] <= budget:
            cur = (cur[0], b)
        else:
            if cur:
                out.append(cur)
            cur = (a, b)
    if cur:
        out.append(cur)
    return out


def _with_overlap(ranges: list[Range], overlap: int, floor: int = 0) -> list[Range]:
    """Extend each range after the first back by `overlap` tokens (not before `floor`)."""
    if overlap <= 0:
        return ranges
    return [r if i == 0 else (max(floor, r[0] - overlap), r[1]) for i, r in enumerate(ranges)]


def _sentence_pack(doc: _Doc, lo: int, hi: int, size: int, overlap: int) -> list[Range]:
    """Pack whole sentences up to `size` tokens; repeat the last `overlap` sentences."""
    starts = [s for s in doc.sentence_starts() if lo < s < hi]
    units: list[Range] = []
    for a, b in zip([lo, *starts], [*starts, hi], strict=False):
        units.extend(_windows(a, b, size))  # an over-long sentence is cut into windows
    out: list[Range] = []
    i = 0
    while i < len(units):
        j, total = i, 0
        while j < len(units) and total + units[j][1] - units[j][0] <= size:
            total += units[j][1] - units[j][0]
            j += 1
        out.append((units[i][0], units[j - 1][1]))
        if j >= len(units):
            break
        nxt = max(i + 1, j - overlap)
        while nxt < j and units[j][1] - units[nxt][0] > size:
            nxt += 1
        i = nxt
    return out


def _sections(doc: _Doc) -> list[tuple[Range, tuple[str, ...]]]:
    """Markdown sections (heading line + body) with their heading paths; a section that
    is only a heading is merged into the next one."""
    heads = [i for i in range(len(doc)) if doc.is_heading(i)]
    bounds = [0, *[h for h in heads if h > 0], len(doc)]
    path: list[tuple[int, str]] = []
    out: list[tuple[Range, tuple[str, ...]]] = []
    pending: int | None = None
    for a, b in zip(bounds, bounds[1:], strict=False):
        title_end = a + 1
        if doc.is_heading(a):
            while title_end < b and "\n" not in doc.gap(title_end):
                title_end += 1
            depth = len(doc.token(a))
            title = " ".join(doc.token(t) for t in range(a + 1, title_end))
            path = [p for p in path if p[0] < depth] + [(depth, title)]
            if title_end >= b and b < len(doc):  # heading only: merge forward
                pending = a if pending is None else pending
                continue
        start = a if pending is None else pending
        pending = None
        out.append(((start, b), tuple(t for _, t in path)))
    return out


def _markdown(doc: _Doc, size: int, overlap: int) -> list[tuple[Range, tuple[str, ...]]]:
    out: list[tuple[Range, tuple[str, ...]]] = []
    for (lo, hi), path in _sections(doc):
        pieces = _recursive(doc, lo, hi, size - overlap, level=1)
        out.extend((r, path) for r in _with_overlap(pieces, overlap, floor=lo))
    return out


def _semantic(doc: _Doc, spec: ChunkerSpec, embedder: Embedder) -> list[Range]:
    """Break between neighbouring sentences whose embedding similarity falls below the
    `percentile`-th percentile of the document's neighbour similarities."""
    starts = doc.sentence_starts()
    sents = list(zip(starts, [*starts[1:], len(doc)], strict=False))
    if len(sents) < 2:
        return _sentence_pack(doc, 0, len(doc), spec.size, 0)
    texts = [doc.text[doc.spans[a][0] : doc.spans[b - 1][1]] for a, b in sents]
    vecs = np.asarray(embedder.embed(texts), dtype=np.float32)
    sims = np.sum(vecs[:-1] * vecs[1:], axis=1)
    threshold = float(np.percentile(sims, spec.percentile))
    groups: list[Range] = []
    lo = 0
    for k, sim in enumerate(sims):
        if sim < threshold:
            groups.append((lo, sents[k + 1][0]))
            lo = sents[k + 1][0]
    groups.append((lo, len(doc)))
    out: list[Range] = []
    for a, b in groups:
        out.extend(_sentence_pack(doc, a, b, spec.size, 0))
    return out


def chunk_document(
    document: Document, spec: ChunkerSpec, embedder: Embedder | None = None
) -> list[Chunk]:
    """Chunk one document; the semantic chunker needs an embedder."""
    doc = _Doc(document.text)
    if not len(doc):
        return []
    labelled: list[tuple[Range, tuple[str, ...]]]
    if spec.kind == "fixed":
        labelled = [(r, ()) for r in _windows(0, len(doc), spec.size, spec.overlap)]
    elif spec.kind == "recursive":
        pieces = _recursive(doc, 0, len(doc), spec.size - spec.overlap)
        labelled = [(r, ()) for r in _with_overlap(pieces, spec.overlap)]
    elif spec.kind == "sentence":
        labelled = [(r, ()) for r in _sentence_pack(doc, 0, len(doc), spec.size, spec.overlap)]
    elif spec.kind == "markdown":
        labelled = _markdown(doc, spec.size, spec.overlap)
    else:
        if embedder is None:
            raise ValueError("the semantic chunker needs an embedder")
        labelled = [(r, ()) for r in _semantic(doc, spec, embedder)]
    chunks = []
    for n, ((lo, hi), path) in enumerate(labelled):
        start, end = doc.spans[lo][0], doc.spans[hi - 1][1]
        chunks.append(
            Chunk(
                doc_id=document.id,
                index=n,
                start=start,
                end=end,
                text=document.text[start:end],
                n_tokens=hi - lo,
                heading_path=path,
            )
        )
    return chunks


def chunk_corpus(
    documents: Sequence[Document], spec: ChunkerSpec, embedder: Embedder | None = None
) -> list[Chunk]:
    """Chunk every document, in corpus order."""
    return [c for d in documents for c in chunk_document(d, spec, embedder)]
