"""The typed report: its JSON is its dump (statistics rounded, optional sections left
out), the published JSON Schema describes it, and `export` writes every format."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report import (
    REPORT_VERSION,
    BenchFigures,
    LeaderboardRow,
    Report,
    build_report,
    export,
    iter_details,
    published,
    report_json,
    schema,
)
from ragassay.store import Store


@pytest.fixture
def report(run: tuple[Store, str]) -> Report:
    store, run_id = run
    return build_report(store, run_id)


def test_the_json_report_satisfies_its_published_schema(report: Report) -> None:
    doc = report_json(report)
    jsonschema.Draft202012Validator.check_schema(schema())
    jsonschema.validate(doc, schema())
    assert doc["evaluation_metadata"]["report_version"] == REPORT_VERSION
    assert schema()["title"].endswith(f"(report_version {REPORT_VERSION})")
    broken = {**doc, "usage": {**doc["usage"], "calls": "many"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema())


def test_a_bench_runs_sections_satisfy_the_schema_too(report: Report) -> None:
    row = LeaderboardRow.model_validate({"strategy": "a", "metric": "judge.x", "mean": 0.5,
                                         "retrieval.recall": 1.0, "rank": 1, "vs_best": "best"})
    figures = BenchFigures(name="b", rank_by=None, n_documents=1, n_questions=1,
                           strategies=[])
    bench = report.model_copy(update={"leaderboard": [row], "bench": figures,
                                      "bench_config": {}, "leaderboard_error": None})
    doc = report_json(bench)
    jsonschema.validate(doc, schema())
    # a row is written as the bench stored it: only the fields it was stored with
    assert doc["leaderboard"] == [{"strategy": "a", "metric": "judge.x", "mean": 0.5,
                                   "retrieval.recall": 1.0, "rank": 1, "vs_best": "best"}]
    assert row.retrieval_recall == 1.0 and row.failed == 0  # read with defaults


def test_optional_sections_are_left_out_rather_than_null(report: Report) -> None:
    doc = report_json(report)
    # labels exist in this run, so calibration is there; a run without any has none
    assert "calibration" in doc and report.calibration is not None
    bare = report_json(report.model_copy(update={"calibration": None}))
    assert "calibration" not in bare
    for key in ("leaderboard", "bench", "bench_config", "leaderboard_error"):
        assert key not in doc  # not a bench run
    assert "detailed_results" not in report_json(report.model_copy(
        update={"detailed_results": None}))
    assert doc["evaluation_metadata"]["judge_reliability"] == {}  # none stored: {}


def test_statistics_are_rounded_for_publication_only(report: Report) -> None:
    raw = report.aggregate_metrics.metrics["judge.x"]
    shown = published(report).aggregate_metrics.metrics["judge.x"]
    assert raw.ci_low is not None and shown.ci_low == round(raw.ci_low, 6)
    assert raw.ci_low != shown.ci_low  # the bootstrap bound has more digits than 6
    assert report_json(report)["aggregate_metrics"]["metrics"]["judge.x"]["ci_low"] == (
        shown.ci_low)
    # per-sample values are written as stored
    entry = report.entries[0]
    assert report_json(report)["detailed_results"][0]["metrics"] == entry.metrics


@pytest.mark.parametrize("fmt", ["json", "csv", "html"])
def test_export_writes_each_format_to_a_file_or_a_stream(run: tuple[Store, str], tmp_path: Path,
                                                         fmt: str) -> None:
    store, run_id = run
    whole = build_report(store, run_id)
    summary = build_report(store, run_id, include_details=False)
    stream = io.StringIO()
    assert export(whole, fmt, stream) == []  # type: ignore[arg-type]
    out = tmp_path / f"r.{fmt}"
    streamed = None if fmt == "html" else iter_details(store, run_id)
    assert export(whole if fmt == "html" else summary, fmt, out,  # type: ignore[arg-type]
                  streamed) == [out]
    if fmt == "json":  # streamed entries: the same document as the whole report's
        got, want = json.loads(out.read_text()), json.loads(stream.getvalue())
        # (but for when each was built: two builds may fall in two seconds)
        for doc in (got, want):
            assert doc["evaluation_metadata"].pop("generated")
        assert got == want
    else:
        assert out.read_text() == stream.getvalue()


def test_export_refuses_what_it_cannot_write(report: Report, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="format must be one of json, csv, html, parquet"):
        export(report, "xml", tmp_path / "r.xml")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="folder"):
        export(report, "parquet", io.StringIO())
    assert [p.name for p in export(report, "parquet", tmp_path / "pq")] == ["part-00000.parquet"]


def test_report_schema_is_printed_by_the_cli(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["report", "--schema"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == schema()
    out = tmp_path / "schema.json"
    result = CliRunner().invoke(cli, ["report", "--schema", "--out", str(out)])
    assert result.exit_code == 0 and json.loads(out.read_text()) == schema()


def test_metric_specs_give_every_metric_the_target_the_flags_show(tmp_path: Path) -> None:
    """judge.overall and the trace metrics declare no target of their own: the JSON's
    `metric_specs` gave `target: null` for them while the flags, the console and the gate
    showed >= 8 and >= 0.8 (trial 50); every spec now says the target its flag states."""
    rows = (Path(__file__).resolve().parents[2] / "examples" / "labels" / "data.jsonl"
            ).read_text().splitlines()[:6]
    data = tmp_path / "d.jsonl"
    data.write_text("\n".join(rows) + "\n")
    db, out = tmp_path / "r.db", tmp_path / "r.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["eval", str(data), "--metrics", "judge,trace", "--db", str(db)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["report", "--out", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    specs = doc["metric_specs"]
    assert {"judge.overall", "trace.completeness", "trace.adherence"} <= set(specs)
    assert all(s["target"] is not None for s in specs.values()), specs
    # a verdict's rate with no target of its own: the generic rule on its range
    assert specs["trace.adherence"]["target"] == {"good": 0.8, "warning": 0.6}
    # under the offline judge a score's soft target, its own line (trial 65)
    assert specs["judge.overall"]["target"] == {"good": 5.5, "warning": 4.6}
    assert specs["judge.overall"]["soft"] is True
    for flag in doc["interpretation"]:
        target = specs[flag["metric"]]["target"]
        rel = ">=" if specs[flag["metric"]]["higher_is_better"] else "<="
        assert f"target {rel} {target['good']:g}" in flag["message"], (flag, target)
