"""`--follow FILE` reads a collector's file exporter output as it grows, and a restart
goes on where it stopped (no line lost, none read twice), through rotations; retention
deletes old traces (and their scores) but keeps them counted; webhooks are https or
loopback only."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.monitor.events import webhook_problem
from ragassay.store import Store
from tests.support.monitor_process import MonitorProcess
from tests.support.monitor_traces import export, rag_trace, trace_ids

pytestmark = pytest.mark.slow


def append(path: Path, ids: list[str], rng: random.Random, per_line: int = 5) -> None:
    with path.open("a") as fh:
        for i in range(0, len(ids), per_line):
            fh.write(json.dumps(export([rag_trace(t, rng) for t in ids[i:i + per_line]]))
                     + "\n")


def test_follow_reads_as_the_file_grows_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    db, log, rng = tmp_path / "m.db", tmp_path / "traces.jsonl", random.Random(6)
    ids = trace_ids(6, 80)
    append(log, ids[:30], rng)
    with log.open("a") as fh:
        fh.write("not an export\n")  # skipped, said once, reading goes on
        fh.write(json.dumps(export([rag_trace(ids[30], rng)]))[:40])  # a line half written
    args = ("--follow", str(log), "--settle", "0.05")
    mon = MonitorProcess(db, *args)
    mon.wait_scored(30)
    with log.open("a") as fh:  # the half line completed
        fh.write(json.dumps(export([rag_trace(ids[30], rng)]))[40:] + "\n")
    append(log, ids[31:50], rng)
    mon.wait_scored(50)
    assert mon.stop() == 0
    errors = [e["message"] for e in mon.events if e["event"] == "error"]
    assert len(errors) == 1 and "a line is not an OTLP export" in errors[0]
    append(log, ids[50:60], rng)  # written while no monitor runs
    again = MonitorProcess(db, *args)
    again.wait_scored(60)
    log.rename(tmp_path / "traces.1.jsonl")  # rotated: a new file under the name
    append(log, ids[60:80], rng)
    again.wait_scored(80)
    time.sleep(0.5)
    assert again.stop() == 0
    assert again.run_id == mon.run_id
    with Store(db) as store:
        counts = store.trace_counts(mon.run_id)
        assert counts["scored"] == 80 and sum(counts.values()) == 80
        assert {s.id for s in store.iter_samples(mon.run_id)} == set(ids)


def test_retention_deletes_old_traces_and_keeps_them_counted(tmp_path: Path) -> None:
    db, rng = tmp_path / "m.db", random.Random(7)
    ids = trace_ids(7, 40)
    mon = MonitorProcess(db, "--settle", "0.05")
    mon.send(json.dumps(export([rag_trace(t, rng) for t in ids])).encode())
    mon.wait_scored(40)
    assert mon.stop() == 0
    with Store(db) as store:  # 25 of them completed 10 days ago
        store.conn.execute("UPDATE monitor_traces SET completed = '2000-01-01T00:00:00+00:00'"
                           " WHERE run_id = ? AND position < 25", (mon.run_id,))
    again = MonitorProcess(db, "--keep-days", "3")
    retention = again.wait_event("retention")
    assert retention["deleted"] == 25
    assert again.health()["traces"] == {"open": 0, "queued": 0, "scored": 40, "unsampled": 0,
                                        "invalid": 0, "accepted": 40}
    assert again.stop() == 0
    with Store(db) as store:
        assert store.trace_counts(mon.run_id)["scored"] == 15
        kept = {s.id for s in store.iter_samples(mon.run_id)}
        assert len(kept) == 15 and store.count_results(mon.run_id) == 30
        assert not store.conn.execute("SELECT 1 FROM metric_values WHERE run_id = ? AND "
                                      "sample_id NOT IN (SELECT trace_id FROM monitor_traces)",
                                      (mon.run_id,)).fetchall()


@pytest.mark.parametrize("url, ok", [
    ("https://hooks.example.com/T000/B000/secret", True),
    ("http://127.0.0.1:9000/alarms", True),
    ("http://[::1]:9000/alarms", True),
    ("http://localhost/alarms", True),
    ("http://hooks.example.com/alarms", False),
    ("http://10.0.0.5/alarms", False),
    ("ftp://hooks.example.com/x", False),
    ("https://user:pw@hooks.example.com/x", False),
])
def test_webhooks_are_https_or_loopback(url: str, ok: bool) -> None:
    assert (webhook_problem(url) is None) == ok


def test_a_plain_http_webhook_elsewhere_is_one_line(tmp_path: Path) -> None:
    done = CliRunner().invoke(cli, ["monitor", "--listen", "127.0.0.1:0", "--db",
                                    str(tmp_path / "m.db"), "--webhook",
                                    "http://hooks.example.com/T0/secret-token"])
    assert done.exit_code == 2
    assert done.output == ("error: --webhook http://hooks.example.com/...: http only to this "
                           "machine (127.0.0.1, ::1, localhost); use https:// for any other "
                           "host\n")
    assert "secret" not in done.output
    nothing = CliRunner().invoke(cli, ["monitor", "--db", str(tmp_path / "m.db")])
    assert nothing.exit_code == 2 and "give --listen HOST:PORT" in nothing.output
    assert not (tmp_path / "m.db").exists()


def test_a_taken_port_is_one_line_and_starts_no_run(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = CliRunner().invoke(cli, ["monitor", "--listen", f"127.0.0.1:{port}", "--db",
                                        str(tmp_path / "m.db")])
    assert done.exit_code == 2
    assert done.output == (f"error: --listen 127.0.0.1:{port}: cannot listen there (address "
                           "already in use); no run was started\n")
    with Store(tmp_path / "m.db") as store:
        assert store.list_runs() == []
