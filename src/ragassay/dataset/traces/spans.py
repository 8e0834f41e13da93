"""Spans out of a trace file, whatever wrote it.

Read: OTLP JSON (`{"resourceSpans": [...]}`, the collector's file exporter, one export
request per line or one batch; camelCase or snake_case keys, ids in hex or base64);
opentelemetry-sdk's JSON (`ReadableSpan.to_json()`, what `ConsoleSpanExporter` writes:
one span per object, pretty-printed or one per line, or a JSON list of them); Phoenix's
spans (its REST API's `{"data": [span, ...]}`, `span_kind` beside the attributes) and
its spans dataframe (`get_spans_dataframe()` saved as Parquet, or as JSON records:
`context.trace_id`, `context.span_id`, `parent_id`, `span_kind`, `attributes.*`
columns). Every attribute value is decoded to plain JSON (`{"intValue": "3"}` -> 3) and
nested attributes are flattened (`{"retrieval": {"documents": [{"document": {"content":
...}}]}}` -> `retrieval.documents.0.document.content`).
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import re
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragassay.dataset.errors import DatasetError
from ragassay.dataset.limits import MAX_LINE_BYTES, open_bounded
from ragassay.dataset.values import ValueProblem, raw_decode

SNIFF_BYTES = 1 << 20
_OTLP_KEY = re.compile(r'(?<!\\)"(resourceSpans|resource_spans)"\s*:')
_SDK_KEYS = (re.compile(r'(?<!\\)"context"\s*:\s*\{'), re.compile(r'(?<!\\)"trace_id"\s*:'),
             re.compile(r'(?<!\\)"span_id"\s*:'))
MAX_TRACE_FILE_BYTES = 16 * MAX_LINE_BYTES
"""The largest trace file read (its spans are grouped by trace, so it is held whole)."""


@dataclass
class Span:
    """One span, decoded: ids in lowercase hex, times in ns since the epoch."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start_ns: int | None = None
    end_ns: int | None = None
    attributes: dict[str, Any] = field(default_factory=dict)


PHOENIX_COLUMNS = ("context.trace_id", "context.span_id")
_PHOENIX_KEY = re.compile(r'(?<!\\)"context\.span_id"\s*:')
KIND_KEY = "openinference.span.kind"


def is_trace_file(path: Path, gz: bool, fmt: str = "json") -> bool:
    """Whether a file holds spans rather than rows: a .json/.jsonl whose first MiB has
    an OTLP `resourceSpans` key, a span's `context`, `trace_id` and `span_id` keys, or a
    Phoenix record's `context.span_id`; a Parquet file with Phoenix's span columns."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            names = set(pq.read_schema(path).names)
        except (OSError, ValueError):
            return False
        return all(c in names for c in PHOENIX_COLUMNS)
    try:  # at most SNIFF_BYTES read (inflated), so no bound beyond it is needed here
        with (gzip.open(path, "rb") if gz else open(path, "rb")) as fh:
            head = fh.read(SNIFF_BYTES).decode("utf-8", "replace")
    except (OSError, EOFError, zlib.error):
        return False
    return (bool(_OTLP_KEY.search(head)) or bool(_PHOENIX_KEY.search(head))
            or all(p.search(head) for p in _SDK_KEYS))


def read_spans(path: Path, gz: bool, name: str, fmt: str = "json") -> list[Span]:
    """Every span of the file (DatasetError naming the file and line on bad JSON)."""
    if fmt == "parquet":
        return _parquet_spans(path, name)
    with open_bounded(path, gz, name) as fh:
        raw = fh.read(MAX_TRACE_FILE_BYTES + 1)
    if len(raw) > MAX_TRACE_FILE_BYTES:
        raise DatasetError(f"trace file larger than {MAX_TRACE_FILE_BYTES >> 20} MB "
                           "(split it)", where=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"invalid UTF-8 at byte {exc.start}", where=name) from None
    spans: list[Span] = []
    for where, value in _values(text, name):
        for item in value if isinstance(value, list) else [value]:
            spans.extend(_spans_of(item, where))
    if not spans:
        raise DatasetError("no spans in the trace file", where=name)
    return spans


def _values(text: str, name: str) -> Iterator[tuple[str, Any]]:
    """The file's top-level JSON values (one, one per line, or concatenated)."""
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos] in " \t\r\n":
            pos += 1
        if pos >= end:
            return
        where = f"{name}:{text.count(chr(10), 0, pos) + 1}"
        try:
            value, pos = raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"invalid JSON: {exc.msg}", where=where) from None
        except ValueProblem as exc:
            raise DatasetError(str(exc), where=where) from None
        yield where, value


def _parquet_spans(path: Path, name: str) -> list[Span]:
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, ValueError) as exc:
        raise DatasetError(f"cannot read Parquet ({exc})", where=name) from None
    return [_phoenix_span(row, f"{name}:row {i}") for i, row in enumerate(rows, start=1)]


def spans_of_value(item: Any, where: str) -> Iterator[Span]:
    """The spans of one decoded JSON value (an OTLP export request, a span object,
    Phoenix's REST reply): what a trace file holds per value, and a receiver per body."""
    return _spans_of(item, where)


def _spans_of(item: Any, where: str) -> Iterator[Span]:
    if not isinstance(item, Mapping):
        raise DatasetError("expected an OTLP export or a span object", where=where)
    if isinstance(item.get("data"), list) and "resourceSpans" not in item:
        for span in item["data"]:  # Phoenix's REST API: {"data": [span, ...]}
            yield from _spans_of(span, where)
        return
    if PHOENIX_COLUMNS[1] in item:
        yield _phoenix_span(item, where)
        return
    groups = _get(item, "resourceSpans", "resource_spans")
    if groups is None:
        yield _sdk_span(item, where)
        return
    for group in _list(groups, where, "resourceSpans"):
        for scope in _list(_get(group, "scopeSpans", "scope_spans",
                                "instrumentationLibrarySpans") or [], where, "scopeSpans"):
            for span in _list(_get(scope, "spans") or [], where, "spans"):
                yield _otlp_span(span, where)


def _get(item: Any, *keys: str) -> Any:
    if isinstance(item, Mapping):
        for key in keys:
            if key in item:
                return item[key]
    return None


def _list(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise DatasetError(f"'{what}' must be a list", where=where)
    return value


def _otlp_span(span: Any, where: str) -> Span:
    if not isinstance(span, Mapping):
        raise DatasetError("a span must be an object", where=where)
    name = str(span.get("name", ""))
    trace_id = _id(_get(span, "traceId", "trace_id"), where, name, "traceId")
    span_id = _id(_get(span, "spanId", "span_id"), where, name, "spanId")
    parent = _get(span, "parentSpanId", "parent_span_id")
    attrs = {str(a.get("key")): any_value(a.get("value"))
             for a in (_get(span, "attributes") or []) if isinstance(a, Mapping)}
    return Span(trace_id, span_id, _id(parent, where, name, "parentSpanId") if parent else None,
                name, _ns(_get(span, "startTimeUnixNano", "start_time_unix_nano")),
                _ns(_get(span, "endTimeUnixNano", "end_time_unix_nano")), attrs)


def _sdk_span(span: Mapping[str, Any], where: str) -> Span:
    context = span.get("context")
    name = str(span.get("name", ""))
    if not isinstance(context, Mapping):
        raise DatasetError(f"span {name!r} has no 'context' (trace_id, span_id), nor is the "
                           "object an OTLP export (resourceSpans)", where=where)
    parent = span.get("parent_id")
    attrs = span.get("attributes")
    return Span(_id(context.get("trace_id"), where, name, "context.trace_id"),
                _id(context.get("span_id"), where, name, "context.span_id"),
                _id(parent, where, name, "parent_id") if parent else None, name,
                _time_ns(span.get("start_time")), _time_ns(span.get("end_time")),
                _with_kind(flatten(attrs if isinstance(attrs, Mapping) else {}), span))


def _phoenix_span(row: Mapping[str, Any], where: str) -> Span:
    """A row of Phoenix's spans dataframe (`context.span_id`, `attributes.input.value`)."""
    name = str(row.get("name", ""))
    parent = row.get("parent_id")
    attrs = flatten({k.removeprefix("attributes."): v for k, v in row.items()
                     if k.startswith("attributes.") and v is not None})
    return Span(_id(row.get(PHOENIX_COLUMNS[0]), where, name, PHOENIX_COLUMNS[0]),
                _id(row.get(PHOENIX_COLUMNS[1]), where, name, PHOENIX_COLUMNS[1]),
                _id(parent, where, name, "parent_id") if parent else None, name,
                _time_ns(row.get("start_time")), _time_ns(row.get("end_time")),
                _with_kind(attrs, row))


def _with_kind(attrs: dict[str, Any], span: Mapping[str, Any]) -> dict[str, Any]:
    """Phoenix keeps the OpenInference kind beside the attributes (`span_kind`)."""
    kind = span.get("span_kind")
    if isinstance(kind, str) and kind and KIND_KEY not in attrs:
        attrs[KIND_KEY] = kind
    return attrs


def flatten(attrs: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested attributes as flat dotted keys (lists of objects indexed); flat ones as
    they are."""
    out: dict[str, Any] = {}
    for key, value in attrs.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, name + "."))
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            for i, item in enumerate(value):
                out.update(flatten(item, f"{name}.{i}."))
        else:
            out[name] = value
    return out


_HEX = re.compile(r"[0-9a-f]+")


def _id(value: Any, where: str, name: str, what: str) -> str:
    """A trace or span id as lowercase hex: `0x...` (the SDK), hex (OTLP JSON) or base64
    (protobuf's JSON mapping)."""
    if isinstance(value, str) and value.strip():
        text = value.strip().lower().removeprefix("0x")
        if _HEX.fullmatch(text) and len(text) in (16, 32):
            return text
        try:
            return base64.b64decode(value, validate=True).hex()
        except (binascii.Error, ValueError):
            pass
    raise DatasetError(f"span {name!r}: '{what}' is not a trace or span id", where=where)


def _ns(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _time_ns(value: Any) -> int | None:
    """A time as ns since the epoch: ISO text, a datetime (Parquet), or a number of ms
    (pandas' JSON records) or ns."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value * 1_000_000) if value < 1e14 else int(value)
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return int(value.timestamp()) * 1_000_000_000 + value.microsecond * 1000
    return None


def any_value(value: Any) -> Any:
    """An OTLP `AnyValue` (`{"stringValue": "x"}`, `{"arrayValue": {"values": [...]}}`, ...)
    as plain JSON."""
    if not isinstance(value, Mapping):
        return value
    for key in ("stringValue", "string_value", "boolValue", "bool_value", "doubleValue",
                "double_value", "bytesValue", "bytes_value"):
        if key in value:
            return value[key]
    for key in ("intValue", "int_value"):
        if key in value:
            return _ns(value[key])
    for key in ("arrayValue", "array_value"):
        if key in value:
            return [any_value(v) for v in (value[key] or {}).get("values", [])]
    for key in ("kvlistValue", "kvlist_value"):
        if key in value:
            return {str(kv.get("key")): any_value(kv.get("value"))
                    for kv in (value[key] or {}).get("values", []) if isinstance(kv, Mapping)}
    return None
