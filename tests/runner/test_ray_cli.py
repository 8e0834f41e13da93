"""`ragassay eval --engine ray` from the command line: its own local Ray, joining a
cluster, SIGKILL of the driver then --resume, and the setup mistakes.

The kill tests run the CLI as a subprocess against a fault-free scripted server with
some latency, and SIGKILL it mid-run: one joins this module's Ray instance with
`--ray-address` (as a driver would join a cluster) and is then resumed to completion;
the other starts its own local instance, which its guard process must stop and remove.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig
from tests.support.faults import FaultServer, fenced
from tests.support.processes import Finished, run_until, sigint_setup
from tests.support.ray_cluster import judge_workers, local_ray, processes_using

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

N = 120
CONCURRENCY = 4
WORKERS = 2


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    yield from local_ray()


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "ragassay", *args]


def _results(db: Path, run_id: str) -> dict[tuple[str, str], Any]:
    with Store(db, readonly=True) as store:
        return {(r.sample_id, r.suite): r.results for r in store.iter_results(run_id)}


def test_engine_ray_starts_and_stops_its_own_local_instance(tmp_path: Path) -> None:
    data, db = demo_dataset_path(), tmp_path / "r.db"
    short = tempfile.mkdtemp(prefix="rt", dir="/tmp")  # Ray's socket paths must be short
    env = {**os.environ, "TMPDIR": short}
    env.pop("RAY_ADDRESS", None)
    try:
        done = subprocess.run(_cli("eval", str(data), "--engine", "ray", "--workers", "2",
                                   "--db", str(db), "-q"),
                              env=env, capture_output=True, text=True, timeout=200)
        assert done.returncode == 0, done.stderr
        assert os.listdir(short) == []  # the session folder went with the instance
    finally:
        subprocess.run(["rm", "-rf", short], check=False)
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None and run.status == "complete" and run.meta.engine == "ray"
    local = Store(tmp_path / "local.db")
    expected = evaluate(iter_samples(data), run.config, store=local)
    assert _results(db, run.id) == {(r.sample_id, r.suite): r.results
                                    for r in local.iter_results(expected.run_id)}


def test_an_unreachable_cluster_is_one_line(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    assert not ray.is_initialized()  # runs before this module's fixture starts Ray
    result = CliRunner().invoke(cli, ["eval", str(demo_dataset_path()), "--engine", "ray",
                                      "--ray-address", "127.0.0.1:9", "--db",
                                      str(tmp_path / "r.db"), "-q"])
    assert result.exit_code == 2
    assert result.output == "error: cannot reach Ray at 127.0.0.1:9: Connection refused\n"


def _write_data(path: Path) -> None:
    path.write_text("".join(json.dumps({
        "id": f"k{i:03d}", "question": f"Kill test question {i}?",
        "contexts": [f"Fact {i}: the value is {i * 7}."],
        "answer": f"The value is {i * 7}.", "reference": f"{i * 7}"}) + "\n"
        for i in range(N)), encoding="utf-8")


def _run(cmd: list[str], server: FaultServer, kill_at: int | None) -> Finished:
    return run_until(cmd, server, kill_at, {**os.environ, "OPENAI_API_KEY": "sk-test"},
                     deadline_s=150)


def test_sigkill_of_the_driver_then_resume_requests_no_finished_judgment(
        ray_address: str, tmp_path: Path) -> None:
    data, db = tmp_path / "kill.jsonl", tmp_path / "runs.db"
    _write_data(data)
    id_of = {s.question: s.id for s in iter_samples(data)}  # type: ignore[union-attr]
    ray = ("--engine", "ray", "--ray-address", ray_address, "--workers", str(WORKERS))
    with FaultServer(latency_s=0.05, max_seconds=200) as server:
        first = _run(_cli("eval", str(data), "--judge", "openai:x", "--base-url",
                          server.base_url, "--metrics", "judge", "--no-cache",
                          "--concurrency", str(CONCURRENCY), "--db", str(db), "-q", *ray),
                     server, kill_at=60)
        assert first.killed and first.returncode == -signal.SIGKILL
        with Store(db, readonly=True) as store:
            run = store.latest_run()
            assert run is not None and run.status == "running"  # killed: no cleanup ran
            done = {sample for sample, _ in store.done_keys(run.id)}
        killed_at = server.count
        assert done, "no batch was saved before the kill"
        resumed = _run(_cli("eval", str(data), "--resume", run.id, "--db", str(db), "-q",
                            *ray), server, kill_at=None)
        assert resumed.returncode == 0
        asked_after = Counter(id_of[fenced(r, "QUESTION") or "?"]
                              for r in server.requests[killed_at:])
        config = RunConfig(dataset=str(data), judge="openai:x", base_url=server.base_url,
                           metrics=("judge",), concurrency=CONCURRENCY, use_cache=False)
        straight = Store(tmp_path / "straight.db")
        expected = evaluate(iter_samples(data), config, store=straight)
    assert not done & set(asked_after), "finished judgments were requested again"
    assert set(asked_after) == set(id_of.values()) - done and max(asked_after.values()) == 1
    # asked twice: what was in flight at the kill, and replies not yet saved (each
    # judgment is saved as it comes back; it was up to 4 batches of 16 when saved by batch)
    assert killed_at - len(done) <= 2 * CONCURRENCY
    with Store(db, readonly=True) as store:
        assert store.get_run(run.id).status == "complete"
        assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert _results(db, run.id) == {(r.sample_id, r.suite): r.results
                                    for r in straight.iter_results(expected.run_id)}


def _wait_for(condition: Any, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return bool(condition())


def test_sigkill_of_a_driver_with_its_own_instance_keeps_replies_and_stops_its_workers(
        tmp_path: Path) -> None:
    """Issue 33 item 4: judgments came back to the driver 16 at a time (a killed driver
    lost up to 4 x 16 paid replies), its workers called the judge for ~2 s after the
    kill, and the world-writable /tmp/ragassay-ray-* folder stayed. Now every reply the
    server had sent half a second before the kill is in the store, no request arrives
    after it (beyond any on the wire), and nothing of the instance is left."""
    data, db = tmp_path / "own.jsonl", tmp_path / "runs.db"
    _write_data(data)
    short = Path(tempfile.mkdtemp(prefix="rk", dir="/tmp"))  # Ray's socket paths: short
    env = {**os.environ, "TMPDIR": str(short), "OPENAI_API_KEY": "sk-test"}
    env.pop("RAY_ADDRESS", None)
    try:
        with FaultServer(latency_s=0.5, max_seconds=200) as server:
            proc = subprocess.Popen(
                _cli("eval", str(data), "--judge", "openai:x", "--base-url", server.base_url,
                     "--metrics", "judge", "--no-cache", "--concurrency", "8", "--db",
                     str(db), "-q", "--engine", "ray", "--workers", str(WORKERS)),
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                assert _wait_for(lambda: server.replied >= 36 or proc.poll() is not None, 150)
                replied = server.replied
                folders = list(short.glob("ragassay-ray-*"))
                assert len(folders) == 1
                assert folders[0].stat().st_mode & 0o077 == 0  # Ray's 0777 folder is inside
                time.sleep(0.5)
            finally:
                proc.kill()
                proc.wait()
            sent = server.count
            assert _wait_for(lambda: not list(short.iterdir()), 30), list(short.iterdir())
            # the guard stops the instance; on a loaded machine its processes take a while
            assert _wait_for(lambda: not processes_using(short), 60), [
                (pid, Path(f"/proc/{pid}/cmdline").read_bytes()[:300])
                for pid in processes_using(short)]
            time.sleep(1.0)
            after = server.count - sent
        with Store(db, readonly=True) as store:
            run = store.latest_run()
            assert run is not None and run.status == "running"
            saved = len(store.done_keys(run.id))
        assert 36 <= replied < N
        assert saved >= replied, (saved, replied)
        assert after <= 8, f"{after} judge requests after the driver was killed"
    finally:
        subprocess.run(["rm", "-rf", str(short)], check=False)


def test_ray_flags_without_the_ray_engine_are_a_mistake(tmp_path: Path) -> None:
    data = demo_dataset_path()
    for flags, said in ((["--ray-address", "auto"], "--ray-address needs --engine ray"),
                        (["--ray-address", "auto", "--workers", "2"],
                         "--ray-address needs --engine ray"),
                        (["--ray-writes", "workers"], "--ray-writes needs --engine ray")):
        result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(tmp_path / "r.db"),
                                          *flags])
        assert result.exit_code == 2 and result.output == f"error: {said}\n"


def test_workers_writing_to_a_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """Ray workers on other machines cannot reach the driver's SQLite file: refused
    before Ray starts, in one line, nothing stored."""
    db = tmp_path / "r.db"
    result = CliRunner().invoke(cli, ["eval", str(demo_dataset_path()), "--engine", "ray",
                                      "--ray-writes", "workers", "--db", str(db), "-q"])
    assert result.exit_code == 2, result.output
    assert result.output == (
        "error: --ray-writes workers needs a PostgreSQL store (--db postgresql://...): Ray "
        f"workers on other machines cannot write to the SQLite file {db}; leave it at "
        "driver\n")
    assert Store(db).list_runs() == []


def test_engine_ray_without_ray_installed_says_how_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    result = CliRunner().invoke(cli, ["eval", str(demo_dataset_path()), "--engine", "ray",
                                      "--db", str(tmp_path / "r.db"), "-q"])
    assert result.exit_code == 2
    assert result.output == ("error: the Ray engine (--engine ray) needs the ray extra: "
                             "pip install 'ragassay[ray]'\n")


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_sigterm_interrupts_a_ray_run_and_its_workers_go(ray_address: str, tmp_path: Path,
                                                        sigint: str) -> None:
    """Also with SIGINT ignored (a background `make test &`): the SIGTERM then arrives
    as a KeyboardInterrupt inside Ray's compiled wait, which the driver unwraps."""
    data, db = tmp_path / "term.jsonl", tmp_path / "runs.db"
    _write_data(data)
    with FaultServer(latency_s=0.2, max_seconds=200) as server:
        proc = subprocess.Popen(
            _cli("eval", str(data), "--judge", "openai:x", "--base-url", server.base_url,
                 "--metrics", "judge", "--db", str(db), "-q", "--engine", "ray",
                 "--ray-address", ray_address, "--workers", str(WORKERS)),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "OPENAI_API_KEY": "sk-test"},
            preexec_fn=sigint_setup(sigint))
        deadline = time.monotonic() + 120
        while server.count < 10 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err[:6000]
    with Store(db, readonly=True) as store:
        run = store.latest_run()
        assert run is not None and run.status == "interrupted"
    assert err.strip().splitlines()[-1] == ("terminated: finished judgments are saved; "
                                            f"continue with --resume {run.id}")
    with Store(db, readonly=True) as store:
        assert store.lease_holder(run.id) is None
    for _ in range(100):  # the run's workers were stopped with it
        if not judge_workers():
            break
        time.sleep(0.1)
    assert judge_workers() == []
