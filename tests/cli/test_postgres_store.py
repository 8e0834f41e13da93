"""Every command that opens the store, on PostgreSQL (`--db postgresql://...` and
RAGASSAY_DB), says what it says on SQLite for the same runs; the password is never
printed or stored; `ragassay db copy` moves runs and labels between the two backends.

The server is the session's private cluster (`tests.support.postgres`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SECRET = "pw-Sekret-4217"
TIMES = re.compile(r"\d{8}-\d{6}-[0-9a-f]{4}|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?"
                   r"(\+00:00)?|\d+(\.\d+)? ?s\b")


def _run(args: list[str], env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(cli, args, env={"COLUMNS": "200", **(env or {})})
    assert SECRET not in result.output
    return result


def _same(text: str, db: str) -> str:
    """Output with the store's name, run ids and times taken out."""
    return TIMES.sub("<t>", text.replace(db, "<db>"))


def _with_password(url: str) -> str:
    return url.replace("ragassay@", f"ragassay:{SECRET}@")


def test_every_command_says_on_postgresql_what_it_says_on_sqlite(pg_url: str,
                                                                   tmp_path: Path) -> None:
    data = str(demo_dataset_path())
    url, file = _with_password(pg_url), str(tmp_path / "runs.db")
    shown = pg_url.replace("ragassay@", "")  # how messages name the server
    reports = {}
    for db in (file, url):
        for seed in ("0", "1"):  # two runs of the dataset: compare and trend have pairs
            result = _run(["eval", data, "--db", db,
                           "--out", str(tmp_path / f"{len(reports)}-{seed}.json")])
            assert result.exit_code == 0, result.output
        reports[db] = json.loads((tmp_path / f"{len(reports)}-1.json").read_text())
        assert ("stored in " + (shown if db == url else file)) in result.output
    for db, report in reports.items():  # the headline's prompt names the run: <run>
        run_id = report["evaluation_metadata"]["run_id"]
        reports[db] = json.loads(json.dumps(report).replace(run_id, "<run>"))
    a, b = reports[file], reports[url]
    for report in (a, b):
        for key in ("run_id", "timestamp", "generated", "finished"):
            report["evaluation_metadata"].pop(key, None)
    assert a == b  # the same report, figure for figure

    def runs(db: str) -> list[str]:
        listed = _run(["runs", "list", "--db", db, "--format", "json"])
        assert listed.exit_code == 0, listed.output
        return [r["id"] for r in json.loads(listed.output)]

    ids = {db: runs(db) for db in (file, url)}
    commands = [["runs", "show", "{0}"], ["report", "{0}", "--format", "csv"],
                ["gate", "{0}"], ["compare", "{1}", "{0}"], ["trend", data],
                ["calibrate", "{0}", "--labels", data], ["labels", "export", "--run", "{0}"]]
    for command in commands:
        said = {}
        for db in (file, url):
            args = [part.format(*ids[db]) for part in command]
            out = tmp_path / f"out-{len(said)}"
            extra = ["--out", str(out)] if command[0] in ("report", "labels") else []
            result = _run([*args, *extra, "--db", db])
            text = (result.output + (out.read_text() if out.exists() else "")).replace(
                str(out), "<out>")
            for i, run_id in enumerate(ids[db]):
                text = text.replace(run_id, f"<run{i}>")
            said[db] = (result.exit_code, _same(text, shown if db == url else file))
        assert said[file] == said[url], command
    # RAGASSAY_DB names the store when --db is not given
    assert runs(file) == ids[file]
    via_env = _run(["runs", "list", "--format", "json"], env={"RAGASSAY_DB": url})
    assert [r["id"] for r in json.loads(via_env.output)] == ids[url]


def test_the_password_is_never_stored_nor_in_an_error(pg_url: str, tmp_path: Path) -> None:
    import psycopg

    url = _with_password(pg_url)
    result = _run(["eval", str(demo_dataset_path()), "--db", url, "-q"])
    assert result.exit_code == 0, result.output
    with psycopg.connect(pg_url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema()")]
        for table in tables:
            text = " ".join(str(r) for r in conn.execute(f"SELECT * FROM {table}"))
            assert SECRET not in text and "ragassay@" not in text, table
    refused = _run(["runs", "list", "--db", f"postgresql://u:{SECRET}@127.0.0.1:1/x"])
    assert refused.exit_code == 2
    assert refused.output.startswith("error: cannot open postgresql://127.0.0.1:1/x: ")
    assert len(refused.output.strip().splitlines()) == 1


def test_db_copy_moves_runs_and_labels_both_ways(pg_url: str, tmp_path: Path) -> None:
    data, file = str(demo_dataset_path()), str(tmp_path / "runs.db")
    assert _run(["eval", data, "--db", file, "-q"]).exit_code == 0
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "q01-bm25-k3", "hallucinated": True}) + "\n")
    imported = _run(["labels", "import", str(labels), "--db", file, "--annotator", "ann"])
    assert imported.exit_code == 0, imported.output
    url = _with_password(pg_url)
    copied = _run(["db", "copy", file, url])
    assert copied.exit_code == 0, copied.output
    assert "1 run copied" in copied.output and "labels 1" in copied.output
    again = _run(["db", "copy", file, url])
    assert "0 runs copied" in again.output and "1 already in" in again.output
    back = str(tmp_path / "back.db")
    assert _run(["db", "copy", url, back]).exit_code == 0
    reports = []
    for db in (file, url, back):
        out = tmp_path / f"r{len(reports)}.json"
        assert _run(["report", "--db", db, "--out", str(out)]).exit_code == 0
        report = json.loads(out.read_text())
        report["evaluation_metadata"].pop("generated", None)
        reports.append(report)
    assert reports[0] == reports[1] == reports[2]
    assert _run(["db", "copy", file, file]).exit_code == 2


def test_two_annotators_labels_are_kept_on_postgresql_as_on_sqlite(pg_url: str,
                                                                   tmp_path: Path) -> None:
    from tests.cli.test_annotators import EXAMPLE, SECOND, second_file

    people = {}
    for db in (str(tmp_path / "people.db"), pg_url):
        result = _run(["eval", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db", db])
        assert result.exit_code == 0, result.output
        for path in (EXAMPLE / "labels.jsonl", second_file(tmp_path)):
            result = _run(["labels", "import", str(path), "--db", db])
            assert result.exit_code == 0, result.output
        exported = _run(["labels", "export", "--db", db])
        rows = [json.loads(line) for line in exported.output.splitlines()]
        both: dict[str, set[str]] = {}
        for r in rows:
            if r.get("source") != "data":
                both.setdefault(r["id"], set()).add(r["annotator"])
        assert sum(who == {"support-lead", "second"} for who in both.values()) == SECOND
        reports = []
        for rule in ("majority", "annotator:second"):
            result = _run(["report", "--db", db, "--label-rule", rule])
            assert result.exit_code == 0, result.output
            report = json.loads(result.output)
            assert report["corrected"]["label_rule"] == rule
            reports.append((report["corrected"], report["annotators"]))
        people[db] = reports
    a, b = people.values()
    assert a == b  # the same figures, agreement and counts on both backends
    assert a[0][0]["estimates"] != a[1][0]["estimates"]  # the rule changes them
