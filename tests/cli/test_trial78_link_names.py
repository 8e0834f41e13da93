"""New-user trials 78 and 79: the `--by KEY` views named a metric's agreement with a label
`METRIC vs people (LABEL)` (`stats.groups.link_name`), while `calibrate` and `meta-eval`
still led their verdict and baseline lines with `METRIC ~ LABEL`. Every command that
names such a link now says it with the one function."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.stats.groups import link_name
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}  # a line a line


def _said(*args: str | Path) -> list[str]:
    done = CliRunner().invoke(cli, [str(a) for a in args], env=ENV)
    assert done.exit_code == 0, done.output
    return [" ".join(line.split()) for line in done.output.splitlines()]


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """A small labelled file (20 answers, 3 declines) through eval then calibrate, and
    through meta-eval."""
    tmp = tmp_path_factory.mktemp("links")
    data, out = tmp / "d.jsonl", tmp / "r.json"
    data.write_text("".join(json.dumps(r) + "\n"
                            for r in labelled_rows(answers=20, abstaining=3, marked=1)))
    _said("eval", data, "--metrics", "judge,trace", "--db", tmp / "r.db", "--out", out, "-q")
    run_id = json.loads(out.read_text())["evaluation_metadata"]["run_id"]
    return {"calibrate": _said("calibrate", run_id, "--db", tmp / "r.db"),
            "meta-eval": _said("meta-eval", data, "--metrics", "judge,trace", "--db",
                               tmp / "m.db", "--n-resamples", "200", "-q")}


@pytest.mark.parametrize("command", ["calibrate", "meta-eval"])
def test_verdict_and_baseline_lines_name_the_link_in_words(screens: dict[str, list[str]],
                                                           command: str) -> None:
    lines = screens[command]
    assert not [x for x in lines if " ~ " in x], lines
    verdicts = lines.index("yes/no verdicts against people's labels, as eval's headline "
                           "counts them (over the verdicts; an answer that abstained has "
                           "none and is said apart):")
    assert lines[verdicts + 1].startswith(
        f"{link_name('judge.hallucination', 'hallucinated')}: right on "), lines
    assert f"{link_name('trace.adherence', 'hallucinated')}: same verdicts as " \
        "judge.hallucination on all 23 labelled samples" in lines
    baseline = lines.index("against the lexical baseline (the share of the answer's words "
                           "in its contexts):")
    assert lines[baseline + 1].startswith(
        "judge.hallucination vs people (hallucinated): "), lines[baseline + 1]
    assert "above the lexical baseline" in lines[baseline + 1]
