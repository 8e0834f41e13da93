"""New-user trial 64 (issue #38 follow-ups), through the commands the user ran on rows all
labelled `hallucinated` with a `metadata.kind`: eval's warning said the judge's rate alone
under a headline of people's figure; the `--by kind` table, calibrate and meta-eval
repeated judge.hallucination's verdict line for trace.adherence, which the headline says
once; the HTML summary counted a hallucination rate above its line as "below their
target's warning level"."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import cli_output
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}  # a table row a line
SAME = "same verdicts as judge.hallucination on all 64 labelled samples"


_run = partial(cli_output, columns=ENV["COLUMNS"])


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("t64")
    rows = labelled_rows(answers=60, abstaining=4, marked=1)
    for i, row in enumerate(rows[:60]):  # two answers in three invent: more metrics warn
        if i % 3 == 1:
            row["answer"] = f"Locker {i} was removed for repairs until spring."
            row["labels"]["hallucinated"] = i % 7 != 0
    for row in rows:
        row["metadata"] = {"kind": "decline" if row["id"].startswith("d") else "answer"}
    data, db, out = tmp / "probes.jsonl", tmp / "r.db", tmp / "r.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    said = {"eval": _run("eval", "-v", str(data), "--metrics", "judge,trace,ragas", "--by", "kind",
                         "--db", str(db), "--out", str(out))}
    doc = json.loads(out.read_text())
    run_id = doc["evaluation_metadata"]["run_id"]
    html = tmp / "r.html"
    _run("report", run_id, "--format", "html", "--by", "kind", "--out", str(html), "--db", str(db))
    return said | {"doc": doc, "html": html.read_text(),
                   "calibrate": _run("calibrate", run_id, "--db", str(db)),
                   "meta-eval": _run("meta-eval", str(data), "--metrics", "judge,trace",
                                     "--db", str(tmp / "m.db"))}


def _warning(out: str, metric: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"warning {metric} "))


def test_the_warning_says_peoples_figure_beside_the_judges(screens: dict[str, Any]) -> None:
    row = next(r for r in screens["doc"]["headline"]["rows"]
               if r["metric"] == "judge.hallucination")
    people = f"{row['people']:.3f} [{row['people_ci'][0]:.3f}, {row['people_ci'][1]:.3f}]"
    assert row["people_text"].endswith(people)  # the headline's figure, as it says it
    line = _warning(screens["eval"], "judge.hallucination")
    judge = f"{row['judge']:.3g}"
    # (trial 80: people's rate past the line too, said so: a set bad on purpose)
    # (trial 83: what the rate is of, said after it)
    agg = screens["doc"]["aggregate_metrics"]["metrics"]["judge.hallucination"]
    base = f"of {agg['count']} scored answers; {agg['abstained']} read as declines set aside"
    assert line.startswith(f"warning judge.hallucination rate {judge} {base} (judge; people "
                           f"{people}, past the warning line by people's labels too): "
                           "above the warning line 0.2"), line
    # people's hallucinated rate is no adherence rate, nor any other metric's figure (a
    # faithfulness mean on 1-10 warned here too before its target was the offline judge's
    # own line, trial 65): beside another scale, people's share of their label alone
    others = [line for line in screens["eval"].splitlines() if line.startswith("warning ")
              and not line.startswith("warning judge.hallucination ")]
    assert _warning(screens["eval"], "trace.adherence") in others
    for line in others:
        assert "judge; people" not in line, line
    share = f"(people's labels mark {row['people']:.0%} hallucinated): "
    assert share in _warning(screens["eval"], "trace.adherence")


def test_the_by_kind_table_says_a_repeated_column_once(screens: dict[str, Any]) -> None:
    out = screens["eval"]
    table = out[out.index("judge vs people by kind"):].split("└", 1)[0]
    assert "judge.hallucination vs people (hallucinated)" in table
    assert "trace.adherence ~" not in table  # its column would be judge.hallucination's
    # (trial 88: the table by kind comes first, the headline after it)
    head = out.index("What people would say")
    after = out[out.index("judge vs people by kind"):head].splitlines()
    # the headline says it (session 25: said again under the table by kind)
    assert not any(SAME in x for x in after)
    assert SAME in " ".join(out[head:].split())
    assert f"trace.adherence vs people (hallucinated): {SAME}." in screens["html"]
    groups = screens["doc"]["groups"]["groups"]
    same = {a["verdicts"].get("same_as") for g in groups for a in g["agreement"]
            if a["metric"] == "trace.adherence"}
    assert same == {"judge.hallucination"}


@pytest.mark.parametrize("screen", ["calibrate", "meta-eval"])
def test_calibrate_and_meta_eval_name_the_repeated_verdicts(screens: dict[str, Any],
                                                            screen: str) -> None:
    lines = [" ".join(line.split()) for line in screens[screen].splitlines()]
    assert f"trace.adherence vs people (hallucinated): {SAME}" in lines, screens[screen]
    lead = "judge.hallucination vs people (hallucinated): "
    first = next(x for x in lines if x.startswith(lead))
    assert first.removeprefix(lead).startswith("right on ")
    assert sum(x.count("right on ") for x in lines) == 1


def test_the_html_summary_counts_a_rate_above_its_line(screens: dict[str, Any]) -> None:
    html = screens["html"]
    assert "below their target's warning level" not in html
    flagged = [f for f in screens["doc"]["interpretation"]
               if f["level"] == "warning" and f["scope"] == "overall"]
    assert any(f["metric"] == "judge.hallucination" for f in flagged)  # above its line
    assert f"metrics; {len(flagged)} on the wrong side of their warning line.</p>" in html


def test_readme_says_calibrate_reads_the_runs_own_labels() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("ragassay calibrate RUN  "))
    assert "labels the run already has" in line
