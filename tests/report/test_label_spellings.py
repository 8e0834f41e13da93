"""A label the data writes more than one way is one label (`report.table.respell`): a file
with `hallucination` on 2 rows, `hallucinated` on 1 and `has_hallucination` on 1 gave
'right on 2 of 2' and three 'no corrected estimate' lines, one per spelling. Every
spelling is read as the data's first, through the CLI and the API; `faithful`, the
opposite question, stays a label of its own, compared in its own direction."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import ragassay
from ragassay.cli import cli

ENV = {"COLUMNS": "250"}


def _row(sid: str, answer: str, context: str, labels: dict[str, bool]) -> dict[str, object]:
    return {"id": sid, "question": f"What does record {sid} say?", "contexts": [context],
            "answer": answer, **{f"labels.{k}": v for k, v in labels.items()}}


def _rows(second: str, third: str) -> list[dict[str, object]]:
    """Four labelled rows, the first two `hallucination`, then `second` and `third`
    (with the value the question they ask gives each), and one without a label."""
    good, bad = "The bridge was built in 1900.", "The bridge was built by Romans in 50 BC."
    context = "The bridge was built in 1900."
    third_value = third in ("hallucination", "hallucinated", "has_hallucination")
    return [_row("a", good, context, {"hallucination": False}),
            _row("b", bad, context, {"hallucination": True}),
            _row("c", good, context, {second: second == "faithful"}),
            _row("d", bad, context, {third: third_value}),
            _row("e", good, context, {})]


def _written(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_every_spelling_of_a_label_is_named_as_the_datas_first() -> None:
    from ragassay.report.table import respell

    spelling = {"hallucinated": "hallucination", "faithful": "faithful"}
    assert respell({"has_hallucination": True, "mine": 2}, spelling) == {
        "hallucination": True, "mine": 2}
    assert respell({"hallucinated": True, "has_hallucination": True}, spelling) == {
        "hallucination": True}
    # a row that says both yes and no under two spellings gives no value
    assert respell({"hallucinated": True, "hallucination": False, "faithful": True},
                   spelling) == {"faithful": True}


def test_three_spellings_are_one_label_through_the_cli(tmp_path: Path) -> None:
    data = _written(tmp_path, _rows("hallucinated", "has_hallucination"))
    db = str(tmp_path / "r.db")
    done = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", db],
                              env=ENV)
    assert done.exit_code == 0, done.output
    assert "right on 4 of 4 (100%)" in done.output, done.output
    assert ("note: label 'hallucinated' (on 1 row), 'has_hallucination' (on 1 row) read as "
            "'hallucination' (on 2 rows), the data's first spelling of hallucinated: one "
            "label, counted together") in done.output
    shown = CliRunner().invoke(cli, ["runs", "show", "--db", db], env=ENV)
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("no corrected estimate of") == 1, shown.output
    assert "no corrected estimate of hallucination: 4 labelled samples" in shown.output
    csv = CliRunner().invoke(cli, ["report", "--format", "csv", "--db", db], env=ENV)
    header = csv.output.splitlines()[0].split(",")
    assert [c for c in header if c.startswith("label.")] == ["label.hallucination"]


@pytest.mark.parametrize("form", ["jsonl", "csv", "frame"])
def test_three_spellings_are_one_label_through_the_api(tmp_path: Path, form: str) -> None:
    rows = _rows("hallucinated", "has_hallucination")
    frame = pd.DataFrame(rows)  # a column per spelling, empty where a row lacks it
    frame["contexts"] = frame["contexts"].map(json.dumps)
    data: object = (_written(tmp_path, rows) if form == "jsonl" else frame
                    if form == "frame" else tmp_path / "data.csv")
    if form == "csv":
        frame.to_csv(tmp_path / "data.csv", index=False)
    result = ragassay.evaluate(data, metrics="judge", store=tmp_path / "r.db")
    report = result.report()
    assert report.calibration is not None
    pairs = report.calibration.pairs
    assert {p.label for p in pairs} == {"hallucination"}
    verdict = next(p for p in pairs if p.metric == "judge.hallucination")
    assert verdict.n == 4
    corrected = result.corrected()
    assert {s.label for s in corrected.skipped} == {"hallucination"}
    frame = result.to_pandas()
    assert [c for c in frame.columns if c.startswith("label.")] == ["label.hallucination"]
    column = frame.set_index("id")["label.hallucination"]
    assert column.loc[["a", "b", "c", "d"]].tolist() == [False, True, False, True]
    assert column.isna().loc["e"]
    assert any("read as 'hallucination'" in n for n in result.notes), result.notes


@pytest.mark.parametrize("first", ["hallucination", "faithful"])
def test_faithful_beside_hallucination_is_compared_in_its_own_direction(
        tmp_path: Path, first: str) -> None:
    """`faithful` asks the opposite question: its own label, its true the good side, so
    it is compared with the support scores as they are and with judge.hallucination
    inverted, while `hallucination` is compared the other way round."""
    rows = _rows("faithful", "faithful")
    if first == "faithful":  # the file's first label is faithful: nothing changes
        rows = rows[2:4] + rows[:2] + rows[4:]
    data = _written(tmp_path, rows)
    result = ragassay.evaluate(data, metrics="judge", store=tmp_path / "r.db")
    report = result.report()
    assert report.calibration is not None
    pairs = {(p.label, p.metric): p for p in report.calibration.pairs}
    assert {label for label, _ in pairs} == {"hallucination", "faithful"}
    assert not pairs[("faithful", "judge.faithfulness")].inverted
    assert pairs[("faithful", "judge.hallucination")].inverted
    assert not pairs[("hallucination", "judge.hallucination")].inverted
    assert pairs[("hallucination", "judge.faithfulness")].inverted
    for pair in pairs.values():
        assert pair.n == 2
        assert pair.auroc == 1.0  # each label read the right way round
    assert not any("read as" in n for n in result.notes)


def test_a_label_imported_in_another_spelling_joins_the_datas(tmp_path: Path) -> None:
    """`labels import` stores the vocabulary's name (`hallucinated`); on a run whose data
    writes the label three ways, it is the same one label, named as the data first
    names it, on the samples of every spelling."""
    data = _written(tmp_path, _rows("hallucinated", "has_hallucination"))
    db = str(tmp_path / "r.db")
    done = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "judge", "--db", db],
                              env=ENV)
    assert done.exit_code == 0, done.output
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "e", "labels": {"has_hallucination": False}}) + "\n"
                      + json.dumps({"id": "d", "hallucination": True}) + "\n")
    imported = CliRunner().invoke(cli, ["labels", "import", str(labels), "--db", db], env=ENV)
    assert imported.exit_code == 0, imported.output
    report = json.loads(CliRunner().invoke(cli, ["report", "--db", db], env=ENV).output)
    pairs = report["calibration"]["pairs"]
    assert {p["label"] for p in pairs} == {"hallucination"}
    assert next(p for p in pairs if p["metric"] == "judge.hallucination")["n"] == 5
    by_id = {e["id"]: e["labels"] for e in report["detailed_results"]}
    assert by_id["d"] == {"hallucination": True} and by_id["e"] == {"hallucination": False}
