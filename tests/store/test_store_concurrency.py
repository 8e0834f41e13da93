"""Two writers at once, and leases across machines, on both backends.

Writers are separate processes (each its own connection): SQLite serialises them with
its write lock, PostgreSQL with the store's advisory write lock; nothing is lost either
way. On PostgreSQL a lease is held by its holder's session: a live holder on any host
refuses a resume, a killed one's lease is taken over from another host."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ragassay.store import Store
from ragassay.store.lease import RunBusy
from ragassay.types import MetricResult, RunConfig, SampleResult

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

WRITER = textwrap.dedent("""
    import sys
    from ragassay.store import Store
    from ragassay.types import MetricResult, SampleResult
    location, run_id, prefix, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with Store(location) as store:
        for i in range(n):
            store.save_result(run_id, SampleResult(sample_id=f"{prefix}{i}", suite="judge",
                results=(MetricResult(name="judge.x", value=i / n),)))
            store.cache_put(f"key{i % 7}", {"by": prefix, "i": i})
""")



def test_two_writers_at_once_lose_nothing(store: Store, store_location: str | Path) -> None:
    run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                              dataset_hash=None, judge_model="m")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(store_location), run_id,
                                 prefix, "150"], env=env, stderr=subprocess.PIPE, text=True)
               for prefix in ("a", "b")]
    for w in writers:
        _, err = w.communicate(timeout=150)
        assert w.returncode == 0, err
    done = store.done_keys(run_id)
    assert done == {(f"{p}{i}", "judge") for p in "ab" for i in range(150)}
    assert store.count_results(run_id) == 300
    assert len(store.metric_values(run_id, "judge.x")) == 300
    assert all(store.cache_get(f"key{k}") is not None for k in range(7))


HOLDER = textwrap.dedent("""
    import sys, time
    from ragassay.store import Store
    from ragassay.types import RunConfig
    store = Store(sys.argv[1])
    run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                              dataset_hash=None, judge_model="m")
    print(run_id, flush=True)
    time.sleep(120)
""")


def test_on_postgresql_a_lease_is_its_holders_session_on_any_host(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, pg_url], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        run_id = holder.stdout.readline().strip()
        monkeypatch.setattr("socket.gethostname", lambda: "another-machine")
        with Store(pg_url) as store:
            with pytest.raises(RunBusy, match=f"PID {holder.pid} on "):
                store.finish_run(run_id, "running")  # alive elsewhere: never taken over
            holder.send_signal(signal.SIGKILL)
            holder.wait(timeout=30)
            deadline = time.monotonic() + 30
            while True:  # the server drops the dead session's lock once it sees it closed
                try:
                    store.finish_run(run_id, "running")
                    break
                except RunBusy:
                    assert time.monotonic() < deadline, "the dead holder's lease stayed"
                    time.sleep(0.2)
            held = store.lease_holder(run_id)
            assert held is not None and held.host == "another-machine"
            with Store(pg_url) as other:  # now this process's session holds it
                monkeypatch.setattr("socket.gethostname", lambda: "a-third-machine")
                with pytest.raises(RunBusy, match="on another-machine"):
                    other.finish_run(run_id, "running")
            monkeypatch.setattr("socket.gethostname", lambda: "another-machine")
            store.finish_run(run_id, "complete")
            assert store.lease_holder(run_id) is None
    finally:
        if holder.poll() is None:
            holder.kill()


def test_on_sqlite_another_hosts_lease_is_never_taken_over(db_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    with Store(db_path) as store:
        run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                                  dataset_hash=None, judge_model="m")
        monkeypatch.setattr("socket.gethostname", lambda: "another-machine")
        with pytest.raises(RunBusy, match="on "):
            store.finish_run(run_id, "running")


def test_results_read_back_alike(store: Store) -> None:
    """A value of each JSON type, through SQL aggregates, reads back as written."""
    run_id = store.create_run(RunConfig(dataset="d.jsonl"), package_version="t",
                              dataset_hash=None, judge_model="m")
    store.save_result(run_id, SampleResult(sample_id="s", suite="judge", results=(
        MetricResult(name="judge.b", value=True), MetricResult(name="judge.f", value=0.25),
        MetricResult(name="judge.n", value=None, unscored_reason="empty answer"))))
    assert store.metrics_present(run_id) == {"judge.b": True, "judge.f": False,
                                             "judge.n": False}
    assert store.metric_means(run_id) == {"judge.b": 1.0, "judge.f": 0.25, "judge.n": None}
