"""Trial 61, finding 6: eval's headline led with "right on 105 of 144 (73%)" (a correct
decline counted right), while `calibrate RUN` and `meta-eval DATA` showed only AUROC and
balanced accuracy on 130 rows, and `gate` "AUROC 0.69 on 130 labels": no screen could be
matched with another. They now say the headline's figure, from the same function
(`stats.verdicts.verdict_cell`, `right_on`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from tests.support.grouped import probe_rows

DECLINE = "I don't have information about that."


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code in (0, 1), result.output  # gate: NOT READY is 1
    return result


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A labelled probe of 40 rows, every fifth answer declining (people's labels of the
    answers that were there: some hallucinated), through eval, calibrate, meta-eval and
    gate."""
    tmp = tmp_path_factory.mktemp("agreement")
    rows = [dict(r, answer=DECLINE) if i % 5 == 0 else r for i, r in enumerate(probe_rows(40))]
    data, db, out = tmp / "d.jsonl", tmp / "r.db", tmp / "r.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    run("eval", str(data), "--metrics", "judge", "--db", str(db), "--out", str(out), "-q")
    run_id = json.loads(out.read_text())["evaluation_metadata"]["run_id"]
    return {"headline": json.loads(out.read_text())["headline"]["rows"],
            "calibrate": run("calibrate", run_id, "--db", str(db)).stdout,
            "meta-eval": run("meta-eval", str(data), "--judge", "offline", "--metrics",
                             "judge", "--db", str(tmp / "m.db"), "-q").stdout,
            "gate": (gate := run("gate", run_id, "--db", str(db))).stderr,
            "gate_rows": " ".join(gate.stdout.replace("│", " ").split())}


def test_calibrate_meta_eval_and_gate_say_the_headlines_figure(
        screens: dict[str, Any]) -> None:
    row = next(r for r in screens["headline"] if r["metric"] == "judge.hallucination")
    cell = row["agreement_text"].split("; in this run:")[0]
    lead = cell.split(":")[0]
    assert lead.startswith("right on ") and " declines abstained, " in cell, cell
    right, total = (int(x) for x in lead.removeprefix("right on ").split(" (")[0].split(" of "))
    assert right < total  # the probe's judge is wrong on some: a figure worth matching
    for screen in ("calibrate", "meta-eval"):
        said = " ".join(screens[screen].split())
        assert f"judge.hallucination vs people (hallucinated): {cell}" in said, (screen, said)
    # the gate's row: the verdict's held-apart figure (trial 72), then this run's (session
    # 25: said in the row, the warning under the table names the metric)
    # its short line: the figure over every labelled answer alone (trial 75: it leads)
    assert f"; this run: {lead.split(', its ')[0]}; AUROC " in screens["gate_rows"], screens
    assert "judge.hallucination" in next(x for x in screens["gate"].splitlines()
                                         if x.startswith("warning: the offline judge agrees"))


def test_calibrate_shows_no_column_of_dashes(screens: dict[str, Any]) -> None:
    table = screens["calibrate"].split("└", 1)[0]
    assert "AUROC" in table and "Spearman" not in table and "Kendall" not in table
