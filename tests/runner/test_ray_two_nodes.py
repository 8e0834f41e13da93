"""`--engine ray` on a cluster of two Ray nodes (two raylets on this machine, loopback)
with a PostgreSQL store: the workers save their judgments themselves (`writes="workers"`)
or the driver does (the default); either way the results equal the local engine's, and a
resume after an interrupted run judges nothing that was saved.

Each node has one CPU and each worker takes one, so a run's two workers are on two
nodes: one of them is not the driver's. Skipped, with the reason, without Ray or
PostgreSQL (CI has both).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragassay.dataset import iter_samples
from ragassay.runner import RayOptions, RunStats, evaluate
from ragassay.runner.judging import RunInputs
from ragassay.runner.ray_engine import RunStopped, run_on_ray
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig, Usage
from tests.support.faults import FaultServer, fenced

pytest.importorskip("ray", reason="Ray is not installed (pip install 'ragassay[ray]')")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

FAST = BackendOptions(timeout_s=5.0, max_retries=2, backoff_base_s=0.01, backoff_max_s=0.05)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    from tests.support.ray_cluster import two_nodes

    yield from two_nodes()


def _rows(n: int) -> list[dict[str, Any]]:
    words = ["quota", "region", "backup", "invoice", "token", "retry", "window", "tier"]
    out = []
    for i in range(n):
        w = [words[(i * 3 + k) % len(words)] for k in range(6)]
        out.append({"id": f"r{i:03d}", "question": f"What is the {w[0]} of case {i}?",
                    "contexts": [f"The {w[0]} of case {i} is {i * 7}. It {w[1]} {w[2]}.",
                                 f"Unrelated: the {w[3]} uses {w[4]} and {w[5]}."],
                    "answer": f"The {w[0]} of case {i} is {i * 7 if i % 5 else i * 9}.",
                    "reference": f"{i * 7}"})
    return out


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _results(store: Store, run_id: str) -> dict[tuple[str, str], Any]:
    return {(r.sample_id, r.suite): r.results for r in store.iter_results(run_id)}


def _nodes() -> list[float]:
    import ray

    return sorted(n["Resources"].get("CPU", 0.0) for n in ray.nodes() if n["Alive"])


@pytest.mark.parametrize("writes", ["workers", "driver"])
def test_two_nodes_with_postgres_equal_the_local_engine(cluster: str, pg_url: str,
                                                        tmp_path: Path, writes: str) -> None:
    data = _write(tmp_path / "d.jsonl", _rows(40))
    config = RunConfig(dataset=str(data), metrics=("judge", "trace", "ragas"))
    store = Store(pg_url)
    a = evaluate(iter_samples(data), config, store=store)  # the local engine, same store
    seen: list[list[float]] = []
    connections: set[int] = set()

    class Nodes:  # what the cluster and the store's server saw while the run was on
        def start(self, total: int | None) -> None:
            seen.append(_nodes())

        def advance(self, samples: int, usage: Usage) -> None:
            connections.add(store.conn.execute(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
            ).fetchone()[0])

        def finish(self) -> None:
            pass

    b = evaluate(iter_samples(data), config, store=store, progress=Nodes(),
                 ray=RayOptions(address=cluster, workers=2, batch_size=5,
                                writes=writes))  # type: ignore[arg-type]
    assert seen == [[1.0, 1.0]]  # two nodes of one CPU: one worker on each
    if writes == "workers":  # each worker saved its tasks over a connection of its own
        assert b.worker_saved == 40 * 3 and connections == {3}
    else:  # the driver's connection alone
        assert b.worker_saved == 0 and connections == {1}
    got = _results(store, b.run_id)
    assert got == _results(store, a.run_id) and len(got) == 40 * 3
    assert list(store.iter_samples(b.run_id)) == list(store.iter_samples(a.run_id))
    assert (b.samples, b.invalid, b.skipped) == (a.samples, a.invalid, a.skipped) == (40, 0, 0)
    assert b.per_suite == a.per_suite
    run = store.get_run(b.run_id)
    assert run.status == "complete" and run.meta.engine == "ray"
    assert run.meta.ray_workers == 2 and len(run.meta.ray_peak_rss_mib) == 2  # both judged


def test_a_resume_on_two_nodes_judges_nothing_saved_by_the_workers(
        cluster: str, pg_url: str, tmp_path: Path) -> None:
    """Stopped after ~20 of 60 samples, then resumed: no judgment saved before the
    resume is asked again, each of the rest once; the results equal the local engine's."""
    data = _write(tmp_path / "d.jsonl", _rows(60))
    store = Store(pg_url)
    options = RayOptions(address=cluster, workers=2, batch_size=2, writes="workers")
    with FaultServer(latency_s=0.02) as server:
        config = RunConfig(dataset=str(data), judge="openai:scripted",
                           base_url=server.base_url, metrics=("judge",), backend=FAST,
                           concurrency=4, use_cache=False)
        local = evaluate(iter_samples(data), config, store=store)
        n0 = server.count
        stop = threading.Event()

        class StopAt20:
            done = 0

            def start(self, total: int | None) -> None:
                pass

            def advance(self, samples: int, usage: Usage) -> None:
                self.done += samples
                if self.done >= 20:
                    stop.set()

            def finish(self) -> None:
                pass

        with pytest.raises(RunStopped):
            run_on_ray(iter_samples(data), config,
                       RunInputs(store, progress=StopAt20(), stop=stop), options)
        (first,) = [r for r in store.list_runs() if r.id != local.run_id]
        assert first.status == "interrupted"
        n1 = _settled(server)
        saved = {k for k, _ in store.done_keys(first.id)}
        assert 20 <= len(saved) < 60
        resumed: RunStats = run_on_ray(iter_samples(data), config,
                                       RunInputs(store, resume=first.id), options)
        asked = Counter(_sample(r) for r in server.requests[n1:])
        assert len({_sample(r) for r in server.requests[:n0]}) == 60  # one call a sample
    assert n1 > n0 and resumed.run_id == first.id
    assert set(asked.values()) == {1}  # each judgment left asked once ...
    assert not set(asked) & saved  # ... none of those saved before
    assert len(asked) == 60 - resumed.skipped == resumed.worker_saved
    assert resumed.skipped >= len(saved)
    assert _results(store, first.id) == _results(store, local.run_id)
    assert store.get_run(first.id).status == "complete"


def _settled(server: FaultServer) -> int:
    """The server's request count once no request has come for a second (a stopped
    worker's last call may still be on its way)."""
    while True:
        count = server.count
        time.sleep(1.0)
        if server.count == count:
            return count


def _sample(request: dict[str, Any]) -> str:
    """The id of the sample a judge request is about (its question names the case)."""
    found = re.search(r"case (\d+)\?", fenced(request, "QUESTION") or "")
    assert found is not None, "a request without a question"
    return f"r{int(found.group(1)):03d}"


def test_trace_hops_scored_by_a_ray_worker_equal_the_local_engine(cluster: str, pg_url: str,
                                                                  tmp_path: Path) -> None:
    """Trace samples' hops are scored by a Ray worker (not the driver), as the local
    engine scores them: the stored samples (hop scores, lost documents) and results are
    equal."""
    from click.testing import CliRunner

    from ragassay.cli import cli
    from tests.support.traces import openinference_trace, write_otlp

    data = write_otlp(tmp_path / "t.jsonl", [
        openinference_trace(trace=f"{i + 1:032x}", question=f"When was the Eiffel Tower "
                            f"completed? Case {i}.") for i in range(12)])
    for engine in (["--workers", "1"], ["--engine", "ray", "--ray-address", cluster,
                                        "--workers", "2", "--ray-writes", "workers"]):
        result = CliRunner().invoke(cli, ["eval", str(data), "--db", pg_url, "-q",
                                          "--metrics", "trace,judge", *engine])
        assert result.exit_code == 0, result.output
    store = Store(pg_url)
    ray_run, local = store.list_runs()  # newest first
    assert ray_run.meta.engine == "ray" and local.meta.engine == "local"
    samples = list(store.iter_samples(ray_run.id))
    assert samples == list(store.iter_samples(local.id)) and len(samples) == 12
    assert all(s.metadata["trace"]["judged"] for s in samples)  # type: ignore[union-attr]
    assert _results(store, ray_run.id) == _results(store, local.id)


def test_workers_write_the_cache_to_postgres_and_read_it_there(cluster: str, pg_url: str,
                                                               tmp_path: Path) -> None:
    """Workers that write save their new judge-call cache entries in the store and read
    hits there, from either node: a rerun of the same data asks the judge nothing."""
    data = _write(tmp_path / "d.jsonl", _rows(20))
    store = Store(pg_url)
    options = RayOptions(address=cluster, workers=2, batch_size=2, writes="workers")
    with FaultServer() as server:
        config = RunConfig(dataset=str(data), judge="openai:scripted",
                           base_url=server.base_url, metrics=("judge",), backend=FAST,
                           concurrency=4)
        a = evaluate(iter_samples(data), config, store=store, ray=options)
        assert server.count == 20 and a.worker_saved == 20
        assert store.conn.execute("SELECT COUNT(*) FROM cache").fetchone()[0] == 20
        b = evaluate(iter_samples(data), config, store=store, ray=options)
        assert server.count == 20  # every call answered by the cache in PostgreSQL
    assert b.usage.cache_hits == 20 and b.usage.calls == 0
    assert _results(store, b.run_id) == _results(store, a.run_id)
