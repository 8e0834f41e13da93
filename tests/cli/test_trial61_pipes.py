"""Trial 61, findings 1-2: tables sent to a file or a pipe (no COLUMNS: 100 wide).

1. `ragassay compare RUN_A RUN_B > compare.log` gave number columns 3 characters wide:
   `0.6` / `08` (0.608 read as 0.6), `ide` / `nti` / `cal`. Every cell of the comparison
   is now whole on its line: one table where it fits, else the fewest that do.
2. `ragassay trend data.jsonl --metric judge.hallucination | cat` split the run id
   (`20261205-090849-ab6` / `c`); `runs list` did too. An id stays whole (copyable)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.console import PIPED_WIDTH
from tests.support.grouped import probe_rows

DECLINE = "I don't have information about that."


def run(*args: str, columns: str | None = None) -> str:
    """stdout of the command (exit 0 asserted); COLUMNS unset: a pipe."""
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two runs of every suite (the long metric names, abstentions.*) of 24 rows, the
    second's answers declining or inventing in turn, and a rerun of the first data."""
    tmp = tmp_path_factory.mktemp("pipes")
    a_rows = probe_rows(24)
    b_rows = [dict(r, answer=DECLINE if i % 4 == 0 else r["answer"] + " It also exports PDF."
                   if i % 4 == 1 else r["answer"]) for i, r in enumerate(a_rows)]
    db, ids = tmp / "r.db", []
    for name, rows in (("a", a_rows), ("b", b_rows), ("a", a_rows)):
        data = tmp / f"{name}.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows))
        run("eval", str(data), "--metrics", "judge,trace,ragas", "--db", str(db), "-q")
        listed = json.loads(run("runs", "list", "--db", str(db), "--format", "json"))
        ids.append(listed[0]["id"])
    return {"db": str(db), "ids": ids, "a": str(tmp / "a.jsonl")}


def _lines_of(out: str, first: str) -> list[str]:
    """The table lines whose first word is `first` (a metric's row, in each table)."""
    return [line for line in out.splitlines() if line.split()[:1] == [first]]


def test_compare_in_a_pipe_splits_no_number_and_no_word(runs: dict[str, Any]) -> None:
    a, b = runs["ids"][:2]
    out = run("compare", a, b, "--db", runs["db"])
    assert max(len(line) for line in out.splitlines() if "│" not in line and not
               line.startswith(("verdict:", "not scored:", "constant:", "paired",
                                   "abstention outcome changed"))
               ) <= PIPED_WIDTH
    metrics = json.loads(run("compare", a, b, "--db", runs["db"], "--json"))["metrics"]
    assert "abstentions.false_abstention_rate" in metrics  # the longest name, 33 wide
    for name, m in metrics.items():
        rows = _lines_of(out, name)
        assert rows, name
        words = " ".join(rows).split()
        # each figure whole on its metric's line (the interval's two ends on their own)
        for value in (m["mean_a"], m["mean_b"], m["diff"], m["margin"]):
            assert (f"{value:.3f}" if value is not None else "-") in words, (name, rows)
        if m["effect_size"] is not None:
            assert f"{m['effect_size']:.2f}" in words, (name, rows)
        if m["ci_low"] is not None:
            assert f"[{m['ci_low']:.3f}," in words, (name, rows)
        assert m["verdict"] in " ".join(rows), (name, rows)
    assert "identical" in out.split() or "negligible" in out.split()


def test_compare_on_a_wide_console_is_one_table(runs: dict[str, Any]) -> None:
    a, b = runs["ids"][:2]
    out = run("compare", a, b, "--db", runs["db"], columns="200")
    row = _lines_of(out, "judge.hallucination")
    assert len(row) == 1 and row[0].rstrip().endswith("unclear"), row
    assert "(Holm)" in out and "(unadjusted)" in out and ", continued" not in out


def test_trend_and_runs_list_in_a_pipe_keep_run_ids_whole(runs: dict[str, Any]) -> None:
    trend = run("trend", runs["a"], "--metric", "judge.hallucination", "--db", runs["db"])
    listed = run("runs", "list", "--db", runs["db"])
    for out, ids in ((trend, [runs["ids"][0], runs["ids"][2]]), (listed, runs["ids"])):
        for run_id in ids:
            assert any(run_id in line.split() for line in out.splitlines()), (run_id, out)
        assert max(len(line) for line in out.splitlines()) <= PIPED_WIDTH
    # the time a run was created, as runs list says it, not 32 characters of ISO time
    assert "T" not in "".join(line.split("│")[2] for line in trend.splitlines()
                              if runs["ids"][0] in line)
