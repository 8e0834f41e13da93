"""New-user trial 63 (144 hand-labelled rows, `ragassay eval probes.jsonl --metrics
judge,trace,ragas`, then `meta-eval` and `gate --strict`), through the commands: two
linked scores with the same values (ragas.faithfulness and trace.adherence_ratio under
the offline judge) read as two measurements; the repeating row says they are one in its
own cell and metric (trial 71), and a line under the headline counts the label's
measurements, on the console, in the HTML report and in the JSON."""

from __future__ import annotations

import json
from html import escape

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}  # a table row a line
SAME = ("same values as trace.adherence_ratio on {on}: its "
        "agreement with people is {nearly}that metric's, not a second measurement")
COUNT = ("hallucinated: 5 linked metrics, 3 measurements (trace.adherence repeats "
         "judge.hallucination's verdicts, ragas.faithfulness repeats "
         "trace.adherence_ratio's values)")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("t63")
    data = folder / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in labelled_rows(answers=40,
                                                                         abstaining=3)))
    db, out = str(folder / "r.db"), folder / "r.json"
    got = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "judge,trace,ragas",
                                   "--db", db, "--out", str(out)], env=ENV)
    assert got.exit_code == 0, got.output
    html = folder / "r.html"
    shown = CliRunner().invoke(cli, ["report", "--db", db, "--format", "html", "--out",
                                     str(html)], env=ENV)
    assert shown.exit_code == 0, shown.output
    return {"console": got.output, "json": out.read_text(), "html": html.read_text()}


def _expected(doc: dict) -> str:
    """The line, from the samples' own values: on how many labelled samples the two give
    one value (or the same reason for none)."""
    entries = doc["detailed_results"]
    alike = sum(e["metrics"]["ragas.faithfulness"] == e["metrics"]["trace.adherence_ratio"]
                for e in entries)
    assert alike >= 0.95 * len(entries)  # the premise: one reading, as in the trial
    whole = alike == len(entries)
    return SAME.format(on=f"all {alike} labelled samples" if whole
                       else f"{alike} of {len(entries)} labelled samples",
                       nearly="" if whole else "nearly ")


def test_two_scores_with_the_same_values_are_said_to_be_one_reading(
        outputs: dict[str, str]) -> None:
    doc = json.loads(outputs["json"])
    line = _expected(doc)
    row = next(r for r in doc["headline"]["rows"] if r["metric"] == "ragas.faithfulness")
    assert row["agreement_text"] == line and row["same_as"] == "trace.adherence_ratio"
    console = outputs["console"]
    said = console.index(f"\nnote {COUNT}\n")
    assert console.index("What people would say") < said < console.index("suite per strategy")
    assert console.count(COUNT) == 1  # once, under the headline
    # the row itself says it, under its metric's name
    assert "│ (same values as trace.adherence_ratio) " in console, console
    assert escape("ragas.faithfulness (inverted; same values as trace.adherence_ratio)"
                  ) in outputs["html"]
    assert f"<b>Note:</b> {escape(COUNT)}." in outputs["html"]
    assert escape(line) in outputs["html"]
    pairs = {p["metric"]: p for p in doc["calibration"]["pairs"]}
    assert pairs["ragas.faithfulness"]["same_values"]["metric"] == "trace.adherence_ratio"
    assert "same_values" not in pairs["trace.adherence_ratio"]
    assert "same_values" not in pairs["judge.faithfulness"]  # a reading of its own
