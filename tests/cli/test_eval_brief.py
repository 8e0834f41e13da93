"""New-user trial 73: `eval`'s console ran to about 190 lines for 144 samples, the
headline's cells wrapped over ten lines at 100 columns. By default it is now a short
summary, one line per metric (the judge's figure, on how many samples, its agreement with
people said short); `--verbose` prints the full summary `runs show` prints, so every
figure stays reachable."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "100"}  # a pipe's width, as the trial's
FIGURE = re.compile(r"\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("brief")
    data = folder / "data.jsonl"  # the trial's size: 144 labelled samples, 9 declines
    with data.open("w", encoding="utf-8") as fh:
        for row in labelled_rows(answers=135, abstaining=9):
            fh.write(json.dumps(row) + "\n")
    out = {}
    for name, extra in (("brief", []), ("verbose", ["--verbose"])):
        db = str(folder / f"{name}.db")
        got = CliRunner().invoke(cli, ["eval", str(data), "--db", db, *extra], env=ENV)
        assert got.exit_code == 0, got.output
        out[name] = got.output
        run = next(x.split()[1] for x in got.output.splitlines() if x.startswith("run "))
        shown = CliRunner().invoke(cli, ["runs", "show", run, "--db", db], env=ENV)
        assert shown.exit_code == 0, shown.output
        out[f"{name} show"] = shown.output
    return out


def test_the_default_console_is_one_line_per_metric(runs: dict[str, str]) -> None:
    brief = runs["brief"]
    lines = brief.splitlines()
    assert len(lines) < 60, len(lines)  # the trial's run: about 190
    doc_metrics = [x.split()[0] for x in lines if x.startswith(("judge.", "trace.", "ragas."))
                   and FIGURE.search(x)]
    assert "judge.hallucination" in doc_metrics and "ragas.faithfulness" in doc_metrics
    for metric in doc_metrics:  # each row one line: its figure and its agreement on it
        row = next(x for x in lines if x.startswith(metric + " "))
        assert FIGURE.search(row) and len(row) <= 100, row
    hall = next(x for x in lines if x.startswith("judge.hallucination "))
    assert re.search(r"right on \d+ of \d+ \(\d+%\)", hall), hall
    adherence = next(x for x in lines if x.startswith("trace.adherence "))
    assert "repeats judge.hallucination" in adherence
    assert "What people would say" not in brief  # the full headline: --verbose, runs show
    assert "ragassay runs show" in brief and "eval --verbose" in brief
    assert re.search(r"people \(.*\): hallucinated \d\.\d{3} \[", brief)


def test_verbose_prints_what_runs_show_prints(runs: dict[str, str]) -> None:
    verbose = runs["verbose"]
    assert "What people would say" in verbose and "aggregate metrics" in verbose
    assert "suite per strategy" in verbose
    assert len(verbose.splitlines()) > 2 * len(runs["brief"].splitlines())
    # runs show is the full summary either way
    assert "What people would say" in runs["brief show"]


def test_the_right_on_line_says_why_it_counts_fewer_than_the_samples(tmp_path: Path) -> None:
    """Trial 78: the demo's `right on 22 of 23` beside 24 samples was explained only by
    the last lines (one sample has no answer): the line under the table says it beside
    the figure, from the metric's unscored reasons."""
    from ragassay.dataset import demo_dataset_path

    got = CliRunner().invoke(cli, ["eval", str(demo_dataset_path()), "--db",
                                   str(tmp_path / "d.db")], env={"COLUMNS": "250"})
    assert got.exit_code == 0, got.output
    assert ("judge.hallucination: right on 22 of 23 (96%; 1 sample has no answer): 1 of 1 "
            "answer the judge read as a decline, 21 of 22 (95%) scored answers"
            ) in got.output.splitlines()
