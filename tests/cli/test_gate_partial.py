"""Trial 61, finding 5: the default gate passed trace.completeness at 0.8022 >= 0.8 on 112
of 130 samples (18 unscored), said only inside a wrapped cell after 13 warning lines. A
PASS with more than a tenth of its samples unscored says so in its verdict (`PASS on 4
of 5`), in a warning, on the READY line and, typed, in `GateCheck.to_dict()`
(`partial`); the exit code is unchanged."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.stats import gate
from ragassay.stats.gate import GateCheck
from tests.cli.test_gate_unscored import SCORED
from tests.cli.test_setup_mistakes import invoke, rows


def _gate(tmp_path: Path, empty: int) -> tuple[CliRunner, Path, Path]:
    """A trace run of 4 scored answers and `empty` empty ones (unscored: empty answer),
    and a config gating trace.completeness at 0.5."""
    db = tmp_path / "r.db"
    items = [dict(SCORED, id=f"s{i}") for i in range(4)] + [
        {"id": f"e{i}", "question": f"What is fact {i}?", "contexts": [f"Fact {i} is {i}."],
         "answer": ""} for i in range(empty)]
    assert invoke("eval", rows(tmp_path / "d.jsonl", items), "--db", db, "-q", "--metrics",
                  "trace").exit_code == 0
    cfg = tmp_path / "t.toml"
    cfg.write_text('[thresholds]\n"trace.completeness" = 0.5\n', encoding="utf-8")
    return CliRunner(), db, cfg


def test_a_pass_on_most_but_not_all_samples_is_qualified(tmp_path: Path) -> None:
    runner, db, cfg = _gate(tmp_path, empty=1)  # 1 of 5 unscored: 20%, not most
    result = runner.invoke(cli, ["gate", "--db", str(db), "--config", str(cfg)])
    assert result.exit_code == 0, result.output  # still READY: exit codes unchanged
    row = next(x for x in result.stdout.splitlines() if "trace.completeness" in x)
    assert "PASS on 4 of 5 (mean " in row, row
    assert result.stdout.splitlines()[-1] == (
        "READY, but trace.completeness passes on 4 of 5 samples only (1 unscored)")
    assert ("warning: trace.completeness passes on 4 of 5 samples only (1 unscored): its bar "
            "says nothing of the others") in result.stderr


def test_partial_is_a_typed_field_of_the_check() -> None:
    from ragassay.stats.gate import PARTIAL_SHARE

    def check(scored: int, unscored: int) -> GateCheck:
        return GateCheck("trace.completeness", 0.8, 0.81, "PASS", "", True, None, scored,
                         unscored)

    assert PARTIAL_SHARE == 0.1
    assert check(112, 18).to_dict()["partial"] is True and check(112, 18).verdict == (
        "PASS on 112 of 130")
    assert check(9, 1).to_dict()["partial"] is False and check(9, 1).verdict == "PASS"
    assert check(10, 0).to_dict()["partial"] is False
    failed = GateCheck("m.x", 0.8, 0.5, "FAIL", "", True, None, 1, 9)
    assert failed.partial and failed.verdict == "FAIL"  # a FAIL is a FAIL


def test_the_api_gate_marks_a_partial_check(tmp_path: Path) -> None:
    import ragassay

    run = ragassay.evaluate(str(rows(tmp_path / "d.jsonl", [
        dict(SCORED, id=f"s{i}") for i in range(4)] + [
        {"id": "e", "question": "What is fact 1?", "contexts": ["Fact 1 is 1."],
         "answer": ""}])), "trace", store=tmp_path / "r.db", progress=False)
    from ragassay.report import run_table
    from ragassay.store import Store

    with Store(tmp_path / "r.db", readonly=True) as store:
        table = run_table(store, run.run_id).table
    out = gate(table, {"trace.completeness": 0.5}).checks[0].to_dict()
    assert (out["status"], out["scored"], out["unscored"], out["partial"]) == (
        "PASS", 4, 1, True)
