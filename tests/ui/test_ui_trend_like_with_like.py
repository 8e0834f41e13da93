"""The dashboard's trend chart follows the runs `ragassay trend` follows (left over from
trial 54, finding 8): the CLI's trend compared eval runs only, while the Charts page
plotted every run of the dataset's name, a meta-eval run (which measures the judge,
perhaps on part of the data) among them. One rule (`report.trend_runs`) now picks both,
and the page names the runs it leaves out, as the CLI's note does; it marks a change of
judge as the CLI does (trial 69)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store
from tests.support.verdicts import labelled_rows
from tests.ui.test_ui_pages import arr, figures, open_page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _runs(tmp_path: Path, commands: list[list[str]]) -> tuple[Path, Path, list[Any]]:
    """The probes file judged by each command (`eval`, `meta-eval`, ...; its options
    after the file): the file, the store and its runs, oldest first."""
    data = tmp_path / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in labelled_rows(answers=12,
                                                                          abstaining=2)))
    db = tmp_path / "r.db"
    for command, *options in commands:
        done = CliRunner().invoke(cli, [command, str(data), "--db", str(db), "-q",
                                        "--metrics", "judge", *options])
        assert done.exit_code == 0, done.output
    with Store(db, readonly=True) as store:
        return data, db, sorted(store.list_runs(), key=lambda r: (r.created, r.id))


def test_the_trend_chart_follows_eval_runs_and_names_the_rest(app_test: Any,
                                                              tmp_path: Path) -> None:
    data, db, runs = _runs(tmp_path, [["eval"], ["meta-eval"], ["eval"]])
    assert [r.config.kind for r in runs] == ["eval", "meta-eval", "eval"]
    cli_note = CliRunner().invoke(cli, ["trend", str(data), "--db", str(db), "--json"]).stderr

    at = open_page(app_test(db=db, run_id=runs[-1].id), "charts")
    trends = figures(at)["chart_trends"]["data"]
    assert trends and all(len(arr(t["x"])) == 2 for t in trends)  # the two eval runs
    captions = [c.value.replace("\\", "") for c in at.caption]
    said = next(c for c in captions if c.startswith("Left out "))
    assert said == f"L{cli_note.removeprefix('note: l').strip()}.", (said, cli_note)
    assert f"left out 1 meta-eval run of this dataset ({runs[1].id})" in cli_note


def test_the_trend_chart_marks_the_run_whose_judge_changed(app_test: Any,
                                                           tmp_path: Path) -> None:
    """Trial 69: `ragassay trend` marks a change of judge (its judge column, JSON
    judge/judge_changed); the chart now does too: a dotted line and "judge changed:
    SPEC" at that run, each point's judge in its hover, the CLI's count as a caption."""
    _, db, runs = _runs(tmp_path, [["eval"], ["eval"], ["eval", "--judge",
                                                         "offline:accurate"]])
    at = open_page(app_test(db=db, run_id=runs[-1].id), "charts")
    chart = figures(at)["chart_trends"]
    lines = [s for s in chart["layout"].get("shapes", []) if s["type"] == "line"]
    assert [(s["x0"], s["x1"]) for s in lines] == [(runs[2].id, runs[2].id)]
    notes = [a["text"] for a in chart["layout"].get("annotations", [])]
    assert notes == ["judge changed: offline:accurate"]
    hover = chart["data"][0]
    assert "judge %{customdata[2]}" in hover["hovertemplate"]
    assert [c[2] for c in hover["customdata"]] == ["offline", "offline",
                                                   "offline:accurate changed"]
    captions = [c.value for c in at.caption]
    assert any(c.startswith("The judge changed at 1 point(s), marked 'judge changed'")
               for c in captions), captions
