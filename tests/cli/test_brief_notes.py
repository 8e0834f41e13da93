"""Trial 75: `eval`'s short summary gave notes a new user could not act on ("the lexical
baseline is read backwards (0.596)", "5 linked metrics, 3 measurements") and listed
every warning, several on context metrics people's labels do not measure. Now each note
says what it means and what to do, a reversed baseline only where a metric is not above
it, and the warnings on metrics without people's agreement are counted on one line that
names `runs show`, which lists them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.cli.brief_notes import baseline_notes

ENV = {"COLUMNS": "250"}  # a line a note
DEMO = Path(__file__).resolve().parents[2] / "src/ragassay/dataset/samples/demo.jsonl"


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("t75")
    data = DEMO  # its warnings: judge.hallucination's, and two on context metrics
    db = str(folder / "r.db")
    got = CliRunner().invoke(cli, ["eval", str(data), "--db", db], env=ENV)
    assert got.exit_code == 0, got.output
    run = next(x.split()[1] for x in got.output.splitlines() if x.startswith("run "))
    shown = CliRunner().invoke(cli, ["runs", "show", run, "--db", db], env=ENV)
    assert shown.exit_code == 0, shown.output
    return {"brief": got.output, "show": shown.output, "run": run}


def _warned(text: str) -> list[str]:
    return [x.removeprefix("warning ") for x in text.splitlines() if x.startswith("warning ")]


def test_warnings_off_the_labels_are_counted_on_one_line(screens: dict[str, str]) -> None:
    listed = _warned(screens["show"])  # runs show: every warning, a line each
    others = [x.split()[0] for x in listed if not x.startswith("judge.hallucination ")]
    assert others and all(m.startswith(("trace.", "ragas.", "judge.context")) for m in others)
    brief = _warned(screens["brief"])
    said = next(x for x in brief if "more warning" in x)
    assert said == (f"{len(others)} more warning{'s' * (len(others) != 1)} on metrics "
                    f"people's labels do not measure ({', '.join(others)}): ragassay runs "
                    f"show {screens['run']} lists them")
    assert not any(x.startswith(tuple(f"{m} " for m in others)) for x in brief), brief


def test_the_notes_say_what_to_do_in_plain_words(screens: dict[str, str]) -> None:
    notes = [x for x in screens["brief"].splitlines() if x.startswith("note ")]
    assert not any("linked metrics, " in x for x in notes), notes  # runs show says it
    assert "linked metrics, " in screens["show"]
    repeats = next(x for x in notes if "independent reading" in x)
    assert "trace.adherence repeats judge.hallucination's verdicts" in repeats
    assert "5 metrics on" in repeats and "in this table are" in repeats
    assert "count each as that metric's measurement, not a second one" in " ".join(
        screens["brief"].split())


def test_a_reversed_baseline_is_said_only_where_a_metric_is_not_above_it() -> None:
    def report(*verdicts: str) -> Any:
        pairs = [SimpleNamespace(baseline=SimpleNamespace(verdict=v, meaning="M"))
                 for v in verdicts]
        return SimpleNamespace(calibration=SimpleNamespace(pairs=pairs))

    assert baseline_notes(report("yes", "yes")) == []  # nothing to act on
    assert baseline_notes(report("yes", "unclear")) == ["M"]
    assert baseline_notes(report("no", "no")) == ["M"]
