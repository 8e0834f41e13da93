"""Trace files for the tests: OTLP JSON as the collector's file exporter writes it
(camelCase, hex ids, `intValue` as a string, one export request per line)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TRACE = "5b8efff798038103d269b633813fc60c"


def value(v: Any) -> dict[str, Any]:
    """An OTLP AnyValue."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, list):
        return {"arrayValue": {"values": [value(x) for x in v]}}
    return {"stringValue": v}


def span(span_id: str, name: str, attrs: dict[str, Any], *, parent: str | None = None,
         start: int = 0, end: int = 1, trace: str = TRACE) -> dict[str, Any]:
    out: dict[str, Any] = {
        "traceId": trace, "spanId": span_id, "name": name, "kind": 1,
        "startTimeUnixNano": str(1_700_000_000_000_000_000 + start),
        "endTimeUnixNano": str(1_700_000_000_000_000_000 + end),
        "attributes": [{"key": k, "value": value(v)} for k, v in attrs.items()],
        "status": {}}
    if parent:
        out["parentSpanId"] = parent
    return out


def request(spans: list[dict[str, Any]]) -> dict[str, Any]:
    return {"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": value("rag")}]},
        "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}]}]}


def docs(prefix: str, items: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, (doc_id, text) in enumerate(items):
        out[f"{prefix}.{i}.document.id"] = doc_id
        out[f"{prefix}.{i}.document.content"] = text
        out[f"{prefix}.{i}.document.score"] = 1.0 / (i + 1)
    return out


EIFFEL = ("eiffel", "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.")
LOUVRE = ("louvre", "The Louvre in Paris is the most visited art museum in the world.")
SEINE = ("seine", "The Seine river flows through Paris.")


def openinference_trace(trace: str = TRACE, *, question: str | None = "When was the "
                        "Eiffel Tower completed?", answer: str | None = "The Eiffel Tower "
                        "was completed in 1889 for the World's Fair.") -> list[dict[str, Any]]:
    """A two-hop OpenInference trace: retrieve, retrieve again, rerank (dropping the
    relevant document of hop 1), answer."""
    root_attrs: dict[str, Any] = {"openinference.span.kind": "CHAIN"}
    if question is not None:
        root_attrs["input.value"] = question
    llm: dict[str, Any] = {"openinference.span.kind": "LLM", "llm.model_name": "m"}
    if answer is not None:
        llm["llm.output_messages.0.message.role"] = "assistant"
        llm["llm.output_messages.0.message.content"] = answer
    return [
        span("a000000000000001", "rag", root_attrs, start=0, end=100, trace=trace),
        span("a000000000000002", "retrieve", {
            "openinference.span.kind": "RETRIEVER", "input.value": question or "q",
            **docs("retrieval.documents", [EIFFEL, SEINE])},
            parent="a000000000000001", start=1, end=10, trace=trace),
        span("a000000000000003", "retrieve-2", {
            "openinference.span.kind": "RETRIEVER", "input.value": "Paris museum",
            **docs("retrieval.documents", [LOUVRE, SEINE])},
            parent="a000000000000001", start=11, end=20, trace=trace),
        span("a000000000000004", "rerank", {
            "openinference.span.kind": "RERANKER", "reranker.query": "Paris museum",
            **docs("reranker.output_documents", [LOUVRE, SEINE])},
            parent="a000000000000001", start=21, end=30, trace=trace),
        span("a000000000000005", "generate", llm, parent="a000000000000001",
             start=31, end=90, trace=trace),
    ]


def write_otlp(path: Path, traces: list[list[dict[str, Any]]], *, split: bool = True) -> Path:
    """One export request per line; with `split`, each trace's spans over two lines
    (as a batching exporter may write them)."""
    lines = []
    for spans in traces:
        parts = [spans[:2], spans[2:]] if split else [spans]
        lines.extend(json.dumps(request(p)) for p in parts if p)
    path.write_text("\n".join(lines) + "\n")
    return path


class Receiver:
    """An OTLP/HTTP receiver: keeps each POST's path, content type and JSON body."""

    def __init__(self, status: int = 200) -> None:
        self.posts: list[tuple[str, str, Any]] = []
        self.headers: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.posts.append((self.path, self.headers["Content-Type"], json.loads(body)))
                outer.headers.append(dict(self.headers))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"
