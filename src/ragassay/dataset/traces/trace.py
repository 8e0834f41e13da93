"""The trace a sample was read from, as the sample keeps it (`Sample.metadata["trace"]`):
its spans, its retrieval hops and their documents, and once judged, the hop scores and the
relevant documents later hops lost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, ValidationError

from ragassay.dataset.errors import type_name
from ragassay.types import Frozen, Sample

TRACE_KEY = "trace"
"""The metadata key a sample read from a trace keeps it under (`Sample.metadata["trace"]`):
reserved for that (`trace_problem`), so that the hop scores, the report's `trace` and its
`hops` section read it, and its object is never taken for the sample's own metadata."""


class TraceDocument(Frozen):
    """A document a retrieval (or rerank) span returned, with its scores once judged:
    `relevance` to the sample's question and `used` by the final answer (offline)."""

    id: str | None = None
    content: str
    score: float | None = None  # the retriever's or reranker's own score
    relevance: float | None = None
    used: float | None = None


HOP_RELEVANCE = "relevance of the hop's documents"
"""What a hop's `relevance` is called wherever it prints (the console, the HTML, the
dashboard): not the `trace.context_relevance` metric, beside which it is read."""
HOP_UTILIZATION = "share of the hop's documents used"
DOCUMENT_RELEVANCE = "document relevance"
"""A single document's relevance to the question (a lost document's, `hops.lost`)."""
HOPS_NOTE = (f"{HOP_RELEVANCE}: how relevant the documents one retrieval or rerank returned "
             "are to the question, as a whole (the offline analyzer's, whatever judged the "
             "run); not trace.context_relevance, which scores the final contexts the answer "
             "was given")


class TraceHop(Frozen):
    """A retrieval or rerank span of a trace: its query and documents; `relevance` (of
    its documents to the question, as a whole: this hop's retrieval, not the
    `trace.context_relevance` metric of the final contexts) and `utilization` (the share
    of its documents the final answer uses) once judged."""

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


def own_metadata(sample: Sample) -> dict[str, Any]:
    """The sample's own metadata: all but the trace it was read from (an object under
    `trace`, as `SampleTrace.of` and `Store.sample_metadata_keys` read it). Another value
    there, stored before `trace_problem` refused it at load time, is the user's and kept."""
    return {k: v for k, v in sample.metadata.items()
            if not (k == TRACE_KEY and isinstance(v, Mapping))}


def trace_problem(metadata: Mapping[str, Any]) -> str | None:
    """Why a row's metadata is refused at load time (None: it has no `trace`, or its
    `trace` is one, as the trace loader writes it): another value there, a trace id say,
    would be taken for the trace the sample was read from (a string crashed the report's
    hops section, an object the run's hop scoring)."""
    if TRACE_KEY not in metadata:
        return None
    raw = metadata[TRACE_KEY]
    if isinstance(raw, Mapping):
        try:
            SampleTrace.model_validate(raw)
        except ValidationError:
            pass
        else:
            return None
    return (f"metadata {TRACE_KEY!r} is kept for the trace a sample was read from (a trace "
            f"file's spans), and this row's ({type_name(raw)}) is not one: rename the key, "
            f"e.g. 'trace_id'")
