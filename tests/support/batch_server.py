"""A loopback fake of OpenAI's batch endpoints, for the batch engine's tests.

`BatchServer(handler)` serves on 127.0.0.1 (a free port), from a daemon thread:

- `POST /v1/files` (multipart, purpose batch), `GET /v1/files/{id}/content`;
- `POST /v1/batches`, `GET /v1/batches/{id}`, `GET /v1/batches` (list),
  `POST /v1/batches/{id}/cancel`;
- `POST /v1/chat/completions` (direct calls, for the same run without --batch and for
  `--batch-fallback direct`).

Every chat request, direct or a line of a batch, is answered by `handler(request, n)`
(a `ScriptedReply`, as `ScriptedServer`'s handlers): a 200 reply is the line's response
body, any other status an error line (`error_file_id`). A batch moves one status per
poll (`GET /v1/batches/{id}`): validating -> in_progress -> finalizing -> its end,
which `fate(batch_number)` chooses: "completed" (default), "expired" (the first
`expire_after` lines answered, the rest `batch_expired` in the error file), "failed"
(validation failed: nothing answered, `errors` say why). `hold` keeps batches
in_progress until cleared (a test kills the client while it polls); `create_delay_s`
answers the first create that late (the batch made all the same); `refuse_uploads` and
`refuse_creates` refuse the next uploads or creates (HTTP 400). The lines are answered
once, when the batch leaves in_progress.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.scripted_server import Handler, ScriptedReply, error_body

__all__ = ["BatchServer", "FakeBatch"]

MAX_BODY_BYTES = 256 * 1024 * 1024
STEPS = ("validating", "in_progress", "finalizing")


@dataclass
class FakeBatch:
    """One batch the fake holds: its lines (request bodies by custom id) and its state."""

    id: str
    number: int  # 1 for the first batch created
    input_file_id: str
    metadata: dict[str, Any]
    lines: list[dict[str, Any]]
    created_at: int
    status: str = "validating"
    polls: int = 0
    output_file_id: str | None = None
    error_file_id: str | None = None
    completed: int = 0
    failed: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    answered: bool = False
    end: str = "completed"  # how it will end (`fate`)


class BatchServer:
    """The fake batch API (see the module)."""

    def __init__(self, handler: Handler, *, fate: Callable[[int], str] | None = None,
                 expire_after: int = 0, create_delay_s: float = 0.0) -> None:
        self.handler = handler
        self.refuse_uploads = 0  # the next N uploads are refused (HTTP 400)
        self.refuse_creates = 0  # the next N creates are refused (HTTP 400)
        self.create_delay_s = create_delay_s  # the first create answers this late
        self.fate = fate or (lambda number: "completed")
        self.expire_after = expire_after
        self.hold = threading.Event()  # set: batches stay in_progress
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, FakeBatch] = {}
        self.direct: list[dict[str, Any]] = []  # direct chat requests
        self.line_requests: list[dict[str, Any]] = []  # batch lines answered, in order
        self.creates = 0  # POST /v1/batches received
        self.polls = 0
        self._n = itertools.count()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------
    def start(self) -> BatchServer:
        httpd = _QuietServer(("127.0.0.1", 0), _request_handler(self))
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> BatchServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def count(self) -> int:
        """Polls so far (`tests.support.processes.run_until` kills a client at a count)."""
        return self.polls

    def created(self) -> list[FakeBatch]:
        """The batches created, in order."""
        with self._lock:
            return sorted(self.batches.values(), key=lambda b: b.number)

    # -- the API ----------------------------------------------------------------------
    def _new_id(self, prefix: str) -> str:
        return f"{prefix}-{next(self._ids)}"

    def upload(self, data: bytes, purpose: str, filename: str) -> tuple[int, Any]:
        if purpose != "batch":
            return 400, error_body(f"purpose must be batch, not {purpose!r}")
        if self.refuse_uploads:
            self.refuse_uploads -= 1
            return 400, error_body("scripted: upload refused")
        with self._lock:
            file_id = self._new_id("file")
            self.files[file_id] = data
        return 200, {"id": file_id, "object": "file", "bytes": len(data), "purpose": purpose,
                     "filename": filename, "created_at": int(time.time()),
                     "status": "processed"}

    def create(self, body: dict[str, Any]) -> tuple[int, Any]:
        self.creates += 1
        if self.refuse_creates:
            self.refuse_creates -= 1
            return 400, error_body("scripted: create refused")
        if body.get("endpoint") != "/v1/chat/completions" or \
                body.get("completion_window") != "24h":
            return 400, error_body("endpoint must be /v1/chat/completions, window 24h")
        data = self.files.get(str(body.get("input_file_id")))
        if data is None:
            return 404, error_body("no such file")
        lines = [json.loads(line) for line in data.splitlines() if line.strip()]
        with self._lock:
            batch = FakeBatch(id=self._new_id("batch"), number=len(self.batches) + 1,
                              input_file_id=str(body["input_file_id"]),
                              metadata=dict(body.get("metadata") or {}), lines=lines,
                              created_at=int(time.time()), end=self.fate(len(self.batches) + 1))
            self.batches[batch.id] = batch
        if self.create_delay_s and batch.number == 1:
            time.sleep(self.create_delay_s)  # made, but answered after the client gave up
        return 200, self._json(batch)

    def poll(self, batch_id: str) -> tuple[int, Any]:
        with self._lock:
            batch = self.batches.get(batch_id)
            self.polls += 1
        if batch is None:
            return 404, error_body("no such batch")
        if batch.status in STEPS and not (batch.status == "in_progress" and self.hold.is_set()):
            index = STEPS.index(batch.status)
            batch.status = STEPS[index + 1] if index + 1 < len(STEPS) else self._end(batch)
        if batch.status == "cancelling":
            batch.status = "cancelled"
        if batch.status not in ("validating", "in_progress") and not batch.answered:
            self._answer(batch)
        return 200, self._json(batch)

    def cancel(self, batch_id: str) -> tuple[int, Any]:
        batch = self.batches.get(batch_id)
        if batch is None:
            return 404, error_body("no such batch")
        if batch.status in ("validating", "in_progress", "finalizing"):
            batch.status = "cancelling"
        return 200, self._json(batch)

    def _end(self, batch: FakeBatch) -> str:
        fate = batch.end
        if fate == "failed":
            batch.errors = [{"code": "invalid_request", "line": 1,
                             "message": "scripted validation failure"}]
        return fate

    def _answer(self, batch: FakeBatch) -> None:
        """Answer the batch's lines once, as its end says, into output and error files."""
        batch.answered = True
        end = "cancelled" if batch.status in ("cancelling", "cancelled") else batch.end
        if end == "failed":
            return
        out, err = [], []
        limit = {"expired": self.expire_after, "cancelled": 0}.get(end, len(batch.lines))
        for i, line in enumerate(batch.lines):
            custom_id = line["custom_id"]
            if i >= limit:
                err.append({"id": f"req-{i}", "custom_id": custom_id, "response": None,
                            "error": {"code": f"batch_{end}", "message": f"the batch {end}"}})
                continue
            with self._lock:
                self.line_requests.append(line["body"])
            reply = self._reply(line["body"])
            response = {"status_code": reply.status, "request_id": f"r-{i}",
                        "body": reply.body}
            row = {"id": f"req-{i}", "custom_id": custom_id, "response": response,
                   "error": None}
            (out if reply.status == 200 else err).append(row)
        batch.completed, batch.failed = len(out), len(err)
        for rows, attr in ((out, "output_file_id"), (err, "error_file_id")):
            if rows:
                file_id = self._new_id("file")
                self.files[file_id] = "".join(json.dumps(r) + "\n" for r in rows).encode()
                setattr(batch, attr, file_id)

    def _reply(self, request: dict[str, Any]) -> ScriptedReply:
        try:
            return self.handler(request, next(self._n))
        except Exception as exc:  # a broken script shows as a 500 line
            return ScriptedReply.error(500, f"scripted handler failed: {exc}")

    def chat(self, request: dict[str, Any]) -> ScriptedReply:
        with self._lock:
            self.direct.append(request)
        return self._reply(request)

    def listing(self) -> tuple[int, Any]:
        data = [self._json(b) for b in reversed(self.created())]
        return 200, {"object": "list", "data": data, "has_more": False,
                     "first_id": data[0]["id"] if data else None,
                     "last_id": data[-1]["id"] if data else None}

    def _json(self, batch: FakeBatch) -> dict[str, Any]:
        total = len(batch.lines)
        done = batch.completed if batch.answered else (total // 2 if batch.status ==
                                                       "in_progress" else 0)
        return {"id": batch.id, "object": "batch", "endpoint": "/v1/chat/completions",
                "input_file_id": batch.input_file_id, "completion_window": "24h",
                "status": batch.status, "created_at": batch.created_at,
                "output_file_id": batch.output_file_id, "error_file_id": batch.error_file_id,
                "errors": {"object": "list", "data": batch.errors} if batch.errors else None,
                "request_counts": {"total": total, "completed": done,
                                   "failed": batch.failed if batch.answered else 0},
                "metadata": batch.metadata}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client killed mid-request is expected here


def _multipart(content_type: str, body: bytes) -> dict[str, tuple[str, bytes]]:
    """The parts of a multipart/form-data body: name -> (filename, bytes)."""
    msg = BytesParser(policy=email_policy).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    parts = {}
    for part in msg.iter_parts():
        name = part.get_param("name", header="content-disposition")
        filename = part.get_filename() or ""
        parts[str(name)] = (filename, part.get_payload(decode=True) or b"")
    return parts


def _request_handler(server: BatchServer) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _body(self) -> bytes:
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                chunks = []
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return b"".join(chunks)
                    chunks.append(self.rfile.read(size))
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(min(length, MAX_BODY_BYTES)) if length else b""

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0].rstrip("/")
            parts = path.split("/")
            if path.endswith("/content") and "/files/" in path:
                data = server.files.get(parts[-2])
                if data is None:
                    self._json(404, error_body("no such file"))
                else:
                    self._send(200, data, "application/octet-stream")
            elif path.endswith("/batches"):
                self._json(*server.listing())
            elif "/batches/" in path:
                self._json(*server.poll(parts[-1]))
            else:
                self._json(404, error_body(f"no route {self.path}"))

        def do_POST(self) -> None:
            raw = self._body()
            path = self.path.split("?", 1)[0].rstrip("/")
            if path.endswith("/files"):
                form = _multipart(self.headers.get("Content-Type", ""), raw)
                filename, data = form.get("file", ("", b""))
                purpose = form.get("purpose", ("", b""))[1].decode()
                self._json(*server.upload(data, purpose, filename))
                return
            try:
                payload = json.loads(raw or b"{}")
            except ValueError:
                self._json(400, error_body("body is not JSON"))
                return
            if path.endswith("/cancel"):
                self._json(*server.cancel(path.split("/")[-2]))
            elif path.endswith("/batches"):
                self._json(*server.create(payload))
            elif path.endswith("/chat/completions"):
                reply = server.chat(payload)
                self._json(reply.status, reply.body)
            else:
                self._json(404, error_body(f"no route {self.path}"))

        def _json(self, status: int, body: Any) -> None:
            self._send(status, json.dumps(body if body is not None else {}).encode(),
                       "application/json")

        def _send(self, status: int, data: bytes, content_type: str) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                self.close_connection = True

    return _Handler
