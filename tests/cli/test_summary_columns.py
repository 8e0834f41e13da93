"""The per-suite tables' last column says what it counts (issue #38 item 8): questions on
which a metric of the suite has no value for a reason other than a missing input, under
the header "unscored" (it read "failed"), with a line naming what it counts when not 0."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli


def _eval(tmp_path: Path, rows: list[dict[str, object]], metrics: str,
          out: Path | None = None) -> str:
    """`ragassay eval` of the rows on a wide console: its output (exit 0 asserted)."""
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["eval", "-v", str(data), "--metrics", metrics, "--db", str(tmp_path / "s.db")]
    result = CliRunner().invoke(cli, args + (["--out", str(out)] if out else []),
                                env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_unscored_column_names_what_it_counts(tmp_path: Path) -> None:
    rows = [{"id": "ok", "question": "How long do refunds take?",
             "contexts": ["Refunds take 30 days."], "answer": "Refunds take 30 days."},
            {"id": "off", "question": "How long do refunds take?",  # nothing relevant
             "contexts": ["The office plant is watered on Mondays."], "answer": "Thirty days."}]
    out = tmp_path / "r.json"
    output = _eval(tmp_path, rows, "trace", out)
    report = json.loads(out.read_text())
    unscored = report["strategies"]["default"]["failed"]["trace"]
    assert unscored == 1  # completeness: no relevant context sentences
    said = " ".join(output.split())
    assert "┃ unscored ┃" in output and "┃ failed ┃" not in output
    assert ("unscored (last column): the questions on which some trace metric has no value "
            "for a reason other than a missing input") in said


def test_the_unscored_note_names_no_other_suites_reason(tmp_path: Path) -> None:
    """New-user trial 56: `eval cited16.jsonl --metrics citations` explained the citations
    table's unscored column "such as completeness with no relevant context", a trace
    metric's reason; the note is generic, the reasons are the lines below it."""
    rows = [{"id": "cites", "question": "How long do refunds take?",
             "contexts": ["Refunds take 30 days."], "answer": "Refunds take 30 days [1]."},
            {"id": "bare", "question": "How long do refunds take?",
             "contexts": ["Refunds take 30 days."], "answer": "Refunds take 30 days."}]
    said = " ".join(_eval(tmp_path, rows, "citations").split())
    assert ("unscored (last column): the questions on which some citations metric has no "
            "value for a reason other than a missing input (a failed judge call, or a value "
            "the metric cannot give on that question)") in said
    assert "completeness" not in said
    assert "the answer cites nothing" in said  # the reason, said by the lines below


def test_a_judge_table_with_no_references_says_what_its_unscored_column_leaves_out(
        tmp_path: Path) -> None:
    """New-user trial 62: with no reference answers the judge table showed answer
    similarity `-` beside `unscored 0` while the aggregate table showed it unscored on
    every sample, with no line saying missing references are not counted."""
    rows: list[dict[str, object]] = [
        {"id": f"q{i}", "question": "Is parking free?", "answer": "Parking is free.",
         "contexts": ["Parking is free for visitors."]} for i in range(3)]
    out = tmp_path / "r.json"
    said = " ".join(_eval(tmp_path, rows, "judge", out).split())
    assert json.loads(out.read_text())["strategies"]["default"]["failed"].get("judge", 0) == 0
    assert ("unscored (last column): the questions on which some judge metric has no value "
            "for a reason other than a missing input") in said
    assert "missing references and declines are not counted" in said
