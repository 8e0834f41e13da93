"""A sample's metadata reaches every per-sample output: the JSON report's entries (typed,
`SampleEntry.metadata`, with the run's `metadata_keys`), the CSV (`ragassay report
--format csv`) and the Parquet results, one `metadata.<key>` column per key after the
existing columns (a new-user trial: {"kind": ..., "domain": ...} appeared nowhere)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli
from ragassay.report import build_report, export, iter_details, report_json
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
FIELDS = ["run_id", "sample_id", "strategy", "metric", "value", "unscored_reason"]
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
