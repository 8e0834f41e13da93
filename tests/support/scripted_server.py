"""A scripted OpenAI-compatible HTTP server for tests.

`ScriptedServer(handler)` serves `POST /v1/chat/completions` on 127.0.0.1 (a free
port) from a daemon thread; `handler(request_json, n)` decides each answer, where
`n` is the 0-based index of that chat request. It also serves deterministic
`POST /v1/embeddings` and `GET /v1/models`. Requests are counted and recorded
(thread-safe); logging is silent; `stop()` returns promptly even while a reply is
being delayed.

    with ScriptedServer(lambda req, n: ScriptedReply.chat('{"score": 1}')) as server:
        ... AsyncOpenAI(base_url=server.base_url, ...) ...
        assert server.count == 1
"""

from __future__ import annotations

import hashlib
import json
import select
import socket
import struct
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = [
    "Handler",
    "ScriptedReply",
    "ScriptedServer",
    "chat_completion",
    "error_body",
    "scripted_server",
    "sequence",
]

MAX_BODY_BYTES = 8 * 1024 * 1024


@dataclass
class ScriptedReply:
    """One scripted answer.

    `body` is JSON-encoded unless it is bytes; `reset=True` sends the headers and
    half the body, then aborts the connection (RST) mid-body; `hold=True` answers
    nothing and keeps the request open until the client hangs up (its timeout) or the
    server stops: a reply no client timeout can race, unlike a `delay_s` past it.
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    reset: bool = False
    hold: bool = False

    @classmethod
    def chat(
        cls,
        content: str | None,
        finish_reason: str | None = "stop",
        usage: tuple[int, int] | None = (11, 7),
        model: str = "scripted-model",
        *,
        logprobs: list[dict[str, Any]] | None = None,
        cached_tokens: int | None = None,
        **kwargs: Any,
    ) -> ScriptedReply:
        """A 200 reply carrying a normal chat completion (`logprobs`: the choice's
        `logprobs.content`; `cached_tokens`: usage.prompt_tokens_details)."""
        body = chat_completion(content, finish_reason, usage, model)
        if logprobs is not None:
            body["choices"][0]["logprobs"] = {"content": logprobs}
        if cached_tokens is not None and "usage" in body:
            body["usage"]["prompt_tokens_details"] = {"cached_tokens": cached_tokens}
        return cls(body=body, **kwargs)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", **kwargs: Any) -> ScriptedReply:
        """An error reply with an OpenAI-style error body."""
        return cls(status=status, body=error_body(message), **kwargs)


Handler = Callable[[dict[str, Any], int], ScriptedReply]


def chat_completion(
    content: str | None,
    finish_reason: str | None = "stop",
    usage: tuple[int, int] | None = (11, 7),
    model: str = "scripted-model",
) -> dict[str, Any]:
    """A chat completion body; `usage=None` leaves the usage block out."""
    body: dict[str, Any] = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
    }
    if usage is not None:
        body["usage"] = {
            "prompt_tokens": usage[0],
            "completion_tokens": usage[1],
            "total_tokens": usage[0] + usage[1],
        }
    return body


def error_body(message: str, type_: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": None, "code": None}}


def sequence(*replies: ScriptedReply) -> Handler:
    """A handler answering `replies` in order, repeating the last one."""
    if not replies:
        raise ValueError("sequence() needs at least one reply")

    def handler(_request: dict[str, Any], n: int) -> ScriptedReply:
        return replies[min(n, len(replies) - 1)]

    return handler


def embedding(text: str, dim: int = 8) -> list[float]:
    """A deterministic unit vector derived from the text's hash."""
    raw = hashlib.sha256(text.encode("utf-8")).digest()
    while len(raw) < 4 * dim:
        raw += hashlib.sha256(raw).digest()
    values = [struct.unpack_from(">I", raw, 4 * i)[0] / 2**32 - 0.5 for i in range(dim)]
    norm = sum(v * v for v in values) ** 0.5 or 1.0
    return [v / norm for v in values]


class ScriptedServer:
    """A threaded local HTTP server whose chat answers come from `handler`."""

    def __init__(self, handler: Handler, *, embedding_dim: int = 8) -> None:
        self.handler = handler
        self.embedding_dim = embedding_dim
        self.requests: list[dict[str, Any]] = []  # chat request bodies, in arrival order
        self.request_headers: list[dict[str, str]] = []
        self.request_paths: list[str] = []  # path and query string of each chat request
        self.errors: list[str] = []  # handler exceptions (answered with HTTP 500)
        self.replied = 0  # chat replies written in full to their client
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> ScriptedServer:
        if self._httpd is not None:
            return self
        request_handler = _make_request_handler(self)
        httpd = _QuietServer(("127.0.0.1", 0), request_handler)
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes handlers sleeping on a delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- introspection ----------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("server not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def count(self) -> int:
        """Number of chat completion requests received so far."""
        with self._lock:
            return len(self.requests)

    def _record(self, body: dict[str, Any], headers: dict[str, str], path: str = "") -> int:
        with self._lock:
            self.requests.append(body)
            self.request_headers.append(headers)
            self.request_paths.append(path)
            return len(self.requests) - 1


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up (timeouts, resets) are expected in these tests


def _make_request_handler(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10  # idle keep-alive connections do not pin threads for long

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                body = {"object": "list", "data": [{"id": "scripted-model", "object": "model"}]}
                self._send(ScriptedReply(body=body))
            else:
                self._send(ScriptedReply.error(404, f"no route {self.path}"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self._send(ScriptedReply.error(413, "request too large"))
                return
            raw = self.rfile.read(length) if length else b""
            if len(raw) < length:  # the client hung up mid-body (a killed worker): no request
                self.close_connection = True
                return
            try:
                payload = json.loads(raw or b"{}")
            except ValueError:
                self._send(ScriptedReply.error(400, "body is not JSON"))
                return
            path = self.path.split("?", 1)[0].rstrip("/")
            if path.endswith("/embeddings"):
                self._send(self._embeddings(payload))
                return
            if not path.endswith("/chat/completions"):
                self._send(ScriptedReply.error(404, f"no route {self.path}"))
                return
            n = server._record(payload, {k.lower(): v for k, v in self.headers.items()},
                               self.path)
            try:
                reply = server.handler(payload, n)
            except Exception as exc:  # a broken script must show, not hang
                server.errors.append(f"{type(exc).__name__}: {exc}")
                reply = ScriptedReply.error(500, f"scripted handler failed: {exc}")
            if reply.hold:
                self._hold()
                return
            if reply.delay_s > 0 and server._stopping.wait(reply.delay_s):
                self.close_connection = True
                return
            if self._send(reply):
                with server._lock:
                    server.replied += 1

        def _hold(self) -> None:
            """Answer nothing until the client hangs up (the socket turns readable: EOF)
            or the server stops; then drop the connection."""
            self.close_connection = True
            while not server._stopping.is_set():
                try:
                    readable, _, _ = select.select([self.connection], [], [], 0.05)
                except (OSError, ValueError):
                    return
                if readable:
                    return

        def _embeddings(self, payload: dict[str, Any]) -> ScriptedReply:
            inputs = payload.get("input", [])
            texts: Sequence[Any] = [inputs] if isinstance(inputs, str) else inputs
            data = [
                {
                    "object": "embedding",
                    "index": i,
                    "embedding": embedding(str(t), server.embedding_dim),
                }
                for i, t in enumerate(texts)
            ]
            tokens = sum(len(str(t)) // 4 for t in texts)
            return ScriptedReply(
                body={
                    "object": "list",
                    "data": data,
                    "model": payload.get("model", "scripted-embedder"),
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                }
            )

        def _send(self, reply: ScriptedReply) -> bool:
            """Write the reply; whether it went out in full."""
            if isinstance(reply.body, bytes | bytearray):
                data = bytes(reply.body)
                content_type = "application/octet-stream"
            else:
                data = json.dumps(reply.body if reply.body is not None else {}).encode()
                content_type = "application/json"
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.headers.get("Content-Type", content_type))
                for key, value in reply.headers.items():
                    if key.lower() != "content-type":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                if reply.reset:
                    self.send_header("Connection", "close")
                self.end_headers()
                if reply.reset:
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self._abort()
                    return False
                self.wfile.write(data)
                self.wfile.flush()
            except OSError:
                self.close_connection = True  # the client hung up first
                return False
            return True

        def _abort(self) -> None:
            """Close with RST instead of FIN: the client sees a reset mid-body."""
            self.close_connection = True
            try:
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
            except OSError:
                pass

    return _Handler


@pytest.fixture
def scripted_server() -> Iterator[Callable[[Handler], ScriptedServer]]:
    """Fixture factory: `server = scripted_server(handler)`; all are stopped afterwards.

    Import it into a test module or a conftest: `from tests.support.scripted_server
    import scripted_server  # noqa: F401`.
    """
    started: list[ScriptedServer] = []

    def make(handler: Handler) -> ScriptedServer:
        srv = ScriptedServer(handler).start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()
