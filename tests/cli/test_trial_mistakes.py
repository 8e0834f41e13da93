"""Mistakes a new-user trial (2026-12-02) found passing quietly: each now stops with one
line, or is said so, and the command exits non-zero."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.cli.test_setup_mistakes import good, invoke, one_line_error, rows


def _run_id(db: Path) -> str:
    with Store(db, readonly=True) as store:
        runs = store.list_runs()
    assert len(runs) == 1
    return runs[0].id


def test_gate_does_not_pass_an_unfinished_run(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    data = rows(tmp_path / "d.jsonl", [good(i) for i in range(4)])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "ragas").exit_code == 0
    cfg = tmp_path / "t.toml"
    cfg.write_text('[thresholds]\n"ragas.faithfulness" = 0.1\n', encoding="utf-8")
    assert invoke("gate", "--db", db, "--config", cfg).exit_code == 0  # complete: READY
    run_id = _run_id(db)
    with Store(db) as store:
        store.finish_run(run_id, "interrupted")
    result = CliRunner().invoke(cli, ["gate", "--db", str(db), "--config", str(cfg)])
    assert result.exit_code == 1, result.output
    assert f"warning: run {run_id} is interrupted, not complete" in result.stderr
    assert f"(finish it with ragassay eval {data} --resume {run_id})" in result.stderr
    assert result.stdout.strip().endswith("NOT READY (run interrupted)")


def test_resume_refuses_a_changed_dataset_another_judge_or_other_metrics(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.db"
    data = rows(tmp_path / "d.jsonl", [good(i) for i in range(3)])
    assert invoke("eval", data, "--db", db, "-q", "--metrics", "judge").exit_code == 0
    run_id = _run_id(db)
    base = ("eval", data, "--db", db, "-q", "--resume", run_id)
    one_line_error(invoke(*base, "--metrics", "ragas"),
                   f"run {run_id} was evaluated with --metrics judge: resume with the same")
    one_line_error(invoke(*base, "--judge", "openai:x"),
                   f"run {run_id} was evaluated with --judge offline: resume with the same")
    # the same values given again, or none, resume
    assert invoke(*base, "--metrics", "judge", "--judge", "offline").exit_code == 0
    assert invoke(*base).exit_code == 0
    rows(data, [good(i) for i in range(3)] + [good(9)])  # the file changed
    one_line_error(invoke(*base), f"{data} changed since run {run_id} started")


def test_the_report_cannot_overwrite_the_dataset(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [good(1)])
    before = data.read_text(encoding="utf-8")
    one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "--out", data),
                   "--out")
    assert data.read_text(encoding="utf-8") == before


def test_a_map_to_a_column_no_row_has_is_refused(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [{**good(1), "extra": "x"}])
    out = one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "--map",
                                "answer=nonexist"),
                         "d.jsonl: --map answer=nonexist: no row has a column 'nonexist'")
    assert "unknown columns: extra" in out


def test_no_metric_suite_is_a_mistake(tmp_path: Path) -> None:
    data = rows(tmp_path / "d.jsonl", [good(1)])
    for given in ("", ",,"):
        one_line_error(invoke("eval", data, "--db", tmp_path / "r.db", "--metrics", given),
                       "no metric suite named; choose from judge, trace, ragas")
    assert not (tmp_path / "r.db").exists() or _runs(tmp_path / "r.db") == []


def _runs(db: Path) -> list[str]:
    with Store(db, readonly=True) as store:
        return [r.id for r in store.list_runs()]


def test_nan_and_inf_options_are_refused_before_anything_runs(tmp_path: Path) -> None:
    """click's ranges let nan through; an inf timeout was stored as null, and the run
    could not be read back."""
    data = rows(tmp_path / "d.jsonl", [good(1)])
    db = tmp_path / "r.db"
    for value, why in (("nan", "'nan' is not a finite number"),
                       ("inf", "'inf' is not a finite number"),
                       ("-inf", "-inf is not in the range x>=1")):
        result = invoke("eval", data, "--db", db, "-q", "--timeout", value)
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert f"Invalid value for '--timeout': {why}" in result.output, result.output
    assert not db.exists() or _runs(db) == []
    for value, why in (("nan", "is not a finite number"), ("2", "is not in the range 0<x<1"),
                       ("0", "is not in the range 0<x<1")):
        result = invoke("compare", "A", "B", "--db", db, "--alpha", value)
        assert result.exit_code == 2 and why in result.output, result.output
