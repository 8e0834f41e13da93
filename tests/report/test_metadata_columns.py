"""A sample's metadata reaches every per-sample output: the JSON report's entries (typed,
`SampleEntry.metadata`, with the run's `metadata_keys`), the CSV (`ragassay report
--format csv`) and the Parquet results, one `metadata.<key>` column per key after the
existing columns (a new-user trial: {"kind": ..., "domain": ...} appeared nowhere)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.report import (
    METADATA_JSON_NOTE,
    METADATA_KEYS_MAX,
    build_report,
    csv_fields,
    export,
    iter_details,
    report_json,
)
from ragassay.store import Store
from tests.support.traces import openinference_trace, write_otlp

ROWS = [
    {"id": "a", "question": "How deep is the pool?", "answer": "It is 2 m deep.",
     "contexts": ["The swimming pool is 2 m deep."],
     "metadata": {"kind": "paraphrase", "domain": "swimming pool"}},
    {"id": "b", "question": "When does the pool open?", "answer": "At 7am.",
     "contexts": ["The pool opens at 7am."], "metadata.flag": True,
     "metadata": {"kind": "direct", "n": 3, "tags": ["x", "y"], "where": {"floor": 1}}},
    {"id": "c", "question": "Is there a sauna?", "answer": "No.", "contexts": ["No sauna."]},
]
FIELDS = ["run_id", "sample_id", "strategy", "metric", "value", "unscored_reason", "abstained"]
KEYS = ["kind", "domain", "n", "tags", "where", "flag"]
COLUMNS = [f"metadata.{k}" for k in KEYS]
# each sample's cells as the CSV writes them: JSON text, a string as itself, "" if absent
CELLS = {"a": ["paraphrase", "swimming pool", "", "", "", ""],
         "b": ["direct", "", "3", '["x", "y"]', '{"floor": 1}', "true"],
         "c": ["", "", "", "", "", ""]}


def _run(tmp_path: Path) -> ragassay.EvalResult:
    return ragassay.evaluate(ROWS, "judge", store=tmp_path / "r.db", progress=False)


def test_the_json_report_entries_carry_the_metadata(tmp_path: Path) -> None:
    run = _run(tmp_path)
    report = build_report(run.store, run.run_id)
    assert report.metadata_keys == KEYS
    assert [e.metadata for e in report.entries] == [
        {"kind": "paraphrase", "domain": "swimming pool"},
        {"kind": "direct", "n": 3, "tags": ["x", "y"], "where": {"floor": 1}, "flag": True},
        {}]
    doc = report_json(report)
    assert doc["metadata_keys"] == KEYS
    assert doc["detailed_results"][1]["metadata"]["where"] == {"floor": 1}
    # the streamed JSON (what `ragassay report` writes) is the same document
    out = io.StringIO()
    export(build_report(run.store, run.run_id, include_details=False), "json", out,
           iter_details(run.store, run.run_id))
    streamed = json.loads(out.getvalue())
    assert streamed["metadata_keys"] == KEYS
    assert [e["metadata"] for e in streamed["detailed_results"]] == [
        e["metadata"] for e in doc["detailed_results"]]


def test_the_csv_has_a_column_per_metadata_key_after_its_fields(tmp_path: Path) -> None:
    run = _run(tmp_path)
    shown = CliRunner().invoke(cli, ["report", run.run_id, "--format", "csv", "--db",
                                     str(tmp_path / "r.db")])
    assert shown.exit_code == 0, shown.output
    reader = csv.DictReader(io.StringIO(shown.stdout))
    assert reader.fieldnames == [*FIELDS, *COLUMNS]
    rows = list(reader)
    assert len(rows) == 3 * len(run.metrics)
    for row in rows:  # every metric's row of a sample carries its metadata
        assert [row[c] for c in COLUMNS] == CELLS[row["sample_id"]]


def test_the_parquet_results_have_the_metadata_as_text(tmp_path: Path) -> None:
    run = _run(tmp_path)
    report = build_report(run.store, run.run_id, include_details=False)
    export(report, "parquet", tmp_path / "pq", iter_details(run.store, run.run_id))
    table = pq.read_table(tmp_path / "pq")
    assert table.column_names == [*FIELDS, *COLUMNS]
    assert all(str(table.schema.field(c).type) == "string" for c in COLUMNS)
    for row in table.to_pylist():
        assert [row[c] for c in COLUMNS] == [
            v or None for v in CELLS[row["sample_id"]]]  # null where absent


def test_a_failed_row_has_empty_metadata_cells(tmp_path: Path) -> None:
    rows = [*ROWS, {"id": "bad", "question": "", "metadata": {"kind": "broken"}}]
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False,
                            skip_invalid=True)
    report = build_report(run.store, run.run_id)
    out = io.StringIO()
    export(report, "csv", out)
    [failed] = [r for r in csv.DictReader(io.StringIO(out.getvalue()))
                if r["sample_id"] == "bad"]
    assert failed["metric"] == "" and [failed[c] for c in COLUMNS] == [""] * len(COLUMNS)


def test_a_traced_sample_keeps_its_trace_in_trace_not_in_metadata(tmp_path: Path) -> None:
    data = write_otlp(tmp_path / "t.jsonl", [openinference_trace()])
    run = ragassay.evaluate(data, "trace", store=tmp_path / "t.db", progress=False)
    report = build_report(run.store, run.run_id)
    [entry] = report.entries
    assert entry.trace is not None and entry.metadata == {}
    assert report.metadata_keys == []
    out = io.StringIO()
    export(report, "csv", out)
    assert out.getvalue().splitlines()[0] == ",".join(FIELDS)


# -- many keys: one `metadata` column (review 6, item 6) --------------------------------


def _keyed(n: int) -> list[dict[str, object]]:
    """ROWS with `n` metadata keys in all, each sample's its own (ids as keys)."""
    counts = [n - n // 3 * 2, n // 3, n // 3]
    return [{**{f: row[f] for f in ("id", "question", "answer", "contexts")},
             "metadata": {f"doc-{row['id']}-{k}": k for k in range(count)}}
            for row, count in zip(ROWS, counts, strict=True)]


def test_up_to_the_cap_each_key_is_a_column(tmp_path: Path) -> None:
    run = ragassay.evaluate(_keyed(METADATA_KEYS_MAX), "judge", store=tmp_path / "r.db",
                            progress=False)
    report = build_report(run.store, run.run_id)
    assert len(report.metadata_keys or []) == METADATA_KEYS_MAX and not report.metadata_json
    assert csv_fields(report)[len(FIELDS):] == tuple(
        f"metadata.{k}" for k in report.metadata_keys or [])


def test_beyond_the_cap_the_metadata_is_one_json_column(tmp_path: Path) -> None:
    """Keys that differ per sample made a column per key on every row (800 such samples:
    806 CSV columns, 3.5 MB for 0.2; at 100k, tens of GB). Beyond METADATA_KEYS_MAX keys
    the CSV, the Parquet results and to_pandas() have one `metadata` column, each
    sample's metadata as JSON text, and the CLI says so once where it writes them."""
    rows = _keyed(METADATA_KEYS_MAX + 1)
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = tmp_path / "r.db"
    evaluated = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db",
                                         str(db), "--results-parquet", str(tmp_path / "pq")])
    assert evaluated.exit_code == 0, evaluated.output
    assert evaluated.stderr.count(METADATA_JSON_NOTE) == 1
    own = {str(r["id"]): r["metadata"] for r in rows}
    table = pq.read_table(tmp_path / "pq")
    assert table.column_names == [*FIELDS, "metadata"]
    assert all(json.loads(r["metadata"]) == own[r["sample_id"]] for r in table.to_pylist())

    shown = CliRunner().invoke(cli, ["report", "--format", "csv", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    assert shown.stderr.strip() == f"note: {METADATA_JSON_NOTE}"
    reader = csv.DictReader(io.StringIO(shown.stdout))
    assert reader.fieldnames == [*FIELDS, "metadata"]
    assert all(json.loads(r["metadata"]) == own[r["sample_id"]] for r in reader)
    assert "'metadata' column holds each sample's metadata as JSON text" in METADATA_JSON_NOTE

    with Store(db) as store:
        [run] = store.list_runs()
        frame = ragassay.EvalResult(store, run.id).to_pandas()
    assert [c for c in frame.columns if c.startswith("metadata")] == ["metadata"]
    assert [json.loads(v) for v in frame["metadata"]] == list(own.values())

    doc = json.loads(CliRunner().invoke(cli, ["report", "--db", str(db)]).stdout)
    assert doc["metadata_json"] is True and "metadata_keys" not in doc
    assert [e["metadata"] for e in doc["detailed_results"]] == list(own.values())


def test_a_sample_without_metadata_has_an_empty_json_cell(tmp_path: Path) -> None:
    rows = [*_keyed(METADATA_KEYS_MAX + 1), {**ROWS[2], "id": "bare", "metadata": {}}]
    run = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False)
    out = io.StringIO()
    export(build_report(run.store, run.run_id), "csv", out)
    cells = {r["sample_id"]: r["metadata"] for r in csv.DictReader(io.StringIO(out.getvalue()))}
    assert cells["bare"] == "" and json.loads(cells["a"]) == rows[0]["metadata"]
    assert pd.isna(run.to_pandas().set_index("id").loc["bare", "metadata"])


def test_only_a_per_sample_output_reads_the_metadata_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys are a scan of every sample's metadata: every report read them (the
    summaries of `runs show` and `summary()`, the HTML), not only those writing a
    per-sample table; a report built without them refuses to make one."""
    run = _run(tmp_path)
    db = str(tmp_path / "r.db")
    scans: list[str] = []
    real = Store.sample_metadata_keys

    def counted(self: Store, *args: object, **kwargs: object) -> list[str] | None:
        scans.append("keys")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "sample_metadata_keys", counted)
    for args in (["runs", "show", "--db", db], ["report", "--format", "html", "--db", db]):
        assert CliRunner().invoke(cli, args).exit_code == 0
    run.summary()
    run.report("html")
    summary = build_report(run.store, run.run_id, include_details=False, per_sample=False)
    assert scans == [] and summary.metadata_keys is None
    assert "metadata_keys" not in report_json(summary)
    with pytest.raises(ValueError, match=r"built without its samples' metadata keys"):
        export(summary, "csv", io.StringIO(), iter_details(run.store, run.run_id))
    for fmt in ("csv", "json"):
        assert CliRunner().invoke(cli, ["report", "--format", fmt, "--db", db]).exit_code == 0
    assert scans == ["keys", "keys"]


# -- a user's `trace` key stored before the loader refused it (review 6, item 11) ------


def test_a_stored_trace_string_is_metadata_and_the_report_does_not_crash(
        tmp_path: Path) -> None:
    """Stores written before the loader refused a user's `metadata.trace` hold one (a
    trace id): `ragassay report` crashed on it (pydantic `json_invalid` in the hops
    section), and the metadata columns dropped it. It is the user's metadata."""
    run = _run(tmp_path)
    with sqlite3.connect(tmp_path / "r.db") as conn:
        conn.execute("UPDATE samples SET sample = json_set(sample, '$.metadata.trace', "
                     "'t-123') WHERE sample_id = 'a'")
    db = str(tmp_path / "r.db")
    shown = CliRunner().invoke(cli, ["report", "--db", db])
    assert shown.exit_code == 0, shown.output
    doc = json.loads(shown.stdout)
    assert "hops" not in doc and doc["metadata_keys"] == [*KEYS[:2], "trace", *KEYS[2:]]
    first = doc["detailed_results"][0]
    assert first["metadata"]["trace"] == "t-123" and "trace" not in first
    table = CliRunner().invoke(cli, ["report", "--format", "csv", "--db", db])
    assert {r["sample_id"]: r["metadata.trace"] for r in csv.DictReader(
        io.StringIO(table.stdout))} == {"a": "t-123", "b": "", "c": ""}
    assert run.to_pandas().set_index("id").loc["a", "metadata.trace"] == "t-123"
