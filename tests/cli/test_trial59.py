"""New-user trial 59, through the commands the user ran on a file whose every row is
labelled `hallucinated` and has a `metadata.kind`: `ragassay eval FILE --metrics judge
--out g.json` and `ragassay eval FILE --metrics judge,trace,ragas --by kind`. The
console's headline leads with the verdict's row and its "right on" figure, says a cell
that another metric's verdicts would repeat once, and the corrected estimates of a run
labelled throughout say so once, one row per label."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.console_tables import headline_cell, table_cell
from tests.support.verdicts import labelled_rows

ENV = {"COLUMNS": "250"}  # a table row a line
EXACT = "people's labels: every sample labelled, nothing corrected"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("t59")
    rows = labelled_rows(answers=60, abstaining=4, marked=1)
    for row in rows:
        row["metadata"] = {"kind": "decline" if row["id"].startswith("d") else "answer"}
    data = folder / "probes.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out: dict[str, str] = {}
    for name, args in (("judge", ["--metrics", "judge", "--out", str(folder / "g.json")]),
                       ("all", ["--metrics", "judge,trace,ragas", "--by", "kind"])):
        got = CliRunner().invoke(cli, ["eval", "-v", str(data), *args, "--db",
                                       str(folder / f"{name}.db")], env=ENV)
        assert got.exit_code == 0, got.output
        out[name] = got.output
    out["json"] = (folder / "g.json").read_text()
    return out


def _first_rows(out: str) -> list[str]:
    """The headline's metrics, in its order."""
    table = out[out.index("What people would say"):].split("└", 1)[0]
    return [line.split("│")[1].strip().split(" (", 1)[0]
            for line in table.splitlines() if line.startswith("│")
            and line.split("│")[1].strip() and not line.split("│")[1].strip().startswith("(")]


def test_the_headline_leads_with_the_verdicts_right_on(outputs: dict[str, str]) -> None:
    out = outputs["judge"]
    assert _first_rows(out)[:2] == ["judge.hallucination", "judge.faithfulness"]
    cell = headline_cell(out, "judge.hallucination")
    assert cell.startswith("right on ") and " of 60 (" in cell.split(": misses", 1)[0], cell
    doc = json.loads(outputs["json"])
    assert [r["metric"] for r in doc["headline"]["rows"]][:2] == ["judge.hallucination",
                                                                  "judge.faithfulness"]
    assert doc["headline"]["rows"][0]["agreement_text"] == cell


def test_a_cell_another_metric_would_repeat_is_shown_once(outputs: dict[str, str]) -> None:
    out = outputs["all"]
    assert _first_rows(out)[:3] == ["judge.hallucination", "trace.adherence",
                                    "judge.faithfulness"]
    assert headline_cell(out, "judge.hallucination").startswith("right on ")
    assert headline_cell(out, "trace.adherence") == ("same verdicts as judge.hallucination "
                                                     "on all 64 labelled samples")
    head = " ".join(out[out.index("What people would say"):].split("└", 1)[0].split())
    assert head.count("right on ") == head.count(" declines abstained, ") == 1


@pytest.mark.parametrize("name", ["judge", "all"])
def test_a_run_labelled_throughout_says_so_once_one_row_per_label(
        outputs: dict[str, str], name: str) -> None:
    out = outputs[name]
    assert "corrected estimates (" not in out and "random sample" not in out
    assert "x1.00" not in out
    assert out.count(EXACT) == 1
    table = out[out.index(EXACT):].split("└", 1)[0]
    assert [line.split("│")[1].strip() for line in table.splitlines()
            if line.startswith("│")] == ["hallucinated"]
    people = table_cell(out, EXACT, "hallucinated", 2)
    assert people.count("[") == 1 and people.startswith("0.")
    assert table_cell(out, EXACT, "hallucinated", 3) == "64/64"
    lines = out.splitlines()
    assert lines.count("all 64 samples are labelled: people's rate is exact for this data and "
                       "nothing is corrected, whichever metric the label is linked to (its "
                       "95% interval is of the population the samples come from)") == 1
    assert sum(line.startswith("hallucinated: only more samples would narrow the interval")
               for line in lines) == 1
    assert not any("via judge." in line and "narrow" in line for line in lines)
