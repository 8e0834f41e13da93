"""The local engine's worker processes (`--workers`): the offline judge on every core,
the same judgments as one worker, what the run records, resume, the CLI flag."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import iter_samples
from ragassay.runner import evaluate
from ragassay.runner.engine import LocalRun, pool_size
from ragassay.runner.judging import RunInputs
from ragassay.runner.processes import default_workers, usable_cpus
from ragassay.store import Store
from ragassay.types import RunConfig
from tests.support.traces import openinference_trace, write_otlp

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def _rows(n: int) -> list[dict[str, Any]]:
    words = ["quota", "region", "backup", "invoice", "token", "retry", "window", "tier"]
    out = []
    for i in range(n):
        w = [words[(i * 3 + k) % len(words)] for k in range(6)]
        out.append({"id": f"r{i:04d}", "question": f"What is the {w[0]} of case {i}?",
                    "contexts": [f"The {w[0]} of case {i} is {i * 7}. It {w[1]} {w[2]}.",
                                 f"Unrelated: the {w[3]} uses {w[4]} and {w[5]}."],
                    "answer": f"The {w[0]} of case {i} is {i * 7 if i % 5 else i * 9}.",
                    "reference": f"{i * 7}"})
    return out


@pytest.fixture
def data(tmp_path: Path) -> Path:
    rows: list[Any] = _rows(150)
    rows[40] = {"id": "r0040", "answer": "no question"}  # an invalid row, kept in order
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _results(store: Store, run_id: str) -> dict[tuple[str, str], Any]:
    return {(r.sample_id, r.suite): r.results for r in store.iter_results(run_id)}


def _run(data: Path, db: Path, workers: int, **kw: Any) -> tuple[Store, Any]:
    config = RunConfig(dataset=str(data), metrics=("judge", "trace", "ragas"),
                       skip_invalid=True)
    store = Store(db)
    stats = evaluate(iter_samples(data, skip_invalid=True), config, store=store,
                     workers=workers, **kw)
    return store, stats


def test_two_worker_processes_judge_exactly_as_one(data: Path, tmp_path: Path) -> None:
    one, a = _run(data, tmp_path / "one.db", workers=1)
    two, b = _run(data, tmp_path / "two.db", workers=2)
    got, expected = _results(two, b.run_id), _results(one, a.run_id)
    assert len(expected) == 149 * 3 and got == expected
    assert list(two.iter_samples(b.run_id)) == list(one.iter_samples(a.run_id))
    assert (b.samples, b.invalid, b.skipped) == (a.samples, a.invalid, a.skipped) == \
        (149, 1, 0)
    assert b.usage == a.usage and b.per_suite == a.per_suite
    run, single = two.get_run(b.run_id), one.get_run(a.run_id)
    assert run.status == "complete" and run.meta.engine == "local"
    assert run.meta.workers == 2 and single.meta.workers is None
    assert len(run.meta.worker_peak_rss_mib) == 2  # 5 batches: both processes judged some
    assert all(mib > 50 for mib in run.meta.worker_peak_rss_mib.values())
    assert run.meta.embedders == single.meta.embedders
    assert run.meta.reliability == single.meta.reliability


def test_a_resumed_run_judges_only_what_is_left_in_the_workers(data: Path,
                                                               tmp_path: Path) -> None:
    full, a = _run(data, tmp_path / "full.db", workers=1)
    store = Store(tmp_path / "part.db")
    config = RunConfig(dataset=str(data), metrics=("judge", "trace", "ragas"),
                       skip_invalid=True)
    first = list(iter_samples(data, skip_invalid=True))[:60]
    part = evaluate(first, config, store=store, workers=2)
    store.finish_run(part.run_id, "interrupted")
    rest = evaluate(iter_samples(data, skip_invalid=True), config, store=store,
                    resume=part.run_id, workers=2)
    assert rest.skipped == 59 * 3  # 60 rows read, one invalid: nothing judged twice
    assert _results(store, part.run_id) == _results(full, a.run_id)


def test_the_pool_size_defaults_to_the_cpus_and_a_small_input_stays_here() -> None:
    inputs = RunInputs(store=None, workers=None)  # type: ignore[arg-type]
    assert 1 <= default_workers() <= usable_cpus()
    assert pool_size(inputs, 32) == default_workers()
    assert pool_size(RunInputs(store=None, workers=4, total=70), 32) == 3  # type: ignore
    assert pool_size(RunInputs(store=None, workers=4, total=20), 32) == 1  # type: ignore
    assert pool_size(RunInputs(store=None, workers=1), 32) == 1  # type: ignore[arg-type]


def test_the_cli_takes_workers_for_the_local_engine(data: Path, tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--skip-invalid",
                                      "--workers", "2", "--out", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0]
        assert run.meta.workers == 2 and run.meta.engine == "local"
        assert store.count_results(run.id) == 149 * 3
    result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.output


def test_trace_hops_are_scored_in_the_workers_as_in_one_process(tmp_path: Path) -> None:
    """70 traces of three hops each (3 batches: both workers get some) through the CLI: the
    stored samples (their hops' relevance and use, the documents a later hop lost) and
    the results with 2 worker processes equal those of one process."""
    traces = [openinference_trace(trace=f"{i + 1:032x}", question=f"When was the Eiffel "
                                  f"Tower completed? Case {i}.") for i in range(70)]
    data = write_otlp(tmp_path / "t.jsonl", traces)
    stores = []
    for workers in (1, 2):
        db = tmp_path / f"x{workers}.db"
        result = CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "-q",
                                          "--metrics", "trace,judge", "--workers",
                                          str(workers)])
        assert result.exit_code == 0, result.output
        store = Store(db, readonly=True)
        stores.append((store, store.list_runs()[0]))
    (one, a), (two, b) = stores
    assert b.meta.workers == 2 and a.meta.workers is None
    samples = list(two.iter_samples(b.id))
    assert samples == list(one.iter_samples(a.id)) and len(samples) == 70
    hops = [s.metadata["trace"] for s in samples]  # type: ignore[union-attr]
    assert all(t["judged"] and len(t["hops"]) == 3 for t in hops)  # scored, not left
    assert all("relevance" in d for t in hops for h in t["hops"] for d in h["documents"])
    assert any(t["lost"] for t in hops)  # the rerank dropped hop 1's relevant document
    assert _results(two, b.id) == _results(one, a.id)


def test_with_worker_processes_this_process_has_no_hop_scorer(tmp_path: Path) -> None:
    run = LocalRun(RunConfig(dataset="t", metrics=("trace",)),
                   RunInputs(Store(tmp_path / "s.db"), workers=2))
    try:
        assert run.pool is not None and run.hops is None  # the workers score the hops
    finally:
        asyncio.run(run.close("complete", 0.0))
    alone = LocalRun(RunConfig(dataset="t", metrics=("trace",)),
                     RunInputs(Store(tmp_path / "t.db"), workers=1))
    assert alone.pool is None and alone.hops is not None
    asyncio.run(alone.close("complete", 0.0))


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _tree(pid: int) -> set[int]:
    found, todo = set(), [pid]
    while todo:
        for child in _children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_killed_engine_leaves_no_worker_behind(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _rows(3000)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    engine = subprocess.Popen([sys.executable, "-m", "ragassay", "eval", str(path), "--db",
                               str(tmp_path / "k.db"), "--workers", "2", "-q"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while len(workers) < 3 and time.monotonic() < deadline:  # forkserver + 2 workers
        workers = {p for p in _tree(engine.pid)
                   if b"forkserver" in Path(f"/proc/{p}/cmdline").read_bytes()}
        time.sleep(0.2)
    assert len(workers) >= 3, "the workers did not start"
    engine.send_signal(signal.SIGKILL)
    engine.wait(timeout=30)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in workers):
        time.sleep(0.2)
    left = [p for p in workers if Path(f"/proc/{p}").exists()]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, "worker processes outlived the killed engine"


def test_each_worker_runs_its_native_pools_on_one_thread() -> None:
    """Two workers each with a BLAS pool of one thread per core ran 4+ busy threads on 2
    cores and judged slower than one process (benches/RESULTS.md): a worker's BLAS pool,
    tokenizer and embedder run on one thread; this process keeps its own."""
    import os

    from threadpoolctl import threadpool_info

    from ragassay.runner.processes import JudgePool

    pool = JudgePool(RunConfig(dataset="x.jsonl", metrics=("judge",)), workers=2)
    try:
        info = pool.executor.submit(threadpool_info).result(timeout=120)
        env = [pool.executor.submit(os.getenv, name).result(timeout=120)
               for name in ("RAGASSAY_EMBED_THREADS", "TOKENIZERS_PARALLELISM")]
    finally:
        pool.close()
    blas = [p["num_threads"] for p in info if p["user_api"] == "blas"]
    assert blas and set(blas) == {1}
    assert env == ["1", "false"]
    assert os.environ.get("RAGASSAY_EMBED_THREADS") is None  # this process untouched
