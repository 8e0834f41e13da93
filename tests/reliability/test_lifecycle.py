"""Run lifecycle under concurrent resumes and SIGTERM (issue 17, items 11-13).

- A run is leased to the process evaluating it: a second `--resume` while the first
  runs says who holds it and exits 2, paying for nothing; a lease left by a process
  that is gone (SIGKILL) is taken over.
- SIGTERM of `eval` stops it like Ctrl-C: the run is `interrupted`, finished judgments
  are kept, exit 143, one line; `--resume` finishes it.
- SIGTERM of `ragassay ui` stops its Streamlit server too: the port is free afterwards;
  so does SIGKILL, which the launcher cannot see (issue 33 item 10).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store, StoreError
from ragassay.store.lease import RunBusy, this_process
from ragassay.types import RunConfig
from tests.support.faults import FaultServer
from tests.support.processes import sigint_setup

pytestmark = pytest.mark.timeout(180)
N = 16


def _write_data(path: Path, n: int = N) -> None:
    path.write_text("\n".join(json.dumps({
        "id": f"L{i:02d}", "question": f"Lifecycle question {i}?",
        "contexts": [f"Fact {i}."], "answer": f"Answer {i}.", "reference": f"{i}"})
        for i in range(n)) + "\n", encoding="utf-8")


def _interrupted_run(db: Path, data: Path, base_url: str, concurrency: int = 1) -> str:
    """A run created and interrupted before any judgment (its lease released)."""
    config = RunConfig(dataset=str(data), judge="openai:x", base_url=base_url,
                       metrics=("judge",), concurrency=concurrency, use_cache=False)
    with Store(db) as store:
        run_id = store.create_run(config, package_version="t", dataset_hash=None,
                                  judge_model="x")
        store.finish_run(run_id, "interrupted")
        assert store.lease_holder(run_id) is None
    return run_id


def _resume_cmd(data: Path, run_id: str, db: Path) -> list[str]:
    return [sys.executable, "-m", "ragassay", "eval", str(data), "--resume", run_id,
            "--db", str(db), "-q"]


def _wait_for(condition, seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _resuming(tmp_path: Path, server: FaultServer) -> tuple[Path, Path, str, subprocess.Popen]:
    """A run of N samples against `server`, being resumed by a subprocess that has sent
    its first two requests: (data, db, run id, the process)."""
    data, db = tmp_path / "d.jsonl", tmp_path / "runs.db"
    _write_data(data)
    run_id = _interrupted_run(db, data, server.base_url)
    proc = subprocess.Popen(_resume_cmd(data, run_id, db), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    _wait_for(lambda: server.count >= 2)
    return data, db, run_id, proc


def _gate(server: FaultServer, first: int) -> threading.Event:
    """From request number `first` on, the server answers only once the event is set."""
    release = threading.Event()
    answer = server._server.handler

    def gated(request: dict, n: int) -> object:
        if n >= first:
            release.wait(60)
        return answer(request, n)

    server._server.handler = gated  # type: ignore[assignment]
    return release


def _assert_complete(db: Path, run_id: str) -> None:
    with Store(db, readonly=True) as store:
        assert store.get_run(run_id).status == "complete"
        assert store.count_results(run_id) == N
        assert store.lease_holder(run_id) is None


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# -- the lease, in the store -----------------------------------------------------------


def _lease(store: Store, run_id: str, pid: int, host: str, proc_start: str | None) -> None:
    store.conn.execute("UPDATE leases SET pid = ?, host = ?, proc_start = ? WHERE run_id = ?",
                       (pid, host, proc_start, run_id))


def test_a_live_holder_is_named_and_a_stale_one_is_taken_over(tmp_path: Path) -> None:
    me = this_process()
    with Store(tmp_path / "r.db") as store:
        run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                                  dataset_hash=None, judge_model="m")
        assert store.lease_holder(run_id) == me
        parent = os.getppid()  # alive, on this host, not us
        with open(f"/proc/{parent}/stat", "rb") as fh:
            start = fh.read().decode().rsplit(")", 1)[-1].split()[19]
        _lease(store, run_id, parent, me.host, start)
        with pytest.raises(RunBusy, match=rf"run {run_id} is being evaluated by PID {parent} "
                                          rf"on {me.host} \(since .+ UTC\)"):
            store.finish_run(run_id, "running")
        _lease(store, run_id, 4242, "another-host", None)  # cannot be checked from here
        with pytest.raises(RunBusy, match="PID 4242 on another-host"):
            store.finish_run(run_id, "running")
        for pid, proc_start in ((_dead_pid(), None), (parent, "1")):  # gone, PID reused
            _lease(store, run_id, pid, me.host, proc_start)
            store.finish_run(run_id, "running")
            assert store.lease_holder(run_id) == me
        store.finish_run(run_id, "complete")
        assert store.lease_holder(run_id) is None
        assert isinstance(RunBusy("x"), StoreError)  # the CLI prints it as one line


# -- two resumes at once -------------------------------------------------------------


def test_a_second_resume_says_who_holds_the_run_and_pays_for_nothing(tmp_path: Path) -> None:
    with FaultServer(latency_s=0.05, max_seconds=120) as server:
        release = _gate(server, 2)  # the first resume's third request waits for this
        data, db, run_id, first = _resuming(tmp_path, server)
        try:
            second = CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--db",
                                              str(db), "-q"])
            asked_while_refused = server.count
            release.set()
            out, err = first.communicate(timeout=90)
        finally:
            release.set()
            if first.poll() is None:
                first.kill()
        assert first.returncode == 0, err
        assert second.exit_code == 2, (second.output, asked_while_refused, server.count, err)
        assert second.output.startswith(f"error: run {run_id} is being evaluated by PID "
                                        f"{first.pid} on {socket.gethostname()} (since ")
        assert second.output.count("\n") == 1 and "Traceback" not in second.output
        assert server.count == N  # every judgment paid for once
        assert asked_while_refused <= 3  # the first's, nothing from the second
    _assert_complete(db, run_id)


def test_a_lease_left_by_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    with FaultServer(latency_s=0.1, max_seconds=120) as server:
        data, db, run_id, victim = _resuming(tmp_path, server)
        victim.send_signal(signal.SIGKILL)
        victim.communicate(timeout=30)
        with Store(db, readonly=True) as store:
            held = store.lease_holder(run_id)
        assert held is not None and held.pid == victim.pid  # no cleanup ran
        result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--db",
                                          str(db), "-q"])
        assert result.exit_code == 0, result.output
    _assert_complete(db, run_id)


# -- SIGTERM ---------------------------------------------------------------------------


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_sigterm_of_eval_marks_the_run_interrupted_and_resume_finishes(tmp_path: Path,
                                                                      sigint: str) -> None:
    """Also when SIGINT is ignored, as in a background job of a non-interactive shell
    (`make test &`): SIGTERM must not depend on a SIGINT handler being there."""
    data, db = tmp_path / "d.jsonl", tmp_path / "runs.db"
    _write_data(data)
    with FaultServer(latency_s=0.15, max_seconds=120) as server:
        cmd = [sys.executable, "-m", "ragassay", "eval", str(data), "--judge", "openai:x",
               "--base-url", server.base_url, "--metrics", "judge", "--concurrency", "2",
               "--no-cache", "--db", str(db), "-q"]
        release = _gate(server, 4)  # 4 judgments answered, then 2 held in flight
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=sigint_setup(sigint))
        _wait_for(lambda: server.count >= 6)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
        release.set()
        assert proc.returncode == 143, err
        assert out == ""
        with Store(db, readonly=True) as store:
            run = store.latest_run()
            assert run is not None and run.status == "interrupted"
        # the line names the run to resume
        assert err == f"terminated: finished judgments are saved; continue with --resume {run.id}\n"
        with Store(db, readonly=True) as store:
            assert store.lease_holder(run.id) is None
            done = store.count_results(run.id)
        assert done == 4  # the answered ones are kept; the two in flight are not
        result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run.id, "--db",
                                          str(db), "-q"])
        assert result.exit_code == 0, result.output
    _assert_complete(db, run.id)


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
            return r.read() == b"ok"
    except OSError:
        return False


@contextlib.contextmanager
def _ui(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, list[int]]]:
    """`ragassay ui` serving an empty store: (launcher, port, its server's PIDs)."""
    pytest.importorskip("streamlit")
    db, port = tmp_path / "r.db", _free_port()
    Store(db).close()
    proc = subprocess.Popen([sys.executable, "-m", "ragassay", "ui", "--db", str(db), "--port",
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, cwd=tmp_path,
                            env={**os.environ, "HOME": str(tmp_path)})
    children: list[int] = []
    try:
        def healthy() -> bool:
            assert proc.poll() is None, "ragassay ui exited"
            return _serving(port)

        _wait_for(healthy, 90)
        children += _children(proc.pid)
        assert children, "the Streamlit server runs as a child process"
        yield proc, port, children
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        for child in children:  # left serving by a failed test: stopped here
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (ProcessLookupError, FileNotFoundError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"  # a zombie serves nothing


@pytest.mark.slow
def test_sigterm_of_ui_stops_its_streamlit_server(tmp_path: Path) -> None:
    with _ui(tmp_path) as (proc, port, children):
        os.kill(proc.pid, signal.SIGTERM)  # the launcher only, as a service manager would
        assert proc.wait(timeout=30) == 0
        for child in children:
            with pytest.raises(ProcessLookupError):
                os.kill(child, 0)
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing serves the port


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux parent-death signal")
def test_sigkill_of_ui_leaves_no_streamlit_serving(tmp_path: Path) -> None:
    """Issue 33 item 10: SIGKILL of the launcher (no handler runs) left Streamlit
    serving the store; the kernel now kills the server with it."""
    with _ui(tmp_path) as (proc, port, children):
        os.kill(proc.pid, signal.SIGKILL)  # the launcher only
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while not all(_gone(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(c) for c in children), "the Streamlit server outlived ragassay ui"
        assert not _serving(port)
