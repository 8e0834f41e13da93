"""A judge reply that is a gzip bomb (2 MB on the wire, 512 MB inflated) costs the
client at most the reply cap: a 200 is cut at 4 MB, an error reply's body at 64 kB (the
SDK used to read it to the end, once per retry: gigabytes and minutes); `eval` writes
its report and exits, and honours SIGINT (issue #33, item 6).

`eval` runs as a subprocess, so that its peak memory is its own (VmHWM) and a hang is
a killed process, not a stuck test."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragassay.store import Store
from tests.support.cli import llm_eval_args, settings_data
from tests.support.faults import judge_scores
from tests.support.processes import sigint_setup
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.timeout(400)
INFLATED_MB = 512
LIMIT_S = 240  # a hang bound, far above the seconds the run takes: not a timing check


@pytest.fixture(scope="module")
def bomb() -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip framing
    zeros = b"\0" * (1 << 20)
    return b"".join([packer.compress(zeros) for _ in range(INFLATED_MB)] + [packer.flush()])


def _bombing(bomb: bytes, status_for: dict[str, int]) -> Any:
    def handler(request: dict[str, Any], n: int) -> ScriptedReply:
        text = json.dumps(request)
        for phrase, status in status_for.items():
            if phrase in text:
                return ScriptedReply(status=status, body=bomb, headers={
                    "Content-Type": "application/json", "Content-Encoding": "gzip"})
        return ScriptedReply.chat(json.dumps(judge_scores(request)))
    return handler


def _eval(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ragassay", *args],
                            env={**os.environ, "OPENAI_API_KEY": "sk-test"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_setup("default"))  # Ctrl-C reaches it


def _high_water_mb(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), in MB; 0 when unreadable. Read
    from /proc while it runs: its rusage after exit would count the pages of the pytest
    process it was forked from, before it exec'd."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((ln for ln in status.splitlines() if ln.startswith("VmHWM:")), "")
    return int(line.split()[1]) // 1024 if line else 0


def _wait(proc: subprocess.Popen[str]) -> tuple[int, int, str]:
    """(exit code, peak RSS in MB as last seen, stderr); killed past LIMIT_S."""
    deadline, peak = time.monotonic() + LIMIT_S, 0
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return proc.returncode, peak, proc.stderr.read() if proc.stderr else ""
        peak = max(peak, _high_water_mb(proc.pid))
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    raise AssertionError(f"eval still running after {LIMIT_S} s (killed)")


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:  # stopped by PID, whatever the test did
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_gzip_bomb_costs_at_most_the_reply_cap(bomb: bytes, tmp_path: Path,
                                                 procs: list[Any]) -> None:
    data, db, out = settings_data(tmp_path / "d.jsonl", 4), tmp_path / "g.db", tmp_path / "r.json"
    handler = _bombing(bomb, {"setting 1 do": 200, "setting 2 do": 500})
    with ScriptedServer(handler) as server:
        procs.append(_eval(llm_eval_args(data, server.base_url, db, "-q", "--out", str(out))))
        code, peak_mb, stderr = _wait(procs[-1])
        asked = server.count
    assert code == 0, stderr[-2000:]
    assert peak_mb < INFLATED_MB, peak_mb  # not one inflated body held in memory
    assert out.exists() and json.loads(out.read_text())["evaluation_metadata"]["complete"]
    with Store(db, readonly=True) as store:
        values = {r.sample_id: r.results[0] for r in store.iter_results(store.list_runs()[0].id)}
    assert "reply body over 4 MB" in (values["s1"].unscored_reason or "")
    assert (values["s2"].unscored_reason or "").startswith("judge call failed: HTTP 500 after")
    assert "\x00" not in (values["s2"].unscored_reason or "")  # a binary body: no excerpt
    assert values["s0"].value is not None and values["s3"].value is not None
    assert asked == 3 + 5  # the 500 is retried (4 retries), the oversized 200 is not


def test_sigint_stops_a_run_of_bombs(bomb: bytes, tmp_path: Path, procs: list[Any]) -> None:
    data, db = settings_data(tmp_path / "d.jsonl", 30), tmp_path / "i.db"
    handler = _bombing(bomb, {"What does setting": 503})
    with ScriptedServer(handler) as server:
        procs.append(_eval(llm_eval_args(data, server.base_url, db, "-q", "--concurrency",
                                         "2")))
        deadline = time.monotonic() + LIMIT_S
        while server.count < 3 and time.monotonic() < deadline and procs[-1].poll() is None:
            time.sleep(0.05)
        procs[-1].send_signal(signal.SIGINT)
        code, _, stderr = _wait(procs[-1])
    assert code == 130, stderr[-2000:]
    assert "interrupted: finished judgments are saved" in stderr
    with Store(db, readonly=True) as store:
        assert store.list_runs()[0].status == "interrupted"
