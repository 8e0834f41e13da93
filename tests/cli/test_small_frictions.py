"""The small frictions a new user met (issue #44 item 5), each through the real CLI: RUN
optional where the latest is taken, a missing question names the columns and the --map,
a closed OTLP port says "connection refused", `report --out` says where it wrote,
`runs delete`, failed runs say why in `runs list`, and an import that replaces another
annotator's labels says so."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.store import Store

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "examples" / "traces" / "rag_traces.jsonl"


def invoke(*args: object, **kw: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args], **kw)  # type: ignore[arg-type]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, demo_data: Path) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("frictions") / "r.db"
    for metrics in ("ragas", "judge"):
        done = invoke("eval", demo_data, "--metrics", metrics, "--db", db, "--quiet")
        assert done.exit_code == 0, done.output
    with Store(db, readonly=True) as store:
        latest = store.latest_run()
        assert latest is not None
        return db, latest.id


def test_runs_show_without_run_shows_the_latest(two_runs: tuple[Path, str]) -> None:
    db, latest = two_runs
    done = invoke("runs", "show", "--db", db)
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"run {latest} ") and "judge suite per strategy" in done.output


@pytest.mark.parametrize("command", [("annotate",), ("report",), ("gate",), ("runs", "show")])
def test_help_shows_run_optional(command: tuple[str, ...]) -> None:
    done = invoke(*command, "--help")
    assert done.exit_code == 0
    assert f"Usage: cli {' '.join(command)} [OPTIONS] [RUN]" in done.output


def test_a_missing_question_names_the_columns_and_the_map(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"user_query": "Why?", "contexts": ["Because."],
                                "response": "Because.", "team": "a"}) + "\n")
    done = invoke("eval", data, "--db", tmp_path / "r.db")
    assert done.exit_code == 2
    assert done.output.strip() == (
        "error: d.jsonl:1: 'question' is required (accepted names: 'question', "
        "'user_input'); columns no field is read from: 'user_query', 'team'; if one holds "
        "the question, say so: --map question=user_query (field_map in Python)")
    fixed = invoke("eval", data, "--db", tmp_path / "r.db", "--map", "question=user_query",
                   "--quiet")
    assert fixed.exit_code == 0, fixed.output


def test_export_otlp_to_a_closed_port_says_connection_refused(tmp_path: Path) -> None:
    port = closed_port()
    done = invoke("eval", TRACES, "--metrics", "judge", "--db", tmp_path / "r.db", "--quiet",
                  "--export-otlp", f"http://127.0.0.1:{port}/v1/traces")
    assert done.exit_code == 1
    assert (f"--export-otlp: cannot send the export to http://127.0.0.1:{port}/v1/traces: "
            "connection refused (run ") in done.output
    assert "ConnectError" not in done.output


def test_report_out_says_where_it_wrote(two_runs: tuple[Path, str], tmp_path: Path) -> None:
    db, latest = two_runs
    out = tmp_path / "x.html"
    done = invoke("report", "--format", "html", "--out", out, "--db", db)
    assert done.exit_code == 0, done.output
    assert out.is_file()
    assert done.output.strip() == f"HTML report of run {latest} written to {out}"


def test_runs_delete_asks_then_deletes(two_runs: tuple[Path, str], tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "copy.db"
    with sqlite3.connect(two_runs[0]) as src, sqlite3.connect(db) as dst:
        src.backup(dst)
    latest = two_runs[1]
    refused = invoke("runs", "delete", latest, "--db", db)  # stdin is no terminal
    assert refused.exit_code == 2 and "add --yes" in refused.output
    assert latest in invoke("runs", "list", "--db", db).output  # nothing deleted
    done = invoke("runs", "delete", latest, "--db", db, "--yes")
    assert done.exit_code == 0, done.output
    assert f"deleted run {latest}" in done.output
    listed = invoke("runs", "list", "--db", db, "--format", "json")
    assert [r["id"] for r in json.loads(listed.output)] != [] and latest not in listed.output
    gone = invoke("runs", "delete", latest, "--db", db, "--yes")
    assert gone.exit_code == 2 and f"no run '{latest}'" in gone.output


def test_a_run_of_a_bad_endpoint_is_failed_with_its_reason(tmp_path: Path,
                                                           demo_data: Path) -> None:
    db = tmp_path / "r.db"
    port = closed_port()
    done = invoke("eval", demo_data, "--metrics", "judge", "--judge", "openai:m", "--base-url",
                  f"http://127.0.0.1:{port}/v1", "--db", db, "--quiet",
                  env={"OPENAI_API_KEY": "sk-test"})
    assert done.exit_code != 0
    listed = json.loads(invoke("runs", "list", "--db", db, "--format", "json").output)
    assert listed[0]["status"] == "failed"
    assert listed[0]["failure"].startswith(
        f"cannot connect to the judge endpoint http://127.0.0.1:{port}/v1")
    table = invoke("runs", "list", "--db", db).output
    assert f"{listed[0]['id']} failed: cannot connect to the judge endpoint" in table
    # a resume that completes clears it
    with Store(db) as store:
        store.finish_run(listed[0]["id"], "complete")
        assert store.get_run(listed[0]["id"]).failure is None


def test_an_import_beside_another_annotators_labels_keeps_both_and_says_so(
        tmp_path: Path) -> None:
    example = ROOT / "examples" / "labels"
    db = tmp_path / "r.db"
    assert invoke("eval", example / "data.jsonl", "--metrics", "judge", "--db", db,
                  "--quiet").exit_code == 0
    first = tmp_path / "alice.jsonl"
    first.write_text("".join(json.dumps({"id": f"a00{i}", "hallucinated": i % 2 == 0}) + "\n"
                             for i in range(1, 5)))
    again = tmp_path / "bob.jsonl"
    again.write_text("".join(json.dumps({"id": f"a00{i}", "hallucinated": True}) + "\n"
                             for i in range(1, 4)))
    done = invoke("labels", "import", first, "--annotator", "alice", "--db", db)
    assert done.exit_code == 0 and "kept beside" not in done.output
    done = invoke("labels", "import", again, "--annotator", "bob", "--db", db)
    assert done.exit_code == 0, done.output
    assert ("kept beside 3 labels other annotators gave the same samples (alice 3; 2 with "
            "another value): each person's label is kept") in " ".join(done.output.split())
    same = invoke("labels", "import", again, "--annotator", "bob", "--db", db)
    assert same.exit_code == 0  # bob's own replaced: alice's still beside them
    with Store(db) as store:
        assert sorted(x.annotator for x in store.iter_labels()) == ["alice"] * 4 + ["bob"] * 3
