"""A logging HTTP proxy for OpenAI-compatible servers: server-side call and token counts.

It forwards every request to the upstream server and records, per chat completion,
the token counts from the response's `usage` block (what the server says it
processed, not what a client estimates), the HTTP status, the latency, the phase set
by the benchmark (`proxy.phase = "ragas/faithfulness"`) and the prompt the request
belongs to: the `response_format.json_schema.name` that ragassay sends (its prompt
name, e.g. `ragas_claims`), else a marker found in the messages, else "-".

`/v1/embeddings` can be answered locally (`embed=callable`) so that both tools under
test use the same local embedder, with no embedding traffic to the LLM server; chat
completions too (`respond=callable`, benches/valid_replies.py), for a stand-in judge.

Plain HTTP/1.1 with Content-Length bodies and keep-alive; no streaming (neither tool
under test streams). Binds 127.0.0.1 only.

    with LoggingProxy("http://127.0.0.1:8080") as proxy:
        proxy.phase = "ragassay"
        ... client(base_url=proxy.base_url + "/v1") ...
        table = summarise(proxy.records)

    .venv/bin/python benches/proxy.py --upstream http://127.0.0.1:8080 --port 8081 \
        --log calls.jsonl      # standalone: one JSON line per call
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import httpx

MAX_BODY = 16 * 1024 * 1024
EmbedFn = Callable[[list[str]], Any]  # rows of floats (a list of lists or an array)
# Answers a chat request locally: (content, prompt_tokens, completion_tokens); raising
# means HTTP 500 with the exception's message.
RespondFn = Callable[[dict[str, Any]], tuple[str, int, int]]
# Substrings of a system/user message that identify a prompt when no schema name is sent.
MARKERS: dict[str, str] = {}


@dataclass
class Record:
    """One proxied request, as the server answered it."""

    phase: str
    prompt: str
    path: str
    status: int
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    error: str = ""

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def prompt_tag(body: Any, markers: dict[str, str] | None = None) -> str:
    """Which prompt a chat request is: its JSON-schema name, a known marker, or "-"."""
    if not isinstance(body, dict):
        return "-"
    fmt = body.get("response_format")
    if isinstance(fmt, dict):
        schema = fmt.get("json_schema")
        if isinstance(schema, dict) and isinstance(schema.get("name"), str):
            return schema["name"]
    messages = body.get("messages")
    if isinstance(messages, list):
        for message in messages:
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, str):
                continue
            for marker, tag in (markers if markers is not None else MARKERS).items():
                if marker in content:
                    return tag
    return "-"


def usage_of(body: Any) -> tuple[int | None, int | None]:
    """(prompt_tokens, completion_tokens) from a response body; None where absent."""
    usage = body.get("usage") if isinstance(body, dict) else None
    if not isinstance(usage, dict):
        return None, None
    pt, ct = usage.get("prompt_tokens"), usage.get("completion_tokens")
    return (pt if isinstance(pt, int) else None, ct if isinstance(ct, int) else None)


@dataclass
class Tally:
    """Totals for one group of records."""

    calls: int = 0
    failed: int = 0  # non-2xx answers and connection errors
    prompt_tokens: int = 0
    completion_tokens: int = 0
    no_usage: int = 0  # 2xx answers without a usage block
    seconds: float = 0.0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(getattr(self, f) + getattr(other, f) for f in
                       ("calls", "failed", "prompt_tokens", "completion_tokens", "no_usage",
                        "seconds")))


def summarise(records: Iterable[Record], key: Callable[[Record], str] = lambda r: r.phase,
              chat_only: bool = True) -> dict[str, Tally]:
    """Tallies per key (default: phase); embeddings are left out unless `chat_only=False`."""
    out: dict[str, Tally] = {}
    for r in records:
        if chat_only and not r.path.endswith("/chat/completions"):
            continue
        t = out.setdefault(key(r), Tally())
        t.calls += 1
        t.seconds += r.latency_s
        if not r.ok:
            t.failed += 1
        if r.prompt_tokens is None and r.completion_tokens is None:
            t.no_usage += int(r.ok)
        t.prompt_tokens += r.prompt_tokens or 0
        t.completion_tokens += r.completion_tokens or 0
    return out


class LoggingProxy:
    """Forwards to `upstream` from 127.0.0.1:`port` (0 = a free port) in a daemon thread."""

    def __init__(self, upstream: str, *, port: int = 0, embed: EmbedFn | None = None,
                 log: Path | None = None, timeout_s: float = 900.0,
                 markers: dict[str, str] | None = None, respond: RespondFn | None = None
                 ) -> None:
        self.upstream = upstream.rstrip("/")
        self.embed = embed
        self.respond = respond
        self.phase = "-"
        self.records: list[Record] = []
        self.markers = markers
        self._port = port
        self._log = log.open("a", encoding="utf-8") if log else None
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._client: httpx.AsyncClient | None = None

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> LoggingProxy:
        self._thread = threading.Thread(target=self._serve, daemon=True, name="bench-proxy")
        self._thread.start()
        if not self._ready.wait(10) or self._server is None:
            raise RuntimeError("proxy did not start")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is not None and self._server is not None:
            loop.call_soon_threadsafe(self._server.close)
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._log:
            self._log.close()
            self._log = None

    def __enter__(self) -> LoggingProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT (append /v1 for an OpenAI client)."""
        return f"http://127.0.0.1:{self.port}"

    def snapshot(self) -> list[Record]:
        with self._lock:
            return list(self.records)

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()

    async def _main(self) -> None:
        limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
        async with httpx.AsyncClient(timeout=self._timeout_s, limits=limits) as client:
            self._client = client
            self._server = await asyncio.start_server(self._handle, "127.0.0.1", self._port)
            self._ready.set()
            with contextlib.suppress(asyncio.CancelledError):
                await self._server.serve_forever()
            current = asyncio.current_task()
            rest = [t for t in asyncio.all_tasks() if t is not current]
            for task in rest:  # keep-alive connections still open
                task.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

    # -- one connection -----------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader)
                if request is None:
                    break
                method, path, headers, body = request
                status, ctype, data = await self._dispatch(method, path, headers, body)
                keep = headers.get("connection", "").lower() != "close"
                writer.write(_response(status, ctype, data, keep))
                await writer.drain()
                if not keep:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()

    async def _dispatch(self, method: str, path: str, headers: dict[str, str],
                        body: bytes) -> tuple[int, str, bytes]:
        started = time.perf_counter()
        payload: Any = None
        if body:
            try:
                payload = json.loads(body)
            except ValueError:
                payload = None
        route = path.split("?", 1)[0].rstrip("/")
        if self.embed is not None and method == "POST" and route.endswith("/embeddings"):
            status, ctype, data = await self._embeddings(payload)
        elif self.respond is not None and method == "POST" and \
                route.endswith("/chat/completions"):
            status, ctype, data = self._local_chat(payload)
        else:
            status, ctype, data = await self._forward(method, path, headers, body)
        if method == "POST" and route.endswith(("/chat/completions", "/embeddings")):
            reply: Any = None
            try:
                reply = json.loads(data)
            except ValueError:
                reply = None
            pt, ct = usage_of(reply)
            error = "" if 200 <= status < 300 else data[:200].decode("utf-8", "replace")
            self._record(Record(self.phase, prompt_tag(payload, self.markers), route, status,
                                pt, ct, time.perf_counter() - started, error))
        return status, ctype, data

    async def _forward(self, method: str, path: str, headers: dict[str, str],
                       body: bytes) -> tuple[int, str, bytes]:
        assert self._client is not None
        keep = {k: v for k, v in headers.items()
                if k in ("content-type", "authorization", "accept")}
        try:
            resp = await self._client.request(method, self.upstream + path, content=body,
                                              headers=keep)
        except httpx.HTTPError as exc:
            msg = json.dumps({"error": {"message": f"proxy: upstream {type(exc).__name__}"}})
            return 502, "application/json", msg.encode()
        return (resp.status_code, resp.headers.get("content-type", "application/json"),
                resp.content)

    def _local_chat(self, payload: Any) -> tuple[int, str, bytes]:
        assert self.respond is not None
        try:
            content, pt, ct = self.respond(payload if isinstance(payload, dict) else {})
        except Exception as exc:  # the stand-in server's refusal, as an HTTP error
            msg = json.dumps({"error": {"message": f"{type(exc).__name__}: {exc}"}})
            return 500, "application/json", msg.encode()
        body = {"id": "chatcmpl-local", "object": "chat.completion", "created": 0,
                "model": str(payload.get("model", "local")) if isinstance(payload, dict)
                else "local",
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": pt, "completion_tokens": ct,
                          "total_tokens": pt + ct}}
        return 200, "application/json", json.dumps(body).encode()

    async def _embeddings(self, payload: Any) -> tuple[int, str, bytes]:
        assert self.embed is not None
        inputs = payload.get("input", []) if isinstance(payload, dict) else []
        texts = [inputs] if isinstance(inputs, str) else [str(t) for t in inputs]
        vectors = await asyncio.to_thread(self.embed, texts)
        tokens = sum(len(t) // 4 for t in texts)
        body = {"object": "list", "model": payload.get("model", "local"),
                "data": [{"object": "embedding", "index": i,
                          "embedding": [float(x) for x in v]} for i, v in enumerate(vectors)],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}
        return 200, "application/json", json.dumps(body).encode()

    def _record(self, record: Record) -> None:
        with self._lock:
            self.records.append(record)
            if self._log:
                self._log.write(json.dumps(asdict(record)) + "\n")
                self._log.flush()


async def _read_request(reader: asyncio.StreamReader
                        ) -> tuple[str, str, dict[str, str], bytes] | None:
    line = await reader.readline()
    if not line:
        return None
    parts = line.decode("latin-1").split()
    if len(parts) != 3:
        raise ValueError("bad request line")
    method, path, _ = parts
    headers: dict[str, str] = {}
    while True:
        h = await reader.readline()
        if h in (b"\r\n", b"\n", b""):
            break
        name, _, value = h.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        raise ValueError("chunked request bodies are not supported")
    length = int(headers.get("content-length") or 0)
    if length > MAX_BODY:
        raise ValueError("request too large")
    body = await reader.readexactly(length) if length else b""
    return method, path, headers, body


def _response(status: int, ctype: str, data: bytes, keep: bool) -> bytes:
    head = (f"HTTP/1.1 {status} {'OK' if status < 400 else 'Error'}\r\n"
            f"Content-Type: {ctype}\r\nContent-Length: {len(data)}\r\n"
            f"Connection: {'keep-alive' if keep else 'close'}\r\n\r\n")
    return head.encode("latin-1") + data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Logging proxy for an OpenAI-compatible server.")
    ap.add_argument("--upstream", required=True, help="e.g. http://127.0.0.1:8080")
    ap.add_argument("--port", type=int, default=8081)
    ap.add_argument("--log", type=Path, required=True, help="JSONL file, one line per call")
    args = ap.parse_args(argv)
    with LoggingProxy(args.upstream, port=args.port, log=args.log) as proxy:
        print(f"proxying {proxy.base_url} -> {args.upstream}; Ctrl-C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
