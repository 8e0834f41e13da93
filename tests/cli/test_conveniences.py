"""Small conveniences: `runs list --format json`, `gate` and `report` on the latest run
when RUN is omitted, `ragassay --version`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import ragassay
from ragassay.cli import cli


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _two_runs(tmp_path: Path, demo_data: Path) -> tuple[str, str, str]:
    db = str(tmp_path / "r.db")
    for metrics in ("judge", "ragas"):
        code, out = invoke("eval", str(demo_data), "--db", db, "--metrics", metrics, "-q")
        assert code == 0, out
    listed = json.loads(invoke("runs", "list", "--db", db, "--format", "json")[1])
    return db, listed[1]["id"], listed[0]["id"]  # oldest, newest


def test_runs_list_json_is_one_object_per_run_newest_first(tmp_path: Path,
                                                           demo_data: Path) -> None:
    db, first, latest = _two_runs(tmp_path, demo_data)
    listed = json.loads(invoke("runs", "list", "--db", db, "--format", "json")[1])
    assert [r["id"] for r in listed] == [latest, first]
    entry = listed[0]
    assert entry["kind"] == "eval" and entry["status"] == "complete"
    assert entry["metrics"] == ["ragas"] and entry["samples"] == 24
    assert entry["dataset"] == str(demo_data) and entry["judge"] == "offline"
    assert set(entry) >= {"created", "finished", "judge_model", "strategies"}
    # an eval run lists the strategies its samples name (it printed [] before)
    assert entry["strategies"] == ["bm25-k3", "dense-k5"]
    table = invoke("runs", "list", "--db", db)[1]
    # trial 82: a kind column only where some run is a bench (80 columns hold no more)
    assert "kind" not in table.split() and latest in table


def test_gate_and_report_default_to_the_latest_run(tmp_path: Path, demo_data: Path) -> None:
    db, first, latest = _two_runs(tmp_path, demo_data)
    code, out = invoke("report", "--db", db)
    assert code == 0
    assert json.loads(out)["evaluation_metadata"]["run_id"] == latest
    code, out = invoke("gate", "--db", db)  # the latest run scored ragas: its defaults
    assert f"gate for run {latest}" in out and "ragas.faithfulness" in out
    code, out = invoke("gate", first, "--db", db)  # judge metrics: gated at their targets
    assert code in (0, 1) and f"gate for run {first}" in out and "judge.faithfulness" in out
    empty = tmp_path / "empty.db"
    from ragassay.store import Store

    Store(empty).close()
    for command in ("gate", "report"):
        code, out = invoke(command, "--db", str(empty))
        assert code == 2 and "the store has no runs yet" in out


def test_version() -> None:
    code, out = invoke("--version")
    assert code == 0 and out.strip() == f"ragassay, version {ragassay.__version__}"
