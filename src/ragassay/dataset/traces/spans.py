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
import math
import re
import threading
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragassay.dataset.errors import DatasetError
from ragassay.dataset.limits import MAX_LINE_BYTES, open_bounded
from ragassay.dataset.parquet import TooLong, parquet_rows
from ragassay.dataset.values import ValueProblem, raw_decode, value_problem

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
            head = fh.read(SNIFF_BYTES).decode("utf-8-sig", "replace")
    except (OSError, EOFError, zlib.error):
        return False
    first = _first_value(head)
    if first is not None:  # the keys of the first object decide, not text anywhere in it
        return _is_span_object(first)
    return (bool(_OTLP_KEY.search(head)) or bool(_PHOENIX_KEY.search(head))
            or all(p.search(head) for p in _SDK_KEYS))


def _first_value(head: str) -> Mapping[str, Any] | None:
    """The file's first object (of a JSON list, or the first of the file), when it ends
    within `head`; None when it does not, or is not an object."""
    pos = len(head) - len(head.lstrip())
    if head[pos:pos + 1] == "[":
        pos += 1
        pos += len(head[pos:]) - len(head[pos:].lstrip())
    try:
        value, _ = raw_decode(head, pos)
    except (json.JSONDecodeError, ValueProblem):
        return None
    return value if isinstance(value, Mapping) else None


def _is_span_object(item: Mapping[str, Any]) -> bool:
    """An OTLP export, a Phoenix REST reply or record, or an SDK span: by its own keys (a
    row whose metadata carries trace and span ids is a row)."""
    if "resourceSpans" in item or "resource_spans" in item or PHOENIX_COLUMNS[1] in item:
        return True
    data = item.get("data")
    if isinstance(data, list) and data and isinstance(data[0], Mapping):
        return _is_span_object(data[0])
    context = item.get("context")
    return (isinstance(context, Mapping) and "span_id" in context and "trace_id" in context
            and "question" not in item)


@dataclass
class SpanFile:
    """What a trace file holds: its spans, and (read with `skip_invalid`) the values
    that could not be read (`(file:line, reason)`) and the traces left incomplete by a
    span that could not be read ({trace id: why})."""

    spans: list[Span]
    problems: list[tuple[str, str]] = field(default_factory=list)
    incomplete: dict[str, str] = field(default_factory=dict)


class _LastRead:
    """The last trace file read, until the next read of the same file takes it: `eval`
    checks a file, then evaluates it, and a trace file (held whole, its spans grouped
    by trace) is parsed once for both. Keyed by the file's identity (device, inode,
    size, modification and change times) and how it was read: a changed file is read
    again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple[Any, ...] | None = None
        self.read: SpanFile | None = None

    @staticmethod
    def identity(path: Path, *how: object) -> tuple[Any, ...] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, *how)

    def take(self, key: tuple[Any, ...] | None) -> SpanFile | None:
        with self.lock:
            if key is None or key != self.key:
                return None
            read, self.key, self.read = self.read, None, None
            return read

    def keep(self, key: tuple[Any, ...] | None, read: SpanFile) -> None:
        with self.lock:
            self.key, self.read = key, read


_LAST = _LastRead()


def read_spans(path: Path, gz: bool, name: str, fmt: str = "json") -> list[Span]:
    """Every span of the file (DatasetError naming the file, line and span)."""
    return read_span_file(path, gz, name, fmt).spans


def read_span_file(path: Path, gz: bool, name: str, fmt: str = "json",
                   skip_invalid: bool = False) -> SpanFile:
    """The file's spans. A value that is not JSON, is nested too deep or holds a span
    that cannot be read (a bad id, a time that is not one) stops the file with a
    DatasetError naming the file, line and span; with `skip_invalid` it is kept in
    `problems` instead and reading goes on at the next line that starts a value. The
    second of two reads in a row of an unchanged file is not parsed again."""
    key = _LastRead.identity(path, gz, fmt, skip_invalid)
    read = _LAST.take(key)
    if read is None:
        read = _parse(path, gz, name, fmt, skip_invalid)
        _LAST.keep(key, read)
    return read


def _parse(path: Path, gz: bool, name: str, fmt: str, skip: bool) -> SpanFile:
    if fmt == "parquet":
        return SpanFile(_parquet_spans(path, name))
    with open_bounded(path, gz, name) as fh:
        raw = fh.read(MAX_TRACE_FILE_BYTES + 1)
    if len(raw) > MAX_TRACE_FILE_BYTES:
        raise DatasetError(f"trace file larger than {MAX_TRACE_FILE_BYTES >> 20} MB "
                           "(split it)", where=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DatasetError(f"invalid UTF-8 at byte {exc.start}", where=name) from None
    out = SpanFile([])
    for where, value in _values(text, name, skip):
        if isinstance(value, DatasetError):
            out.problems.append((where, value.reason))
            continue
        items = value if isinstance(value, list) else [value]
        try:
            out.spans.extend(span for item in items for span in _spans_of(item, where))
        except DatasetError as exc:
            if not skip:
                raise
            out.problems.append((where, exc.reason))
            for trace in _trace_ids(items):  # a trace without this span is not scored
                out.incomplete.setdefault(trace, f"a span of it at {where} could not be "
                                          f"read ({exc.reason})")
    if not out.spans and not out.problems:
        raise DatasetError("no spans in the trace file", where=name)
    return out


_VALUE_START = re.compile(r"\n(?=[\[{])")


def _values(text: str, name: str, skip: bool) -> Iterator[tuple[str, Any]]:
    """The file's top-level JSON values (one, one per line, or concatenated), each
    checked like a dataset row (depth, digits, surrogates: `values.value_problem`). A
    bad one raises DatasetError, or with `skip` is yielded as one and reading goes on
    at the next line starting with `{` or `[` (a JSONL line, a pretty-printed span)."""
    pos, end = 0, len(text)
    line, counted = 1, 0  # the line of text[counted]: counted on, never from the start
    while True:
        while pos < end and text[pos] in " \t\r\n":
            pos += 1
        if pos >= end:
            return
        line, counted = line + text.count("\n", counted, pos), pos
        where = f"{name}:{line}"
        start = pos
        try:
            value, pos = raw_decode(text, pos)
            problem = value_problem(value)
            if problem:
                raise ValueProblem(f"the value {problem}")
        except (json.JSONDecodeError, ValueProblem) as exc:
            reason = f"invalid JSON: {exc.msg}" if isinstance(exc, json.JSONDecodeError) \
                else str(exc)
            if not skip:
                raise DatasetError(reason, where=where) from None
            yield where, DatasetError(reason, where=where)
            found = _VALUE_START.search(text, start)
            pos = found.end() if found else end
            continue
        yield where, value


def _trace_ids(items: list[Any]) -> Iterator[str]:
    """The trace ids a value's spans name, as far as they can be read."""
    stack = list(items)
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, Mapping):
            context = item.get("context")
            trace = _get(item, "traceId", "trace_id", PHOENIX_COLUMNS[0]) or (
                context.get("trace_id") if isinstance(context, Mapping) else None)
            hex_id = _hex_id(trace)
            if hex_id is not None:
                yield hex_id
            stack.extend(v for v in item.values() if isinstance(v, list | Mapping))


def _parquet_spans(path: Path, name: str) -> list[Span]:
    """Phoenix's spans dataframe, read within the Parquet bounds (`dataset.parquet`)."""
    spans = []
    for n, row in parquet_rows(path, name):
        if isinstance(row, TooLong):
            raise DatasetError(f"span {row.reason}", where=f"{name}:row {n}")
        spans.append(_phoenix_span(row, f"{name}:row {n}"))
    return spans


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
    start, end = _times(_get(span, "startTimeUnixNano", "start_time_unix_nano"),
                        _get(span, "endTimeUnixNano", "end_time_unix_nano"), _ns, where, name)
    return Span(trace_id, span_id, _id(parent, where, name, "parentSpanId") if parent else None,
                name, start, end, attrs)


def _sdk_span(span: Mapping[str, Any], where: str) -> Span:
    context = span.get("context")
    name = str(span.get("name", ""))
    if not isinstance(context, Mapping):
        raise DatasetError(f"span {name!r} has no 'context' (trace_id, span_id), nor is the "
                           "object an OTLP export (resourceSpans)", where=where)
    parent = span.get("parent_id")
    attrs = span.get("attributes")
    start, end = _times(span.get("start_time"), span.get("end_time"), _time_ns, where, name)
    return Span(_id(context.get("trace_id"), where, name, "context.trace_id"),
                _id(context.get("span_id"), where, name, "context.span_id"),
                _id(parent, where, name, "parent_id") if parent else None, name, start, end,
                _with_kind(flatten(attrs if isinstance(attrs, Mapping) else {}), span))


def _phoenix_span(row: Mapping[str, Any], where: str) -> Span:
    """A row of Phoenix's spans dataframe (`context.span_id`, `attributes.input.value`)."""
    name = str(row.get("name", ""))
    parent = row.get("parent_id")
    attrs = flatten({k.removeprefix("attributes."): v for k, v in row.items()
                     if k.startswith("attributes.") and v is not None})
    start, end = _times(row.get("start_time"), row.get("end_time"), _time_ns, where, name)
    return Span(_id(row.get(PHOENIX_COLUMNS[0]), where, name, PHOENIX_COLUMNS[0]),
                _id(row.get(PHOENIX_COLUMNS[1]), where, name, PHOENIX_COLUMNS[1]),
                _id(parent, where, name, "parent_id") if parent else None, name, start, end,
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


def _hex_id(value: Any) -> str | None:
    """A trace or span id as lowercase hex: `0x...` (the SDK), hex (OTLP JSON) or base64
    (protobuf's JSON mapping); None when it is none of these."""
    if isinstance(value, str) and value.strip():
        text = value.strip().lower().removeprefix("0x")
        if _HEX.fullmatch(text) and len(text) in (16, 32):
            return text
        try:
            return base64.b64decode(value, validate=True).hex()
        except (binascii.Error, ValueError):
            pass
    return None


def _id(value: Any, where: str, name: str, what: str) -> str:
    """`_hex_id`, or a DatasetError naming the span and the field."""
    found = _hex_id(value)
    if found is None:
        raise DatasetError(f"span {name!r}: '{what}' is not a trace or span id", where=where)
    return found


MAX_NS = (1 << 63) - 1
"""The latest time a span may carry (ns since the epoch: year 2262)."""


class NotATime(ValueError):
    """A span time that is no time: infinite, NaN, negative or past MAX_NS."""


def _within(ns: int, given: Any) -> int:
    if not 0 <= ns <= MAX_NS:
        raise NotATime(repr(given)[:40])
    return ns


def _ns(value: Any) -> int | None:
    """An OTLP time (`"1700000000000000000"`, a number); None when absent or not a
    number, NotATime for a number that is no time (`Infinity`, NaN, 1e300)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotATime(repr(value))
        return _within(int(value), value)
    try:
        return _within(int(value), value)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, NotATime):
            raise
        if isinstance(value, str) and value.strip().lower().lstrip("+-") in (
                "infinity", "inf", "nan"):
            raise NotATime(value) from None
        return None


def _time_ns(value: Any) -> int | None:
    """A time as ns since the epoch: ISO text, a datetime (Parquet), or a number of ms
    (pandas' JSON records) or ns; NotATime for a number that is no time."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise NotATime(repr(value))
        return _within(int(value * 1_000_000) if value < 1e14 else int(value), value)
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


def _times(start: Any, end: Any, read: Any, where: str, name: str) -> tuple[int | None,
                                                                            int | None]:
    """A span's start and end read with `read` (`_ns`, `_time_ns`); a DatasetError
    naming the span for a time that is no time."""
    try:
        return read(start), read(end)
    except (NotATime, OverflowError) as exc:
        raise DatasetError(f"span {name!r}: a start or end time that is no time ({exc})",
                           where=where) from None


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
            try:
                return int(value[key])
            except (TypeError, ValueError, OverflowError):
                return None
    for key in ("arrayValue", "array_value"):
        if key in value:
            return [any_value(v) for v in (value[key] or {}).get("values", [])]
    for key in ("kvlistValue", "kvlist_value"):
        if key in value:
            return {str(kv.get("key")): any_value(kv.get("value"))
                    for kv in (value[key] or {}).get("values", []) if isinstance(kv, Mapping)}
    return None
