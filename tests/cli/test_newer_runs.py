"""A run written by a newer ragassay (a config field this version does not know) is read
by `runs list`, `runs show` and `report`, with one note saying so; writing to it (a
resume) is refused in one line (issue #33, item 7)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store, StoreError

NOTE = "written by a newer ragassay (config fields this version does not know: "


def _newer_run(tmp_path: Path) -> tuple[Path, Path, str]:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "question": "What is X?", "contexts": ["X is Y."],
                                "answer": "X is Y.", "reference": "Y."}) + "\n")
    db = tmp_path / "n.db"
    assert CliRunner().invoke(cli, ["eval", str(data), "--db", str(db), "--metrics", "judge",
                                    "-q"]).exit_code == 0
    conn = sqlite3.connect(db)
    run_id, raw = conn.execute("SELECT id, config FROM runs").fetchone()
    config = json.loads(raw)
    config["shiny_new_option"] = {"level": 3}  # what a later version might add
    config["backend"]["new_knob"] = True
    conn.execute("UPDATE runs SET config = ? WHERE id = ?", (json.dumps(config), run_id))
    conn.commit()
    conn.close()
    return data, db, run_id


@pytest.mark.parametrize("args", [["runs", "list"], ["runs", "list", "--format", "json"],
                                  ["runs", "show", "{run}"],
                                  ["report", "{run}", "--format", "json"]])
def test_read_commands_read_a_newer_run_and_say_so_once(args: list[str],
                                                        tmp_path: Path) -> None:
    _, db, run_id = _newer_run(tmp_path)
    result = CliRunner().invoke(cli, [a.format(run=run_id) for a in args] + ["--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and run_id in result.stdout
    assert result.stderr.count(NOTE) == 1
    assert (f"note: run was {NOTE}{run_id}: backend.new_knob, shiny_new_option): shown "
            "without them; writing to it is refused") in result.stderr


def test_a_resume_of_a_newer_run_is_refused(tmp_path: Path) -> None:
    data, db, run_id = _newer_run(tmp_path)
    result = CliRunner().invoke(cli, ["eval", str(data), "--resume", run_id, "--db", str(db)])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: run {run_id} was written by a newer ragassay (config fields this version "
        "does not know: backend.new_knob, shiny_new_option): it can be read here but not "
        "written to; resume it with that version, or start a new run")
    with Store(db) as store:  # the store refuses too, whoever asks
        assert store.get_run(run_id).unknown_config == ("backend.new_knob", "shiny_new_option")
        with pytest.raises(StoreError, match="can be read here but not written to"):
            store.finish_run(run_id, "running")
        with pytest.raises(StoreError, match="can be read here but not written to"):
            store.update_meta(run_id, {"x": 1})
        assert store.get_run(run_id).status == "complete"


def test_a_config_this_version_cannot_read_is_one_line(tmp_path: Path) -> None:
    _, db, run_id = _newer_run(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE runs SET config = json_set(config, '$.ratings', 'calibrated')")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(cli, ["runs", "show", run_id, "--db", str(db)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().startswith(
        f"error: run {run_id}: its stored config cannot be read by this version of ragassay "
        "(ratings: ")
