"""The OTLP/HTTP endpoint: `POST /v1/traces` (JSON or protobuf, gzip or deflate), a
health endpoint (`GET /health`), and back-pressure as OTLP/HTTP asks for it.

A request is answered 200 only once its spans are stored (the trace ledger and the
spans of open traces: nothing accepted is lost by a crash after the reply). While the
monitor holds as many traces as it may (`--max-queue`, or the spans of open traces past
their bound) a request gets 429 with `Retry-After`; while it drains (SIGTERM) 503 with
`Retry-After`: an SDK exporter or a collector retries either later. A bad body is 400,
an unsupported type or encoding 415, a body too large 413 (not retried).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from ragassay.dataset.traces import Span
from ragassay.dataset.traces.otlp import (
    PROTOBUF_TYPES,
    OtlpProblem,
    decode_request,
    export_response,
    media_type,
    status_body,
)
from ragassay.monitor.http import Reply, Request
from ragassay.store import Accepted, StoreError

TRACES_PATH = "/v1/traces"
HEALTH_PATHS = ("/health", "/healthz")


class Intake(Protocol):
    """What the endpoint needs of the monitor."""

    draining: bool
    retry_after_s: int
    max_body: int
    max_spans: int

    def full(self, more_spans: int = 0) -> bool: ...

    def accept(self, spans: list[Span]) -> Accepted: ...

    def health(self) -> dict[str, Any]: ...

    def problem(self, message: str) -> None: ...


@dataclass
class Tally:
    """Requests answered, by outcome (the stats events and the health endpoint)."""

    accepted: int = 0
    spans: int = 0
    duplicates: int = 0
    late: int = 0
    throttled: int = 0  # 429
    unavailable: int = 0  # 503
    refused: int = 0  # 4xx

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


class OtlpEndpoint:
    """`early` and `handle` for `http.HttpServer`, over an `Intake`."""

    def __init__(self, intake: Intake) -> None:
        self.intake = intake
        self.tally = Tally()

    def _busy(self, status: int, message: str, protobuf: bool) -> Reply:
        if status == 429:
            self.tally.throttled += 1
        else:
            self.tally.unavailable += 1
        return Reply(status, status_body(status, message, protobuf), _type(protobuf),
                     (("Retry-After", str(self.intake.retry_after_s)),))

    def early(self, request: Request) -> Reply | None:
        """Answer what needs no body: paths, methods, health, a drain, back-pressure."""
        protobuf = media_type(request.headers.get("content-type")) in PROTOBUF_TYPES
        if request.path in HEALTH_PATHS:
            if request.method not in ("GET", "HEAD"):
                return _status(405, "use GET", (("Allow", "GET"),))
            body = self.intake.health()
            return Reply(503 if self.intake.draining else 200, json.dumps(body).encode())
        if request.path != TRACES_PATH:
            self.tally.refused += 1
            return _status(404, f"no such path: POST OTLP traces to {TRACES_PATH}")
        if request.method != "POST":
            self.tally.refused += 1
            return _status(405, f"use POST on {TRACES_PATH}", (("Allow", "POST"),))
        if self.intake.draining:
            return self._busy(503, "the monitor is shutting down: retry later", protobuf)
        if self.intake.full():
            return self._busy(429, "the monitor's queue is full: retry later", protobuf)
        return None

    async def handle(self, request: Request) -> Reply:
        """Decode, store and acknowledge one export request."""
        protobuf = media_type(request.headers.get("content-type")) in PROTOBUF_TYPES
        try:
            spans = decode_request(request.body, request.headers.get("content-type"),
                                   request.headers.get("content-encoding"),
                                   self.intake.max_body)
        except OtlpProblem as exc:
            self.tally.refused += 1
            return Reply(exc.status, status_body(exc.status, str(exc), protobuf),
                         _type(protobuf))
        if self.intake.draining:
            return self._busy(503, "the monitor is shutting down: retry later", protobuf)
        if len(spans) > self.intake.max_spans:  # never fits: retrying cannot help
            self.tally.refused += 1
            return Reply(413, status_body(413, f"{len(spans)} spans in one request: the "
                                               f"monitor holds at most {self.intake.max_spans}",
                                          protobuf), _type(protobuf))
        if self.intake.full(len(spans)):
            return self._busy(429, "the monitor's queue is full: retry later", protobuf)
        try:
            got = self.intake.accept(spans)
        except StoreError as exc:  # e.g. the database locked past its timeout: transient
            self.intake.problem(f"storing spans failed: {exc}")
            return self._busy(503, "the monitor cannot store now: retry later", protobuf)
        self.tally.accepted += 1
        self.tally.spans += got.spans
        self.tally.duplicates += got.duplicates
        self.tally.late += got.late
        message = (f"{got.late} spans of traces already complete were dropped"
                   if got.late else "")
        return Reply(200, export_response(got.late, message, protobuf), _type(protobuf))


def _type(protobuf: bool) -> str:
    return "application/x-protobuf" if protobuf else "application/json"


def _status(status: int, message: str, headers: tuple[tuple[str, str], ...] = ()) -> Reply:
    return Reply(status, status_body(status, message), "application/json", headers)
