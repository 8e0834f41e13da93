"""OTLP/HTTP export bodies decoded to spans: protobuf and JSON as the real SDK encodes
them, the collector's hex-id JSON, gzip and deflate, and one-line refusals (with the
HTTP status a receiver answers) for what is not an export or is too large."""

from __future__ import annotations

import gzip
import json
import random
import zlib

import pytest
from google.protobuf import json_format
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from ragassay.dataset.traces import DEFAULT_TRACE_MAP, trace_row
from ragassay.dataset.traces.otlp import (
    OtlpProblem,
    decode_request,
    export_response,
    inflate,
    status_body,
)
from tests.support.monitor_traces import export, rag_trace, sdk_pipeline, sdk_request, sdk_tracer

PB = "application/x-protobuf"
JS = "application/json"


@pytest.fixture(scope="module")
def sdk_spans() -> tuple[list[str], object]:
    memory = InMemorySpanExporter()
    _, tracer = sdk_tracer(SimpleSpanProcessor(memory))
    rng = random.Random(3)
    ids = [sdk_pipeline(tracer, rng) for _ in range(3)]
    return ids, sdk_request(memory.get_finished_spans())


def test_protobuf_from_the_sdk_encoder(sdk_spans: tuple[list[str], object]) -> None:
    ids, message = sdk_spans
    body = message.SerializeToString()  # type: ignore[attr-defined]
    spans = decode_request(body, PB, None, 1 << 20)
    assert sorted({s.trace_id for s in spans}) == sorted(ids)
    assert len(spans) == 9
    by_trace = [s for s in spans if s.trace_id == ids[0]]
    row = trace_row(ids[0], by_trace, DEFAULT_TRACE_MAP)
    assert row["question"].startswith("How long does the")
    assert len(row["contexts"]) == 3 and row["answer"]
    root = next(s for s in by_trace if s.parent_id is None)
    assert root.start_ns and root.end_ns and root.end_ns >= root.start_ns


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate", None])
def test_json_from_the_sdk_encoder_in_any_encoding(sdk_spans: tuple[list[str], object],
                                                   encoding: str | None) -> None:
    ids, message = sdk_spans
    # protobuf's JSON mapping: base64 ids, camelCase; the same spans as the protobuf form
    text = json_format.MessageToJson(message).encode()  # type: ignore[arg-type]
    body = {"gzip": lambda b: gzip.compress(b), "deflate": zlib.compress,
            "raw-deflate": lambda b: zlib.compress(b)[2:-4], None: lambda b: b}[encoding](text)
    header = "deflate" if encoding == "raw-deflate" else encoding
    spans = decode_request(body, f"{JS}; charset=utf-8", header, 1 << 20)
    pb = decode_request(message.SerializeToString(), PB, None, 1 << 20)  # type: ignore[attr-defined]
    assert [(s.trace_id, s.span_id, s.parent_id, s.attributes) for s in spans] == \
        [(s.trace_id, s.span_id, s.parent_id, s.attributes) for s in pb]
    assert sorted({s.trace_id for s in spans}) == sorted(ids)


def test_the_collectors_json_with_hex_ids() -> None:
    trace = "5b8efff798038103d269b633813fc60c"
    body = json.dumps(export([rag_trace(trace, random.Random(1))])).encode()
    spans = decode_request(body, JS, "identity", 1 << 20)
    assert {s.trace_id for s in spans} == {trace} and len(spans) == 3


@pytest.mark.parametrize("body, ctype, enc, status, words", [
    (b"{", JS, None, 400, "invalid JSON"),
    (b'{"data": []}', JS, None, 400, "no 'resourceSpans'"),
    (b"\x0a\xff\xff", PB, None, 400, "invalid protobuf"),
    (b"{}", "text/plain", None, 415, "unsupported Content-Type"),
    (b"{}", JS, "br", 415, "unsupported Content-Encoding"),
    (b"not gzip", JS, "gzip", 400, "not valid gzip"),
    (gzip.compress(b"{}")[:-6], JS, "gzip", 400, "truncated gzip"),
    (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "zz", "spanId": "1"}]}]}]}',
     JS, None, 400, "is not a trace or span id"),
])
def test_refusals_are_one_line_with_their_status(body: bytes, ctype: str, enc: str | None,
                                                 status: int, words: str) -> None:
    with pytest.raises(OtlpProblem) as caught:
        decode_request(body, ctype, enc, 1 << 20)
    assert caught.value.status == status and words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_small_bomb_is_refused_before_it_fills_memory() -> None:
    bomb = gzip.compress(b"\0" * (64 << 20))  # 64 MiB of zeros in ~64 KiB
    assert len(bomb) < 100_000
    with pytest.raises(OtlpProblem) as caught:
        inflate(bomb, "gzip", 1 << 20)
    assert caught.value.status == 413
    with pytest.raises(OtlpProblem, match="larger than"):
        inflate(b"x" * 2000, None, 1000)


def test_replies_are_otlp_messages() -> None:
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2 as pb

    assert json.loads(export_response()) == {}
    partial = json.loads(export_response(3, "3 late"))
    assert partial == {"partialSuccess": {"rejectedSpans": "3", "errorMessage": "3 late"}}
    reply = pb.ExportTraceServiceResponse.FromString(export_response(2, "late", protobuf=True))
    assert reply.partial_success.rejected_spans == 2
    from google.rpc import status_pb2

    assert status_pb2.Status.FromString(status_body(429, "full", protobuf=True)).code == 8
    assert json.loads(status_body(400, "bad")) == {"code": 3, "message": "bad"}


def test_protobuf_without_the_monitor_extra_is_a_415_naming_it(
        sdk_spans: tuple[list[str], object], tmp_path: object) -> None:
    import base64
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    body = base64.b64encode(sdk_spans[1].SerializeToString()).decode()  # type: ignore[attr-defined]
    code = ("import base64\n"
            "from ragassay.dataset.traces.otlp import OtlpProblem, decode_request\n"
            f"body = base64.b64decode({body!r})\n"
            "try:\n    decode_request(body, 'application/x-protobuf', None, 1 << 20)\n"
            "except OtlpProblem as exc:\n    print(exc.status, exc)\n")
    done = subprocess.run([sys.executable, "-m", "tests.support.core_only", "-c", code],
                          capture_output=True, text=True, cwd=repo, timeout=120,
                          env={**os.environ, "PYTHONPATH": f"{repo}{os.pathsep}{repo / 'src'}"})
    assert done.stdout.strip() == ("415 reading OTLP protobuf needs the monitor extra: pip "
                                   "install 'ragassay[monitor]' (or send application/json)")
