"""`--engine ray` in process: the same results as the local runner, faults, cache, endpoints.

One local Ray instance (2 CPUs, loopback, no dashboard) serves the whole module; each
test runs the Ray engine and the local engine on the same data and compares what the
store holds. The OpenAI-compatible server is `tests.support`'s scripted server in this
process, so request counts are checked where the requests arrive.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.judge import JudgeAborted
from ragassay.runner import RayOptions, evaluate
from ragassay.runner.ray_engine import split
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig, Sample, Usage
from tests.support.faults import FaultServer, judged_key, judged_message
from tests.support.ray_cluster import judge_workers, local_ray
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

FAST = BackendOptions(timeout_s=5.0, max_retries=2, backoff_base_s=0.01, backoff_max_s=0.05)


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    yield from local_ray()


def _rows(n: int, *, seed: int = 0) -> list[dict[str, Any]]:
    words = ["quota", "region", "backup", "invoice", "token", "retry", "window", "tier"]
    out = []
    for i in range(n):
        w = [words[(i * 3 + seed + k) % len(words)] for k in range(6)]
        out.append({"id": f"r{i:04d}", "question": f"What is the {w[0]} of case {i}?",
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


def _both(data: Path, config: RunConfig, tmp_path: Path, **ray: Any) -> tuple[Any, Any]:
    """(local store, stats), (ray store, stats) for the same data and config."""
    local = Store(tmp_path / "local.db")
    a = evaluate(iter_samples(data, skip_invalid=config.skip_invalid), config, store=local)
    remote = Store(tmp_path / "ray.db")
    b = evaluate(iter_samples(data, skip_invalid=config.skip_invalid), config,
                 store=remote, ray=RayOptions(**ray))
    return (local, a), (remote, b)


def test_the_engine_starts_ray_on_loopback_without_dashboard(ray_address: str) -> None:
    import ray

    assert ray_address.startswith("127.0.0.1:")
    assert ray.cluster_resources()["CPU"] == 2
    node = ray._private.worker._global_node  # the instance local_ray() started
    assert not node.address_info.get("webui_url")
    assert split(10, 3) == [4, 3, 3] and split(2, 2) == [1, 1]


def test_the_python_api_takes_the_ray_engine_as_an_option(ray_address: str,
                                                          tmp_path: Path) -> None:
    import ragassay

    rows = _rows(30)
    local = ragassay.evaluate(rows, "judge,ragas", store=tmp_path / "local.db")
    remote = ragassay.evaluate(rows, "judge,ragas", store=tmp_path / "ray.db", engine="ray",
                               ray_address=ray_address, workers=2)
    assert remote.to_pandas().equals(local.to_pandas())
    run = Store(tmp_path / "ray.db").get_run(remote.run_id)
    assert run.meta.engine == "ray" and run.meta.ray_workers == 2


def test_a_cancelled_aevaluate_stops_its_ray_run(ray_address: str, tmp_path: Path) -> None:
    """Cancelling the await stops the driver thread before it re-raises: the run is
    recorded interrupted and nothing goes on in the background."""
    import asyncio

    import ragassay

    async def main() -> None:
        job = asyncio.ensure_future(ragassay.aevaluate(
            _rows(3000), "judge", store=tmp_path / "r.db", engine="ray", workers=2))
        await asyncio.sleep(0.5)  # the workers take seconds to build
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job

    asyncio.run(main())
    (run,) = Store(tmp_path / "r.db").list_runs()
    assert run.status == "interrupted"
    assert len(list(Store(tmp_path / "r.db").iter_results(run.id))) < 3000


def test_a_second_ray_run_at_once_is_refused_and_a_stop_interrupts(ray_address: str,
                                                                    tmp_path: Path) -> None:
    from ragassay.runner.judging import RunInputs
    from ragassay.runner.ray_engine import _ONE_RUN, RayEngineError, RunStopped, run_on_ray

    config = RunConfig(dataset="x", metrics=("judge",))
    samples = [Sample(**r) for r in _rows(300)]
    with _ONE_RUN, pytest.raises(RayEngineError, match="another Ray run is in progress"):
        run_on_ray(samples, config, RunInputs(Store(tmp_path / "a.db")), RayOptions())
    stop = threading.Event()
    stop.set()
    store = Store(tmp_path / "b.db")
    with pytest.raises(RunStopped):
        run_on_ray(samples, config, RunInputs(store, stop=stop),
                   RayOptions(workers=2, batch_size=10))
    (run,) = store.list_runs()
    assert run.status == "interrupted"


def test_demo_offline_every_suite_equals_the_local_engine(ray_address: str,
                                                          tmp_path: Path) -> None:
    data = demo_dataset_path()
    config = RunConfig(dataset=str(data), metrics=("judge", "trace", "ragas"))
    (local, a), (remote, b) = _both(data, config, tmp_path, workers=2, batch_size=5)
    assert _results(remote, b.run_id) == _results(local, a.run_id)
    assert len(_results(remote, b.run_id)) == 24 * 3
    assert list(remote.iter_samples(b.run_id)) == list(local.iter_samples(a.run_id))
    assert (b.samples, b.invalid, b.skipped) == (a.samples, a.invalid, a.skipped) == (24, 0, 0)
    run = remote.get_run(b.run_id)
    assert run.status == "complete" and run.meta.engine == "ray"
    assert run.meta.ray_workers == 2 and run.meta.embedders == \
        local.get_run(a.run_id).meta.embedders
    assert len(run.meta.ray_peak_rss_mib) == 2  # 5 batches: both workers judged some
    assert [s.model_dump() for s in run.specs] == \
        [s.model_dump() for s in local.get_run(a.run_id).specs]


def test_500_samples_offline_with_invalid_rows_equal_the_local_engine(
        ray_address: str, tmp_path: Path) -> None:
    rows: list[Any] = _rows(500)
    rows[17] = {**rows[17], "contexts": 17}
    rows[230] = {"id": "r0230", "answer": "no question"}
    data = _write(tmp_path / "d.jsonl", rows)
    config = RunConfig(dataset=str(data), metrics=("judge", "trace"), skip_invalid=True)
    (local, a), (remote, b) = _both(data, config, tmp_path, workers=2)
    got, expected = _results(remote, b.run_id), _results(local, a.run_id)
    assert got == expected and len(got) == 498 * 2
    stored = list(remote.iter_samples(b.run_id))
    assert stored == list(local.iter_samples(a.run_id))  # the same InvalidRows, in order
    invalid = [s for s in stored if not isinstance(s, Sample)]
    assert [(s.source, s.reason) for s in invalid] == [  # type: ignore[union-attr]
        ("d.jsonl:18", "'contexts' must be a list of strings, got int"),
        ("d.jsonl:231", "'question' is required (accepted names: 'question', 'user_input')")]
    assert (b.samples, b.invalid) == (a.samples, a.invalid) == (498, 2)


def _llm_config(data: Path, url: str | tuple[str, ...], **kw: Any) -> RunConfig:
    urls = (url,) if isinstance(url, str) else url
    return RunConfig(dataset=str(data), judge="openai:scripted", base_url=urls[0],
                     base_urls=urls if len(urls) > 1 else (), metrics=("judge",),
                     backend=FAST, **kw)


def test_500_samples_against_the_scripted_server_equal_local_and_rerun_costs_nothing(
        ray_address: str, tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", _rows(500))
    with FaultServer() as server:
        config = _llm_config(data, server.base_url, concurrency=8)
        local = Store(tmp_path / "local.db")
        a = evaluate(iter_samples(data), config, store=local)
        assert server.count == 500
        remote = Store(tmp_path / "ray.db")
        b = evaluate(iter_samples(data), config, store=remote, ray=RayOptions(workers=2))
        assert server.count == 1000  # each judgment asked once by the workers
        asked = Counter(judged_key(r) for r in server.requests[500:])
        assert len(asked) == 500 and set(asked.values()) == {1}
        assert _results(remote, b.run_id) == _results(local, a.run_id)
        assert b.usage.calls == 500 and b.usage.input_tokens == 500 * 120
        # the driver wrote the workers' cache entries: a rerun costs no call at all
        assert remote.conn.execute("SELECT COUNT(*) FROM cache").fetchone()[0] == 500
        c = evaluate(iter_samples(data), config, store=remote, ray=RayOptions(workers=2))
        assert server.count == 1000
        assert c.usage == Usage(cache_hits=500)
        assert _results(remote, c.run_id) == _results(local, a.run_id)


class KillingServer(FaultServer):
    """Kills one Ray judge worker (SIGKILL, as a lost node) when request `at` arrives."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.at: int | None = None
        self.killed: list[int] = []
        self.lock = threading.Lock()

    def _handle(self, request: dict[str, Any], n: int) -> ScriptedReply:
        with self.lock:
            if n == self.at and not self.killed:
                workers = judge_workers()
                if workers:
                    os.kill(workers[0], signal.SIGKILL)
                    self.killed.append(workers[0])
        return super()._handle(request, n)


def test_a_request_cut_mid_body_is_no_request() -> None:
    """A worker killed after its request's headers and before its body leaves the server
    an empty read: the scripted server must not count that as a request (it used to
    record `{}`, a judgment of nothing, and the test below saw 301 of 300)."""
    with ScriptedServer(lambda req, n: ScriptedReply.chat("{}")) as server:
        url = urlsplit(server.base_url)
        with socket.create_connection((url.hostname, url.port), timeout=5) as conn:
            conn.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                         b'{"model": ')
            conn.shutdown(socket.SHUT_WR)
            assert conn.recv(1024) == b""  # closed, no reply
        assert server.count == 0


def test_a_killed_worker_loses_and_duplicates_nothing(ray_address: str,
                                                      tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", _rows(300, seed=3))
    with KillingServer(latency_s=0.01) as server:
        config = _llm_config(data, server.base_url, concurrency=8, use_cache=False)
        local = Store(tmp_path / "local.db")
        a = evaluate(iter_samples(data), config, store=local)
        n0 = server.count
        server.at = n0 + 120
        remote = Store(tmp_path / "ray.db")
        b = evaluate(iter_samples(data), config, store=remote, ray=RayOptions(workers=2))
        assert server.killed, "no worker was running at the 120th request"
        first = {judged_key(r) for r in server.requests[:n0]}
        asked = Counter(judged_key(r) for r in server.requests[n0:])
        odd = [judged_message(r)[:300] for r in server.requests if judged_key(r) not in first]
    assert (n0, len(first), len(asked)) == (300, 300, 300), (n0, len(first), len(asked),
                                                             len(odd), odd[:3])
    assert sum(asked.values()) > 300  # the killed worker's batch was judged again ...
    assert _results(remote, b.run_id) == _results(local, a.run_id)  # ... and saved once
    rows = remote.conn.execute("SELECT sample_id, COUNT(*) FROM calls GROUP BY sample_id"
                               ).fetchall()
    assert len(rows) == 300 and {r[1] for r in rows} == {1}  # one ledger entry each
    assert remote.get_run(b.run_id).status == "complete" and b.samples == 300


def test_two_endpoints_one_answering_500s_still_finish(ray_address: str,
                                                       tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", _rows(120, seed=5))
    with ScriptedServer(lambda req, n: ScriptedReply.error(500, "endpoint down")) as down, \
            FaultServer() as good:
        local = Store(tmp_path / "local.db")
        a = evaluate(iter_samples(data), _llm_config(data, good.base_url, concurrency=8),
                     store=local)
        urls = (down.base_url, good.base_url)
        config = _llm_config(data, urls, concurrency=8)
        remote = Store(tmp_path / "ray.db")
        b = evaluate(iter_samples(data), config, store=remote, ray=RayOptions(workers=2))
        assert good.count == 240  # every judgment answered by the good endpoint, once
    got = _results(remote, b.run_id)
    assert got == _results(local, a.run_id) and len(got) == 120
    assert all(m.value is not None for results in got.values() for m in results)
    notes = remote.get_run(b.run_id).meta.notes
    assert notes and all(urls[0] in n and "left out" in n for n in notes)
    # each worker left it out after its first calls (bounded by share x attempts)
    assert 0 < down.count <= 2 * 4 * 5
    assert remote.get_run(b.run_id).config.base_urls == urls


def test_refused_credentials_stop_the_ray_run_in_one_line(ray_address: str,
                                                          tmp_path: Path) -> None:
    data = _write(tmp_path / "d.jsonl", _rows(40))
    refused = ScriptedServer(lambda req, n: ScriptedReply.error(401, "invalid api key"))
    with refused:
        config = _llm_config(data, refused.base_url, concurrency=4)
        store = Store(tmp_path / "ray.db")
        with pytest.raises(JudgeAborted, match="refused"):
            evaluate(iter_samples(data), config, store=store, ray=RayOptions(workers=2))
    run = store.latest_run()
    assert run is not None and run.status == "failed"


def test_a_worker_reads_the_cache_from_the_file_here_or_through_the_reader_elsewhere(
        ray_address: str, tmp_path: Path) -> None:
    import asyncio

    import ray

    from ragassay.runner.ray_worker import CacheReader, JudgeWorker, WorkerSetup

    db = tmp_path / "r.db"
    Store(db).cache_put("k", {"data": {"x": 1}})
    reader = ray.remote(CacheReader).options(name="test-cache-reader", num_cpus=0).remote(
        str(db))
    config = RunConfig(dataset="d", judge="openai:m", base_url="http://127.0.0.1:9/v1")
    here = ray.get_runtime_context().get_node_id()
    near = JudgeWorker(WorkerSetup(config=config, store_path=str(db), driver_node=here,
                                   reader="test-cache-reader"))
    far = JudgeWorker(WorkerSetup(config=config, store_path=str(db), driver_node="elsewhere",
                                  reader="test-cache-reader"))
    assert near.failure is None and far.failure is None
    assert near.cache.local is not None and near.cache.reader is None  # reads the file
    assert far.cache.local is None and far.cache.reader is not None  # asks the reader
    for worker in (near, far):
        assert asyncio.run(worker.cache.cache_fetch("k")) == {"data": {"x": 1}}
        assert asyncio.run(worker.cache.cache_fetch("missing")) is None
        worker.cache.cache_put("new", {"v": 2})
        assert asyncio.run(worker.cache.cache_fetch("new")) == {"v": 2}
        assert worker.cache.drain() == [("new", '{"v": 2}')] and worker.cache.drain() == []
    assert ray.get(reader.available.remote()) is True
    ray.kill(reader)
    gone = ray.remote(CacheReader).options(num_cpus=0).remote(str(tmp_path / "none.db"))
    assert ray.get(gone.available.remote()) is False and ray.get(gone.get.remote("k")) is None
    ray.kill(gone)


def test_an_interrupt_inside_rays_compiled_code_stays_an_interrupt() -> None:
    """Ctrl-C during `ray.wait` surfaces as a SystemError caused by the KeyboardInterrupt
    (seen in a clean-clone run); the driver turns it back into the interrupt."""
    from ragassay.runner.ray_engine import _interruptible

    def ray_wait_interrupted() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("<cyfunction CoreWorker.wait> returned a result with an "
                              "exception set") from exc

    with pytest.raises(KeyboardInterrupt), _interruptible():
        ray_wait_interrupted()
    with pytest.raises(SystemError, match="other"), _interruptible():
        raise SystemError("other")
