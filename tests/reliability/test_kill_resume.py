"""SIGKILL the CLI at random points, resume until complete: no work lost or repeated.

`ragassay eval --no-cache` runs as a subprocess against a fault-free scripted server
with some latency. It is killed with SIGKILL (no cleanup runs) when the server has
seen a seeded-random number of requests, several times over, and resumed with
`--resume RUN` until it completes. The store must pass `PRAGMA integrity_check`
after every kill; a judgment that had a result row is never requested again; at most
`concurrency` judgments in flight at a kill are requested a second time; the final
results equal those of an uninterrupted run.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import iter_samples
from ragassay.report import build_report
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig
from tests.support.faults import FaultServer, fenced
from tests.support.processes import run_until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180),
              pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")]

PLANTED_KEY = "sk-planted-KILLTEST-0123456789abcdefXYZ"
N = 80
CONCURRENCY = 4
KILLS = 3


def _write_data(path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(N):
            fh.write(json.dumps({
                "id": f"k{i:03d}", "question": f"Kill test question {i}?",
                "contexts": [f"Fact {i}: the value is {i * 7}."],
                "answer": f"The value is {i * 7}.", "reference": f"{i * 7}",
            }) + "\n")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_BASE_URL",)}
    env["OPENAI_API_KEY"] = PLANTED_KEY
    return env


def _integrity(db: Path | str) -> str:
    if not isinstance(db, Path):
        return "ok"  # PostgreSQL: a transaction is all or nothing, checked by the server
    conn = sqlite3.connect(db)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def _done(db: Path | str) -> set[str]:
    with Store(db, readonly=True) as store:
        return {r.sample_id for r in store.iter_results(str(store.latest_run().id))}  # type: ignore[union-attr]


def _questions(server: FaultServer, start: int, end: int) -> list[str]:
    return [fenced(r, "QUESTION") or "?" for r in server.requests[start:end]]


def _run_until(cmd: list[str], server: FaultServer, target: int | None,
               outputs: list[str]) -> bool:
    """Run `cmd`; SIGKILL it once the server has seen `target` requests. True if killed."""
    done = run_until(cmd, server, target, _env())
    outputs.extend([done.out, done.err])
    return done.killed


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_then_resume_loses_and_repeats_nothing(tmp_path: Path, backend: str,
                                                       request: pytest.FixtureRequest) -> None:
    data = tmp_path / "kill.jsonl"
    db: Path | str = tmp_path / "runs.db" if backend == "sqlite" else \
        str(request.getfixturevalue("pg_url"))
    _write_data(data)
    id_of = {s.question: s.id for s in iter_samples(data)}  # type: ignore[union-attr]
    rng = random.Random(20261130)
    outputs: list[str] = []
    with FaultServer(latency_s=0.02, max_seconds=150) as server:
        first = [sys.executable, "-m", "ragassay", "eval", str(data), "--judge", "openai:x",
                 "--base-url", server.base_url, "--metrics", "judge", "--no-cache",
                 "--concurrency", str(CONCURRENCY), "--db", str(db), "-q"]
        segments: list[tuple[set[str], set[str]]] = []  # (asked in segment, done after it)
        run_id: str | None = None
        start = 0
        for k in range(KILLS):
            target = start + rng.randint(6, 18)
            if run_id is None:
                cmd = first
            else:
                cmd = [sys.executable, "-m", "ragassay", "eval", str(data), "--resume", run_id,
                       "--db", str(db), "-q"]
            assert _run_until(cmd, server, target, outputs), f"kill {k} came too late"
            assert _integrity(db) == "ok"
            if run_id is None:
                with Store(db, readonly=True) as store:
                    latest = store.latest_run()
                assert latest is not None and latest.status == "running"  # killed: no cleanup
                run_id = latest.id
            asked = {id_of[q] for q in _questions(server, start, server.count)}
            segments.append((asked, _done(db)))
            start = server.count
        # resume to completion, without a kill
        cmd = [sys.executable, "-m", "ragassay", "eval", str(data), "--resume", str(run_id),
               "--db", str(db), "-q"]
        assert not _run_until(cmd, server, None, outputs)
        assert _integrity(db) == "ok"
        final_asked = {id_of[q] for q in _questions(server, start, server.count)}
        segments.append((final_asked, _done(db)))
        all_questions = _questions(server, 0, server.count)

        # an uninterrupted run of the same config, for comparison
        config = RunConfig(dataset=str(data), judge="openai:x", base_url=server.base_url,
                           metrics=("judge",), concurrency=CONCURRENCY, use_cache=False)
        with Store(tmp_path / "straight.db") as store:
            straight = evaluate(iter_samples(data), config, store=store)
            expected = {r.sample_id: r.results for r in store.iter_results(straight.run_id)}

    assert outputs[-1] == "" and outputs[-2] == ""  # the final resume printed nothing (-q)
    with Store(db, readonly=True) as store:
        run = store.get_run(str(run_id))
        assert run.status == "complete"
        got = {r.sample_id: r.results for r in store.iter_results(run.id)}
        report = build_report(store, run.id)
    assert got == expected and len(got) == N
    assert report.run.complete is True

    # no finished judgment was requested again; at most `concurrency` per kill twice
    for i, (asked, done) in enumerate(segments[:-1]):
        assert len(asked - done) <= CONCURRENCY, f"more than {CONCURRENCY} in flight at kill {i}"
        later = set().union(*(a for a, _ in segments[i + 1:]))
        assert not done & later, f"finished judgments re-requested after kill {i}"
    counts = {sid: 0 for sid in id_of.values()}
    for q in all_questions:
        counts[id_of[q]] += 1
    twice = [sid for sid, c in counts.items() if c > 1]
    assert max(counts.values()) <= KILLS + 1
    assert len(twice) <= CONCURRENCY * KILLS, twice
    assert all(c >= 1 for c in counts.values())
    # several kills really interrupted work in flight or between judgments
    assert len(segments) == KILLS + 1 and all(asked for asked, _ in segments[:-1])

    # `runs list` shows the run; the planted key is nowhere
    listing = CliRunner().invoke(cli, ["runs", "list", "--db", str(db)],
                                 env={"COLUMNS": "200"})
    assert listing.exit_code == 0 and str(run_id) in listing.output
    assert all(PLANTED_KEY not in text for text in outputs)
    if isinstance(db, Path):
        for path in db.parent.glob("runs.db*"):
            assert PLANTED_KEY.encode() not in path.read_bytes()
    else:
        import psycopg

        with psycopg.connect(db) as conn:
            names = [r[0] for r in conn.execute("SELECT table_name FROM"
                                                " information_schema.tables WHERE"
                                                " table_schema = current_schema()")]
            for name in names:
                rows = conn.execute(f"SELECT * FROM {name}").fetchall()
                assert PLANTED_KEY not in repr(rows), name
