"""Traces in: OpenTelemetry traces of a RAG pipeline read as samples, one per trace.

`ragassay eval traces.json` (and `ragassay.evaluate("traces.json")`) reads OTLP JSON,
opentelemetry-sdk's span JSON and Phoenix's span exports (`spans.py`) with OpenInference
or GenAI semantic convention attributes, by the rules of `mapping.py` (`--trace-map
ROLE=ATTR` to read others first); `samples.py` turns each trace into a row for
`sample_from_mapping`; `trace.py` holds the trace as a sample keeps it (`SampleTrace`: its
spans, hops and their documents, and their scores once judged). A file is read as traces
when its start holds spans (`is_trace_file`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from ragassay.dataset.readers import Record
from ragassay.dataset.traces.mapping import (
    DEFAULT_TRACE_MAP,
    KINDS,
    ROLES,
    TraceMap,
    parse_trace_map,
)
from ragassay.dataset.traces.samples import TraceProblem, trace_records, trace_row
from ragassay.dataset.traces.spans import (
    Span,
    SpanFile,
    any_value,
    is_trace_file,
    read_span_file,
    read_spans,
)
from ragassay.dataset.traces.trace import (
    DOCUMENT_RELEVANCE,
    HOP_RELEVANCE,
    HOP_UTILIZATION,
    HOPS_NOTE,
    LostDocument,
    SampleTrace,
    TraceDocument,
    TraceHop,
    TraceSpan,
)

__all__ = [
    "DEFAULT_TRACE_MAP",
    "DOCUMENT_RELEVANCE",
    "HOPS_NOTE",
    "HOP_RELEVANCE",
    "HOP_UTILIZATION",
    "KINDS",
    "ROLES",
    "LostDocument",
    "SampleTrace",
    "Span",
    "SpanFile",
    "TraceDocument",
    "TraceHop",
    "TraceMap",
    "TraceProblem",
    "TraceSpan",
    "any_value",
    "is_trace_file",
    "parse_trace_map",
    "read_span_file",
    "read_spans",
    "read_trace_records",
    "trace_row",
]


def read_trace_records(path: Path, name: str, gz: bool,
                       overrides: Mapping[str, list[str]] | None = None,
                       fmt: str = "json", skip_invalid: bool = False) -> Iterator[Record]:
    """The rows of a trace file, one per trace (a RowProblem for a trace without a
    question or an answer); ValueError at once for an unknown role in `overrides`. With
    `skip_invalid`, a line that cannot be read is a RowProblem of its own (and a trace
    that lost a span to it one too) instead of stopping the file."""
    rules = DEFAULT_TRACE_MAP.with_overrides(overrides or {})
    return trace_records(read_span_file(path, gz, name, fmt, skip_invalid), name, rules)
