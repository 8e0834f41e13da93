"""The trace a sample was read from, as the sample keeps it (`Sample.metadata["trace"]`):
its spans, its retrieval hops and their documents, and once judged, the hop scores and the
relevant documents later hops lost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from ragassay.types import Frozen, Sample

TRACE_KEY = "trace"
"""The metadata key a sample read from a trace keeps it under (`Sample.metadata["trace"]`)."""


class TraceDocument(Frozen):
    """A document a retrieval (or rerank) span returned, with its scores once judged:
    `relevance` to the sample's question and `used` by the final answer (offline)."""

    id: str | None = None
    content: str
    score: float | None = None  # the retriever's or reranker's own score
    relevance: float | None = None
    used: float | None = None


class TraceHop(Frozen):
    """A retrieval or rerank span of a trace: its query and documents; `relevance` (of
    its documents to the question, as a whole) and `utilization` (the share of its
    documents the final answer uses) once judged."""

    span_id: str
    name: str
    kind: Literal["retriever", "reranker"]
    query: str = ""
    documents: tuple[TraceDocument, ...] = ()
    relevance: float | None = None
    utilization: float | None = None


class TraceSpan(Frozen):
    """One span of a trace as the sample keeps it: the tree (parent), its role (kind),
    its times (ns since the epoch) and the attributes no mapping rule took."""

    span_id: str
    parent_id: str | None = None
    name: str
    kind: str = ""
    start_ns: int | None = None
    end_ns: int | None = None
    attributes: dict[str, Any] = Field(default_factory=dict)


class LostDocument(Frozen):
    """A document an earlier hop found relevant that the final contexts lack."""

    hop: int  # 1-based, as people count and every reader shows it: SampleTrace.hops[hop - 1]
    span_id: str
    document: str  # its id, else the start of its text
    relevance: float


class SampleTrace(Frozen):
    """The trace a sample was read from (`Sample.metadata["trace"]`): ids that link
    scores back to it, its spans, its hops, which hops fed the answer (`context_hops`)
    and, once judged (`judged`), the relevant documents later hops lost."""

    trace_id: str
    span_id: str  # the root span
    answer_span_id: str | None = None
    spans: tuple[TraceSpan, ...] = ()
    hops: tuple[TraceHop, ...] = ()
    context_hops: tuple[int, ...] = ()
    lost: tuple[LostDocument, ...] = ()
    judged: bool = False

    @classmethod
    def of(cls, sample: Sample) -> SampleTrace | None:
        """The sample's trace, when it was read from one."""
        raw = sample.metadata.get(TRACE_KEY)
        return cls.model_validate(raw) if isinstance(raw, Mapping) else None
