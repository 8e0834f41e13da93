"""A hostile OTLP receiver (issue 43, item 3).

On 4f8feb9 `--export-otlp URL` read the receiver's whole reply with a per-read timeout
only: a 1 GB body or a 1 MB gzip bomb took 2.3 GB, a reply trickling a byte every 5 s
never ended; `grpc://`, `HTTP://` and a bare `host:port/path` became local files named
like the URL. Now the reply goes through the judge client's guards (`llm.http_guard`:
at most 4 kB of a success read, 64 kB of an error), within one overall deadline (OTel's
`OTEL_EXPORTER_OTLP_TIMEOUT`, else 30 s); `HTTP://` is http, any other scheme and a
`host:port` without one are refused in one line.

`report --export-otlp` runs as a subprocess, so that its peak memory is its own (VmHWM,
read from /proc while it runs) and a hang is a killed process, not a stuck test.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.traces import openinference_trace, write_otlp

pytestmark = pytest.mark.timeout(300)
BODY_MB = 256  # what the huge reply offers; an unguarded client reads all of it
INFLATED_MB = 512
LIMIT_S = 120  # a hang bound, far above the seconds an export takes: not a timing check


class Hostile:
    """An OTLP/HTTP receiver that answers every POST with `mode`'s reply and counts the
    body bytes it managed to send before the client went away."""

    def __init__(self, mode: str, bomb: bytes = b"") -> None:
        self.sent = 0
        self.posts = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers["Content-Length"]))
                outer.posts += 1
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    outer.reply(self, mode, bomb)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def reply(self, handler: BaseHTTPRequestHandler, mode: str, bomb: bytes) -> None:
        if mode in ("bomb", "bomb500"):
            handler.send_response(200 if mode == "bomb" else 500)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Encoding", "gzip")
            handler.send_header("Content-Length", str(len(bomb)))
            handler.end_headers()
            handler.wfile.write(bomb)
            self.sent += len(bomb)
            return
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        size = BODY_MB << 20 if mode == "huge" else 10_000
        handler.send_header("Content-Length", str(size))
        handler.end_headers()
        block = b"x" * (1 << 16) if mode == "huge" else b"x"
        while self.sent < size:
            handler.wfile.write(block)
            handler.wfile.flush()
            self.sent += len(block)
            if mode == "trickle":
                time.sleep(0.2)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"

    def __enter__(self) -> Hostile:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("otlp-hostile")
    data = write_otlp(tmp / "t.jsonl", [openinference_trace()])
    made = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "trace", "--db",
                                    str(tmp / "t.db"), "-q"])
    assert made.exit_code == 0, made.output
    return tmp / "t.db"


@pytest.fixture(scope="module")
def bomb() -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip framing
    zeros = b"\0" * (1 << 20)
    return b"".join([packer.compress(zeros) for _ in range(INFLATED_MB)] + [packer.flush()])


def _high_water_mb(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((ln for ln in status.splitlines() if ln.startswith("VmHWM:")), "")
    return int(line.split()[1]) // 1024 if line else 0


def _export(db: Path, target: str, **env: str) -> tuple[int, int, str]:
    """`report --export-otlp TARGET` in a subprocess: (exit code, peak RSS MB, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "ragassay", "report", "--db", str(db),
                             "--export-otlp", target], env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline, peak = time.monotonic() + LIMIT_S, 0
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return proc.returncode, peak, proc.stderr.read() if proc.stderr else ""
            peak = max(peak, _high_water_mb(proc.pid))
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    raise AssertionError(f"the export still ran after {LIMIT_S} s (killed)")


def test_a_huge_reply_is_not_read(db: Path) -> None:
    with Hostile("huge") as server:
        code, _, err = _export(db, server.url)
        sent = server.sent
    assert code == 0, err
    assert "sent to http://127.0.0.1:" in err
    # the client stopped reading at a few kB; what the server wrote before it noticed
    # is the sockets' buffers, far below the body
    assert sent < (BODY_MB << 20) // 4, sent


@pytest.mark.parametrize("mode", ["bomb", "bomb500"])
def test_a_gzip_bomb_reply_costs_nothing(db: Path, bomb: bytes, mode: str) -> None:
    with Hostile("ok") as plain:
        code, baseline_mb, err = _export(db, plain.url)
    assert code == 0, err
    with Hostile(mode, bomb) as server:
        code, peak_mb, err = _export(db, server.url)
    assert peak_mb < baseline_mb + INFLATED_MB // 4, (peak_mb, baseline_mb)
    if mode == "bomb":
        assert code == 0, err
    else:
        assert code == 1
        assert "refused the export: HTTP 500 Internal Server Error" in err


def test_a_trickling_reply_ends_at_the_overall_deadline(db: Path) -> None:
    with Hostile("trickle") as server:
        code, _, err = _export(db, server.url, OTEL_EXPORTER_OTLP_TIMEOUT="1500")
        sent = server.sent
    assert code == 1, err
    assert err.count("\n") == 1, err
    assert "did not take the export within 1.5 s (the whole request, reply included)" in err
    assert sent < 10_000  # stopped long before the reply's end (a byte per 0.2 s)


@pytest.mark.parametrize(("target", "why"), [
    ("grpc://127.0.0.1:4317", "grpc:// is not supported: only OTLP/HTTP is"),
    ("otlp://collector/v1/traces", "otlp:// is not supported"),
    ("127.0.0.1:4318/v1/traces", "looks like HOST:PORT without a scheme: write "
                                 "http://127.0.0.1:4318/v1/traces"),
    ("localhost:4318", "looks like HOST:PORT without a scheme"),
])
def test_an_unknown_scheme_is_refused_not_written_as_a_file(db: Path, tmp_path: Path,
                                                           target: str, why: str) -> None:
    before = set(Path.cwd().iterdir())
    result = CliRunner().invoke(cli, ["report", "--db", str(db), "--export-otlp", target])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: --export-otlp {target}: {why}"), result.output
    assert result.output.count("\n") == 1
    assert set(Path.cwd().iterdir()) == before  # no file named like the URL


def test_an_upper_case_scheme_is_http(db: Path) -> None:
    with Hostile("ok") as server:
        url = server.url.replace("http://", "HTTP://")
        result = CliRunner().invoke(cli, ["report", "--db", str(db), "--export-otlp", url])
        posts = server.posts
    assert result.exit_code == 0, result.output
    assert posts == 1
    assert not Path("HTTP:").exists()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # a target taken for a file lands here, and is seen
    yield
