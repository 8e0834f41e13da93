"""Through the real receiver (`ragassay monitor --listen`, a subprocess): 1,000 good
traces then 1,000 with a planted quality drop give an alarm after the change and none
before; the alarm is a JSON line on stdout, a row in the store and a webhook POST, and
`ragassay runs show` reads the monitor run."""

from __future__ import annotations

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.monitor_process import MonitorProcess
from tests.support.monitor_traces import export, rag_trace, trace_ids

pytestmark = pytest.mark.slow


class Hook(BaseHTTPRequestHandler):
    received: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers["content-length"])
        Hook.received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def webhook() -> Any:
    Hook.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/alarms"
    server.shutdown()
    server.server_close()


def send_traces(mon: MonitorProcess, ids: list[str], rng: random.Random, bad: bool) -> None:
    for i in range(0, len(ids), 50):
        mon.send(json.dumps(export([rag_trace(t, rng, bad) for t in ids[i:i + 50]])).encode())


@pytest.mark.parametrize("seed", [1])
def test_a_planted_drop_alarms_after_the_change_and_never_before(
        tmp_path: Path, webhook: str, seed: int) -> None:
    db = tmp_path / "m.db"
    mon = MonitorProcess(db, "--settle", "0.05", "--window", "100", "--webhook", webhook)
    ids, rng = trace_ids(seed, 2000), random.Random(seed)
    send_traces(mon, ids[:1000], rng, bad=False)
    mon.wait_scored(1000)  # every good trace scored before the first bad one arrives
    send_traces(mon, ids[1000:], rng, bad=True)
    mon.wait_scored(2000)
    assert mon.stop() == 0
    alarms = [e for e in mon.events if e["event"] == "alarm"]
    assert alarms, mon.events[-5:]
    with Store(db) as store:
        position = {t: p for t, p in store.conn.execute(
            "SELECT trace_id, position FROM monitor_traces WHERE run_id = ?", (mon.run_id,))}
        stored = [e for _, kind, _, _, e in store.monitor_events(mon.run_id) if kind == "alarm"]
    assert all(position[t] < 1000 for t in ids[:1000])  # the good ones came first
    for alarm in alarms:
        first, last = alarm["traces"]["positions"]
        assert last >= 1000, alarm["message"]  # no alarm before the change
        assert alarm["current"]["high"] < alarm["baseline"]["low"] or \
            alarm["current"]["low"] > alarm["baseline"]["high"]
        assert {w["trace_id"] for w in alarm["worst"]} <= set(ids[1000:])
    metrics = {a["metric"] for a in alarms}
    assert {"judge.faithfulness", "judge.hallucination"} <= metrics
    # soon after the change: within the first window of bad traces
    assert min(a["traces"]["positions"][1] for a in alarms) < 1000 + 100
    assert stored == alarms  # one row per alarm, as written
    # the webhook got the same JSON (delivered concurrently: in any order)
    assert sorted(Hook.received, key=lambda a: a["metric"]) == \
        sorted(alarms, key=lambda a: a["metric"])
    stopped = mon.wait_event("stopped")
    assert stopped["traces"]["accepted"] == stopped["traces"]["scored"] == 2000
    shown = CliRunner().invoke(cli, ["runs", "show", mon.run_id, "--db", str(db)],
                               terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert "2,000 traces accepted: 2,000 scored" in shown.output
    assert f"{len(alarms)} alarms (newest first)" in shown.output
    assert "Faithfulness (judge) fell below its baseline" in shown.output
