"""Parquet export: the CSV's rows, typed, as a dataset of part files."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from ragassay.report import build_report, csv_rows, iter_details, write_parquet
from ragassay.store import Store
from tests.report.conftest import make_report


def test_the_parquet_dataset_holds_the_csv_rows_typed(run: tuple[Store, str],
                                                      tmp_path: Path) -> None:
    store, run_id = run
    report = build_report(store, run_id, include_details=False)
    files = write_parquet(report, tmp_path / "out", iter_details(store, run_id))
    assert [f.name for f in files] == ["part-00000.parquet"]
    table = pq.read_table(tmp_path / "out")
    assert table.schema.field("value").type == "double"
    got = table.to_pylist()
    expected = list(csv_rows(report, iter_details(store, run_id)))
    assert len(got) == len(expected) == 10 * 2 + 1  # 10 judged x 2 suites, 1 invalid
    for row, want in zip(got, expected, strict=True):
        assert (row["sample_id"], row["strategy"]) == (want["sample_id"], want["strategy"])
        assert row["metric"] == (want["metric"] or None)
        assert row["value"] == (None if want["value"] == "" else float(want["value"]))
        assert row["unscored_reason"] == (want["unscored_reason"] or None)
    invalid = [r for r in got if r["sample_id"] == "bad"]
    assert invalid == [{"run_id": run_id, "sample_id": "bad", "strategy": "default",
                        "metric": None, "value": None,
                        "unscored_reason": "d.jsonl:5: no question", "abstained": None,
                        "label.good": None}]
    assert any(r["unscored_reason"] == "judge timed out" and r["value"] is None for r in got)


def test_large_exports_are_split_and_a_rewrite_replaces_the_old_parts(
        run: tuple[Store, str], tmp_path: Path) -> None:
    store, run_id = run
    report = build_report(store, run_id, include_details=False)
    out = tmp_path / "out"
    parts = write_parquet(report, out, iter_details(store, run_id), rows_per_group=4,
                          groups_per_file=2)
    assert len(parts) == 3  # 21 rows in groups of 4, two groups a file
    assert pq.read_table(out).num_rows == 21
    (out / "notes.txt").write_text("kept")
    again = write_parquet(report, out, iter_details(store, run_id))
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt", "part-00000.parquet"]
    assert again == [out / "part-00000.parquet"] and pq.read_table(again[0]).num_rows == 21


def test_an_empty_run_still_has_the_schema(tmp_path: Path) -> None:
    write_parquet(make_report(run_id="r"), tmp_path / "out", [])
    table = pq.read_table(tmp_path / "out")
    assert table.num_rows == 0 and table.column_names == [
        "run_id", "sample_id", "strategy", "metric", "value", "unscored_reason", "abstained"]


def test_report_format_parquet_writes_the_folder_and_without_out_names_how(
        tmp_path: Path, demo_data: Path) -> None:
    """Trial 69: `report --format parquet` was refused (not a choice) though `export()`
    writes parquet; it writes the folder now, and without --out one line says how."""
    from click.testing import CliRunner

    from ragassay.cli import cli

    db = tmp_path / "r.db"
    done = CliRunner().invoke(cli, ["eval", str(demo_data), "--db", str(db), "--metrics",
                                    "judge", "--quiet"])
    assert done.exit_code == 0, done.output
    out = tmp_path / "results"
    done = CliRunner().invoke(cli, ["report", "--format", "parquet", "--out", str(out),
                                    "--db", str(db)])
    assert done.exit_code == 0, done.output
    table = pq.read_table(out)
    assert table.num_rows > 0 and "abstained" in table.column_names
    done = CliRunner().invoke(cli, ["report", "--format", "parquet", "--db", str(db)])
    assert done.exit_code == 2
    assert "give --out FOLDER (e.g. ragassay report RUN --format parquet --out results/)" \
        in " ".join(done.output.split())
