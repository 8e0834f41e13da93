"""Operations: SIGTERM drains and a restart resumes the same monitor run, every accepted
trace counted (a SIGKILL too: spans are stored before the reply); the settings of a
resumed monitor are its own; --new starts another run."""

from __future__ import annotations

import json
import random
import signal
from pathlib import Path

import pytest

from ragassay.store import Store
from tests.support.monitor_process import MonitorProcess
from tests.support.monitor_traces import export, rag_trace, trace_ids

pytestmark = pytest.mark.slow


def body(ids: list[str], rng: random.Random, *, roots: bool = True,
         children: bool = True) -> bytes:
    spans = []
    for t in ids:
        for s in rag_trace(t, rng):
            if ("parentSpanId" in s and children) or ("parentSpanId" not in s and roots):
                spans.append(s)
    return json.dumps(export([spans])).encode()


def ledger(db: Path, run_id: str) -> dict[str, str]:
    with Store(db) as store:
        return dict(store.conn.execute("SELECT trace_id, state FROM monitor_traces WHERE "
                                       "run_id = ?", (run_id,)).fetchall())


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_every_accepted_trace_is_counted_after_a_stop_and_restart(tmp_path: Path,
                                                                   stop: int) -> None:
    db, rng = tmp_path / "m.db", random.Random(5)
    ids = trace_ids(5, 400)
    args = ("--settle", "0.3", "--drain-timeout", "0", "--baseline-traces", "50",
            "--window", "25")
    mon = MonitorProcess(db, *args)
    for i in range(0, 300, 30):
        mon.send(body(ids[i:i + 30], rng))
    # 20 traces whose root span is still to come: open when the process stops
    mon.send(body(ids[300:320], rng, roots=False))
    accepted = set(ids[:320])
    code = mon.stop(stop)
    first_run = mon.run_id
    if stop == signal.SIGTERM:
        assert code == 0
        stopped = mon.wait_event("stopped")
        assert stopped["traces"]["accepted"] == 320  # counted before it exits
        assert "SIGTERM or Ctrl-C stops it" in mon.stderr
    assert set(ledger(db, first_run)) == accepted  # every trace acknowledged is stored

    again = MonitorProcess(db, *args)
    start = again.wait_event("start")
    assert again.run_id == first_run and start["resumed"] is True
    assert start["traces"]["accepted"] == 320
    again.send(body(ids[300:320], rng, children=False))  # their roots arrive now
    for i in range(320, 400, 40):
        again.send(body(ids[i:i + 40], rng))
    again.wait_scored(400)
    assert again.stop() == 0
    states = ledger(db, first_run)
    assert set(states) == set(ids) and set(states.values()) == {"scored"}
    with Store(db) as store:
        positions = [p for (p,) in store.conn.execute(
            "SELECT position FROM monitor_traces WHERE run_id = ? ORDER BY position",
            (first_run,))]
        assert positions == list(range(400))  # each scored once, in one stream
        assert store.count_samples(first_run) == 400
        assert store.get_run(first_run).status == "interrupted"
        assert len(store.list_runs()) == 1
    # the drift windows of the whole stream were written once each, across the restart
    keys = [k for k, *_ in Store(db).monitor_events(first_run)]
    assert len(keys) == len(set(keys))


def test_a_resumed_monitor_keeps_its_settings(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mon = MonitorProcess(db, "--sample", "0.5", "--name", "shop")
    run_id = mon.run_id
    assert mon.stop() == 0
    from click.testing import CliRunner

    from ragassay.cli import cli

    refused = CliRunner().invoke(cli, ["monitor", "--listen", "127.0.0.1:0", "--db", str(db),
                                       "--name", "shop", "--sample", "0.3"])
    assert refused.exit_code == 2
    assert refused.output.count("\n") == 1
    assert f"monitor 'shop' (run {run_id}) was started with other settings (sample)" in \
        refused.output
    kept = MonitorProcess(db, "--name", "shop")  # no --sample: its own 0.5
    assert kept.run_id == run_id
    assert kept.stop() == 0
    new = MonitorProcess(db, "--name", "shop", "--new", "--sample", "0.3")
    assert new.run_id != run_id
    assert new.stop() == 0
