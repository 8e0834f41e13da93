"""A failing judge does not lose traces: the monitor says so, keeps receiving, keeps the
queued traces, and scores them once the judge answers (here: restarted against a
working endpoint; `--base-url` is how it runs, not what the run is)."""

from __future__ import annotations

import json
import random
import socket
import time
from pathlib import Path

import pytest

from ragassay.store import Store
from tests.support.faults import judge_scores
from tests.support.monitor_process import MonitorProcess
from tests.support.monitor_traces import export, rag_trace, trace_ids
from tests.support.scripted_server import ScriptedReply, ScriptedServer

pytestmark = pytest.mark.slow


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_judge_that_fails_keeps_the_traces_until_it_answers(tmp_path: Path) -> None:
    db, rng = tmp_path / "m.db", random.Random(8)
    ids = trace_ids(8, 12)
    common = ("--judge", "openai:x", "--metrics", "judge", "--settle", "0.05")
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    mon = MonitorProcess(db, *common, "--base-url", dead)
    mon.send(json.dumps(export([rag_trace(t, rng) for t in ids])).encode())
    error = mon.wait_event("error", timeout=120)
    assert "scoring stopped" in error["message"] and "retrying" in error["message"]
    time.sleep(0.5)
    health = mon.health()
    assert health["traces"]["accepted"] == 12 and health["traces"]["scored"] == 0
    assert health["queue"] == 12  # kept, not dropped
    assert mon.stop() == 0
    assert "scoring stopped" in mon.stderr
    with ScriptedServer(lambda req, n: ScriptedReply.chat(json.dumps(judge_scores(req)))) \
            as server:
        again = MonitorProcess(db, *common, "--base-url", server.base_url)
        assert again.run_id == mon.run_id
        again.wait_scored(12, timeout=120)
        assert again.stop() == 0
        assert server.count >= 12
    with Store(db) as store:
        assert store.count_results(mon.run_id) == 12
        assert {s.id for s in store.iter_samples(mon.run_id)} == set(ids)
