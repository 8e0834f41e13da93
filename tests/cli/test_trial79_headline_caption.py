"""New-user trial 79: `ragassay runs show` put what the headline's figures mean under its
table as one long paragraph (`people (all labelled): ...; in this run: ...; right on:
...; judge's own: ...`). It now says a figure a line with its meaning
(`Headline.note_lines`), at any width, while the JSON's `headline.note` keeps them in one
cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.report.headline_notes import (
    ALL_LABELLED_NOTE,
    HELD_APART_NOTE,
    IN_RUN_NOTE,
    JUDGE_NOTE,
    SCORED_NOTE,
    VERDICT_NOTE,
)
from tests.support.verdicts import labelled_rows

MEANINGS = [ALL_LABELLED_NOTE, IN_RUN_NOTE, VERDICT_NOTE, HELD_APART_NOTE, JUDGE_NOTE,
            SCORED_NOTE]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, object]]:
    """A small labelled run (20 answers, 3 declines) in its store, and its headline."""
    tmp = tmp_path_factory.mktemp("caption")
    data, db, out = tmp / "d.jsonl", tmp / "r.db", tmp / "r.json"
    data.write_text("".join(json.dumps(r) + "\n"
                            for r in labelled_rows(answers=20, abstaining=3, marked=1)))
    done = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", str(db),
                                    "--out", str(out), "-q"])
    assert done.exit_code == 0, done.output
    doc = json.loads(out.read_text())
    return db, doc["evaluation_metadata"]["run_id"], doc["headline"]


def _show(db: Path, run_id: str, columns: int) -> list[str]:
    done = CliRunner().invoke(cli, ["runs", "show", run_id, "--db", str(db)],
                              env={"COLUMNS": str(columns)})
    assert done.exit_code == 0, done.output
    return [line.rstrip() for line in done.output.splitlines()]


def test_a_wide_console_says_each_figure_on_its_own_line(
        run: tuple[Path, str, dict[str, object]]) -> None:
    db, run_id, head = run
    lines = _show(db, run_id, 250)
    at = [lines.index(meaning) for meaning in MEANINGS]  # each whole, alone on its line
    assert at == sorted(at) and at[-1] - at[0] == len(MEANINGS) - 1, at
    assert head["note"] == "; ".join(MEANINGS)  # the JSON's cell: unchanged


def test_a_narrow_console_starts_a_line_at_each_figure(
        run: tuple[Path, str, dict[str, object]]) -> None:
    db, run_id, _ = run
    lines = _show(db, run_id, 100)
    for meaning in MEANINGS:  # wrapped, but each starts a line of its own
        assert any(line.startswith(meaning[:40]) for line in lines), (meaning, lines)
