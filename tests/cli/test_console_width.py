"""New-user trial (144 labelled rows, nine kinds of 16, the `decline` kind's answers all
but one declining), through the real CLI:

1. the tables were about 150 characters wide whatever COLUMNS said when output was piped
   (`COLUMNS=80 ragassay runs show RUN | head`): the console now takes COLUMNS, and
   without it a pipe gets `console.PIPED_WIDTH`; a narrowed table wraps and folds its
   cells, never cuts a figure (`0.05…`);
2. `--by kind` read "hallucination rate 1.00 (1 scored, 15 abstained)" for the declines,
   alphabetically among the kinds: a figure over few of its group's samples now leads
   with their counts, and the kinds keep the data's order."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.console_tables import table_cell
from tests.support.grouped import TRIAL_KINDS, write_declines_probe


def run(*args: str, columns: str | None) -> str:
    """stdout of the command (exit 0 asserted), with COLUMNS set or unset (a pipe)."""
    result = CliRunner().invoke(cli, list(args), env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("width")
    data, db, out = write_declines_probe(tmp / "probe.jsonl"), tmp / "r.db", tmp / "r.json"
    printed = run("eval", "-v", str(data), "--metrics", "judge", "--by", "kind", "--db", str(db),
                  "--out", str(out), columns="80")
    with Store(db, readonly=True) as store:
        run_id = store.list_runs()[0].id
    return {"db": str(db), "run": run_id, "eval": printed,
            "report": json.loads(out.read_text())}


def _widest(out: str) -> int:
    return max(len(line) for line in out.splitlines())


def test_columns_sets_the_width_of_eval_and_runs_show(trial: dict[str, Any]) -> None:
    shown = run("runs", "show", trial["run"], "--by", "kind", "--db", trial["db"],
                columns="80")
    for out in (trial["eval"], shown):
        assert "judge suite by kind" in out and "every sample labelled" in out
        assert _widest(out) <= 80, [line for line in out.splitlines() if len(line) > 80]
        assert "…" not in out  # a narrowed cell wraps or folds; nothing is cut


def test_a_pipe_without_columns_gets_the_piped_width(trial: dict[str, Any]) -> None:
    """Its tables, that is: the lines of text between them are not wrapped (trial 76)."""
    from ragassay.console import PIPED_WIDTH

    shown = run("runs", "show", trial["run"], "--by", "kind", "--db", trial["db"],
                columns=None)
    tables = "\n".join(line for line in shown.splitlines() if set(line) & set("│┃─━"))
    assert 80 < _widest(tables) <= PIPED_WIDTH and "…" not in shown
    assert _widest(shown) > PIPED_WIDTH


def test_the_declines_lead_with_their_counts_and_the_kinds_keep_the_datas_order(
        trial: dict[str, Any]) -> None:
    shown = run("runs", "show", trial["run"], "--by", "kind", "--db", trial["db"],
                columns="250")
    title = "judge suite by kind"
    assert table_cell(shown, title, "decline", 5) == "15 abstained; 1 scored: 1.00"
    assert table_cell(shown, title, "pricing", 5).startswith("0.")  # all scored: the rate
    table = shown[shown.index(title):].split("└", 1)[0]
    listed = [line.split("│")[1].strip() for line in table.splitlines()
              if line.startswith("│") and line.split("│")[1].strip()]
    assert listed == list(TRIAL_KINDS)
    # the JSON of `eval --out` lists them alike, and counts what the cell says
    groups = trial["report"]["groups"]["groups"]
    assert [g["value"] for g in groups] == list(TRIAL_KINDS)
    figure = next(g for g in groups if g["value"] == "decline")["metrics"][
        "judge.hallucination"]
    assert (figure["mean"], figure["count"], figure["abstained"]) == (1.0, 1, 15)


SPLIT_FIGURE = re.compile(r"\[-?\d+\.\d+,\s*│|│\s*-?\d+\.\d+\]")
"""A figure's interval split over two lines of a table cell (`[0.53,` over `0.70]`)."""


def _headline_rows(out: str) -> list[int]:
    """How many lines each row of the headline table takes."""
    table = out[out.index("What people would say"):].split("└", 1)[0]
    body = table.split("╇", 1)[1].splitlines()[1:]
    rows: list[int] = []
    for line in body:
        if line.startswith("│") and line.split("│")[1].strip():
            rows.append(0)
        if rows:
            rows[-1] += 1
    return rows


def test_the_tables_read_at_100_columns(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Trial 65: at 100 columns (a pipe, a narrow terminal) the headline wrapped each cell
    over up to 15 lines and the per-strategy, abstention and group tables split their
    figures (`7.46 [7.07,` over `7.83]`). The headline now holds its figures, a line
    each, with its words under the table; a table whose figures would wrap is laid out
    another way (intervals under their figures, metrics as rows); none is split."""
    tmp = tmp_path_factory.mktemp("hundred")
    data, db = write_declines_probe(tmp / "probe.jsonl"), tmp / "r.db"
    out = run("eval", "-v", str(data), "--by", "kind", "--db", str(db), columns="100")
    assert _widest(out) <= 100 and "…" not in out
    table_lines = [line for line in out.splitlines() if line.startswith(("│", "┃"))]
    assert not [line for line in table_lines if SPLIT_FIGURE.search(line)]
    assert max(_headline_rows(out)) <= 2  # a figure a line, not 15 lines of words
    assert "judge.hallucination vs people (hallucinated): right on " in " ".join(
        out.split())  # the words under the table
    for title in ("judge suite per strategy", "trace suite per strategy",
                  "abstentions per strategy", "judge suite by kind"):
        assert title in out
