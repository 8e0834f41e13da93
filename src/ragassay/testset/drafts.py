"""What test-set generation makes: items that are bench questions, and its options."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragassay.corpus.chunking import Chunk

Kind = Literal["single-fact", "multi-hop", "unanswerable"]
KINDS: tuple[Kind, ...] = ("single-fact", "multi-hop", "unanswerable")
NO_ANSWER = "The documents do not say."
OFFLINE_LABEL = "offline-extractive"


class SourceChunk(BaseModel):
    """A chunk a question was made from (its id is `doc#index` in the chunking used)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    doc: str
    start: int
    end: int
    text: str

    @classmethod
    def of(cls, chunk: Chunk) -> SourceChunk:
        return cls(id=chunk.id, doc=chunk.doc_id, start=chunk.start, end=chunk.end,
                   text=chunk.text)


class Draft(BaseModel):
    """A generated question before ids and deduplication: quotes are verbatim spans of
    the source chunks (checked), one per gold passage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    question: str
    reference: str
    quotes: tuple[tuple[str, str], ...] = ()  # (doc id, quote)
    sources: tuple[SourceChunk, ...] = ()

    def row(self, item_id: str, generator: str) -> dict[str, Any]:
        """The JSONL row: a `ragassay bench` question with its provenance in metadata."""
        docs = list(dict.fromkeys(doc for doc, _ in self.quotes))
        return {
            "id": item_id, "question": self.question, "reference": self.reference,
            "gold_docs": docs,
            "gold_passages": [{"doc": d, "quote": q} for d, q in self.quotes],
            "metadata": {"kind": self.kind, "generator": generator,
                         "source_chunks": [s.model_dump() for s in self.sources]},
        }


@dataclass(frozen=True)
class GenerateOptions:
    """How many questions of which kinds, from which chunks, with which judge."""

    n: int = 50
    judge: str = "offline"  # or BACKEND:MODEL: an LLM writes the questions
    mix: dict[str, float] = field(default_factory=lambda: {
        "single-fact": 0.6, "multi-hop": 0.2, "unanswerable": 0.2})
    seed: int = 0
    chunk_size: int = 120  # whitespace tokens per chunk (the recursive chunker)
    # the reference answer of an unanswerable question: about any corpus, not the
    # bench example's "The handbook does not say."
    no_answer: str = NO_ANSWER
    concurrency: int = 4
    base_url: str | None = None
    timeout_s: float = 60.0
    near_duplicate: float = 0.8  # word-set Jaccard at or above this: a duplicate


class GenerateReport(BaseModel):
    """What a generation made and what it dropped, and why."""

    model_config = ConfigDict(extra="forbid")

    generator: str
    asked: int
    made: dict[str, int] = Field(default_factory=dict)  # by kind
    dropped: dict[str, int] = Field(default_factory=dict)  # by reason
    chunks: int = 0
    documents: int = 0


_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def plan(n: int, mix: dict[str, float]) -> dict[Kind, int]:
    """How many of each kind: n split by the mix (largest remainders), kinds in order."""
    unknown = set(mix) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown question kind {sorted(unknown)[0]!r}; kinds: "
                         f"{', '.join(KINDS)}")
    total = sum(max(0.0, v) for v in mix.values())
    if total <= 0:
        raise ValueError("the mix gives no question any share")
    raw = {k: n * max(0.0, mix.get(k, 0.0)) / total for k in KINDS}
    out = {k: int(v) for k, v in raw.items()}
    for k in sorted(KINDS, key=lambda k: raw[k] - out[k], reverse=True)[: n - sum(out.values())]:
        out[k] += 1
    return out
