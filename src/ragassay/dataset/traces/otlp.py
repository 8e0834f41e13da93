"""OTLP export requests as they arrive over HTTP: `POST /v1/traces` bodies, JSON or
protobuf, gzip- or deflate-encoded, decoded to `Span`s (what a trace file gives too).

The JSON form is read by the same rules as a trace file (`spans.py`: camelCase or
snake_case, ids in hex or base64); the protobuf form (`ExportTraceServiceRequest`) with
the `opentelemetry-proto` package (the `monitor` extra). Bodies are bounded: a compressed
body inflates to at most `max_bytes`, so a small bomb cannot fill memory. Every problem
is an `OtlpProblem`, one line, which a receiver answers with 400.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

from ragassay.dataset.errors import DatasetError
from ragassay.dataset.traces.spans import Span, spans_of_value
from ragassay.dataset.values import ValueProblem, loads, value_problem

JSON_TYPES = ("application/json",)
PROTOBUF_TYPES = ("application/x-protobuf", "application/protobuf")
ENCODINGS = ("gzip", "deflate", "identity", "")
REQUEST_MESSAGE = "opentelemetry.proto.collector.trace.v1.trace_service_pb2"


class OtlpProblem(ValueError):
    """Why a body is not an OTLP trace export (one line); `status` is the HTTP status a
    receiver answers with: 400 (bad body), 413 (too large), 415 (unsupported type)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def media_type(content_type: str | None) -> str:
    """`application/json; charset=utf-8` -> `application/json` (lowercase)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def inflate(body: bytes, encoding: str | None, max_bytes: int) -> bytes:
    """The body without its Content-Encoding (gzip, deflate, none), at most `max_bytes`
    once inflated (OtlpProblem 413 past it)."""
    enc = (encoding or "").strip().lower()
    if enc not in ENCODINGS:
        raise OtlpProblem(f"unsupported Content-Encoding {enc!r} (gzip, deflate or none)",
                          415)
    if enc in ("", "identity"):
        if len(body) > max_bytes:
            raise OtlpProblem(f"body larger than {max_bytes} bytes", 413)
        return body
    # gzip: a gzip header; deflate: zlib-wrapped, or (as some clients send it) raw
    waves = (16 + zlib.MAX_WBITS,) if enc == "gzip" else (zlib.MAX_WBITS, -zlib.MAX_WBITS)
    for wbits in waves:
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(body, max_bytes + 1)
            if len(out) <= max_bytes and not d.unconsumed_tail:
                out += d.flush()
        except zlib.error:
            continue
        if len(out) > max_bytes or d.unconsumed_tail:
            raise OtlpProblem(f"body inflates to more than {max_bytes} bytes", 413)
        if not d.eof:
            raise OtlpProblem(f"truncated {enc} body")
        return out
    raise OtlpProblem(f"body is not valid {enc} data")


def decode_request(body: bytes, content_type: str | None, encoding: str | None,
                   max_bytes: int) -> list[Span]:
    """The spans of one export request (OtlpProblem when it is not one)."""
    kind = media_type(content_type)
    if kind not in JSON_TYPES + PROTOBUF_TYPES:
        raise OtlpProblem(f"unsupported Content-Type {kind or '(none)'!r}: "
                          "application/json or application/x-protobuf", 415)
    raw = inflate(body, encoding, max_bytes)
    if kind in JSON_TYPES:
        return spans_from_json(raw)
    return spans_from_protobuf(raw)


def spans_from_json(raw: bytes | str) -> list[Span]:
    """The spans of an OTLP/JSON export request (`{"resourceSpans": [...]}`)."""
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        value = loads(text)
    except UnicodeDecodeError as exc:
        raise OtlpProblem(f"invalid UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise OtlpProblem(f"invalid JSON: {exc.msg} at line {exc.lineno}") from None
    except ValueProblem as exc:
        raise OtlpProblem(str(exc)) from None
    if not isinstance(value, Mapping) or not any(
            k in value for k in ("resourceSpans", "resource_spans")):
        raise OtlpProblem("not an OTLP trace export: no 'resourceSpans'")
    problem = value_problem(value)
    if problem:
        raise OtlpProblem(problem)
    try:
        return list(spans_of_value(value, "request"))
    except DatasetError as exc:
        raise OtlpProblem(exc.reason) from None


def spans_from_protobuf(raw: bytes) -> list[Span]:
    """The spans of an OTLP/protobuf `ExportTraceServiceRequest`."""
    from ragassay.extras import MissingExtra, require

    try:
        pb = require(REQUEST_MESSAGE, "monitor", "reading OTLP protobuf")
    except MissingExtra as exc:
        raise OtlpProblem(f"{exc} (or send application/json)", 415) from None
    request = pb.ExportTraceServiceRequest()
    try:
        request.ParseFromString(raw)
    except Exception as exc:  # protobuf's DecodeError, or RecursionError on deep nesting
        raise OtlpProblem(f"invalid protobuf: {type(exc).__name__}") from None
    spans: list[Span] = []
    for group in request.resource_spans:
        for scope in group.scope_spans:
            for s in scope.spans:
                if len(s.trace_id) != 16 or len(s.span_id) != 8:
                    raise OtlpProblem(f"span {s.name!r}: trace or span id of the wrong length")
                parent = s.parent_span_id.hex() if len(s.parent_span_id) == 8 else None
                spans.append(Span(
                    s.trace_id.hex(), s.span_id.hex(), parent, s.name,
                    s.start_time_unix_nano or None, s.end_time_unix_nano or None,
                    {kv.key: _any_value(kv.value, 0) for kv in s.attributes}))
    return spans


def _any_value(value: Any, depth: int) -> Any:
    """A protobuf AnyValue as plain JSON, as `spans.any_value` reads its JSON form."""
    if depth > 32:
        raise OtlpProblem("attribute value nested too deeply")
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [_any_value(v, depth + 1) for v in value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: _any_value(kv.value, depth + 1) for kv in value.kvlist_value.values}
    if kind == "bytes_value":
        import base64

        return base64.b64encode(value.bytes_value).decode("ascii")
    return getattr(value, kind)


def export_response(rejected: int = 0, message: str = "", protobuf: bool = False) -> bytes:
    """The body of a successful reply: an ExportTraceServiceResponse (with
    `partialSuccess` when spans were rejected), JSON or protobuf."""
    if protobuf:
        from ragassay.extras import require

        pb = require(REQUEST_MESSAGE, "monitor", "answering OTLP protobuf")
        reply = pb.ExportTraceServiceResponse()
        if rejected or message:
            reply.partial_success.rejected_spans = rejected
            reply.partial_success.error_message = message
        return bytes(reply.SerializeToString())
    out: dict[str, Any] = {}
    if rejected or message:
        out["partialSuccess"] = {"rejectedSpans": str(rejected), "errorMessage": message}
    return json.dumps(out).encode()


RPC_CODES = {400: 3, 404: 5, 405: 12, 413: 3, 415: 3, 429: 8, 503: 14}
"""An HTTP status -> the google.rpc code its Status body carries (INVALID_ARGUMENT,
NOT_FOUND, UNIMPLEMENTED, RESOURCE_EXHAUSTED, UNAVAILABLE)."""


def status_body(status: int, message: str, protobuf: bool = False) -> bytes:
    """The body of a failed reply, as OTLP/HTTP asks: a google.rpc.Status with the
    message, protobuf when the request was (JSON when the package is absent)."""
    code = RPC_CODES.get(status, 2)
    if protobuf:
        try:
            from google.rpc import status_pb2  # googleapis-common-protos

            return bytes(status_pb2.Status(code=code, message=message).SerializeToString())
        except ImportError:
            pass
    return json.dumps({"code": code, "message": message}).encode()
