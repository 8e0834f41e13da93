"""Review 14p of 61c14ab..276c630 (k128 + k127): each finding as a test of the right
behaviour; `xfail(strict=True)` where it fails at 276c630.

Run:  PYTHONPATH=src python -m pytest -q tests/cli/test_review14p.py
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli

CONTEXTS = ["Refund policy: monthly plans are not refundable. Annual plans can be refunded "
            "in full within 30 days of purchase.",
            "Plans: Solo syncs 2 devices and stores 5 TB. Studio syncs 8 devices and stores "
            "40 TB. Priority chat is offered to Studio accounts only."]
DECLINE = "I don't know based on the provided context."
REF = {"ok1": "Solo syncs 2 devices.", "missed1": "Studio syncs 8 devices.",
       "flagged1": "Solo syncs 2 devices."}
ROWS = [  # id, strategy, question, answer, people's hallucinated label
    ("ok1", "b", "How many devices does Solo sync?", "Solo syncs 2 devices.", False),
    ("ok2", "a", "How much does Studio store?", "Studio stores 40 TB.", False),
    ("missed1", "a", "How many devices does Studio sync?", "Studio syncs 8 devices.", True),
    ("flagged1", "a", "How many devices does Solo sync?", "Solo syncs 5 devices.", False),
    # the contexts hold the answer, people saw no problem: counted RIGHT by the headline
    ("falsedecline", "a", "Can annual plans be refunded?", DECLINE, False),
    # the contexts do not hold the answer, people marked it hallucinated: counted WRONG
    ("wrongdecline", "a", "Do you offer a student discount?", DECLINE, True),
]
ENV = {"COLUMNS": "200"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV)
    return result.exit_code, result.output


def _write(path: Path, references: bool = False) -> Path:
    rows = [{"id": i, "strategy": s, "question": q, "contexts": CONTEXTS, "answer": a,
             "labels": {"hallucinated": h},
             **({"reference": REF[i]} if references and i in REF else {})}
            for i, s, q, a, h in ROWS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _eval(data: Path, db: str) -> tuple[str, str]:
    code, out = run("eval", str(data), "--metrics", "judge", "--db", db)
    assert code == 0, out
    return re.search(r"run (\S+) stored", out).group(1), out  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("review14p")
    db = str(tmp / "s.db")
    run_id, out = _eval(_write(tmp / "d.jsonl"), db)
    return {"db": db, "run": run_id, "eval": " ".join(out.split()), "tmp": tmp}


# --- preconditions (pass today): the data is what the findings say it is ---------------

def test_precondition_the_headline_counts_the_decline_people_marked_wrong(
        labelled: dict[str, Any]) -> None:
    # one flag + the decline people marked hallucinated: 2 wrong; the false abstention
    # (people: no problem) is counted right
    code, text = run("runs", "show", labelled["run"], "--disagree", "--db", labelled["db"])
    assert code == 0, text
    # with the abstentions counted (trial 74), people's marks decide: the decline they
    # marked hallucinated wrong, the one they did not (the judge's false abstention) right
    assert ("right on 3 of 6 (50%): 1 of 2 answers the judge read as declines, 2 of 4 (50%) scored "
            "answers: misses 1 "
            "of 1 people marked hallucinated, "
            "flags 1 of 3 they did not; 2 declines abstained, 1 marked hallucinated by people"
            ) in text  # listed: missed1, flagged1, and apart wrongdecline
    code, out = run("runs", "show", labelled["run"], "--disagree", "--json", "--db",
                    labelled["db"])
    assert code == 0, out
    data = json.loads(out)
    assert [a["id"] for a in data["false_abstentions"]] == ["falsedecline"]


# --- 1. the listing misses a sample the headline counts wrong --------------------------

def test_disagree_lists_every_sample_the_headline_counts_wrong(
        labelled: dict[str, Any]) -> None:
    code, out = run("runs", "show", labelled["run"], "--disagree", "--json", "--db",
                    labelled["db"])
    assert code == 0, out
    assert "wrongdecline" in out
    code, text = run("runs", "show", labelled["run"], "--disagree", "--db", labelled["db"])
    assert "wrongdecline" in text


def test_report_disagreements_section_holds_the_wrong_decline(
        labelled: dict[str, Any]) -> None:
    code, doc = run("report", labelled["run"], "--db", labelled["db"])
    assert code == 0, doc
    assert "wrongdecline" in json.dumps(json.loads(doc)["disagreements"])


# --- 2. compare's footer counts 'not scored' metrics as resting on fewer pairs ----------

def test_the_listing_sums_to_what_the_headline_counts_wrong(
        labelled: dict[str, Any]) -> None:
    # k129: `right on N of M` and the listing's missed + flagged add up, and its declined
    # are the declines people marked (trial 71: said apart from the verdicts' figure), in
    # the console and the report; the false abstention is titled apart
    code, text = run("runs", "show", labelled["run"], "--disagree", "--db", labelled["db"])
    assert code == 0, text
    got = re.search(r"(\d+) of (\d+) \(\d+%\) scored answers", text)
    assert got is not None, text
    right, total = map(int, got.groups())
    code, doc = run("report", labelled["run"], "--db", labelled["db"])
    (v,) = json.loads(doc)["disagreements"]["verdicts"]
    listed = [d["id"] for side in ("missed", "flagged", "declined") for d in v[side]]
    assert sorted(listed) == ["flagged1", "missed1", "wrongdecline"]
    assert len(listed) == total - right + 1  # + the one decline people marked
    assert "2 declines abstained, 1 marked hallucinated by people" in text
    assert "where the judge's verdict and people's label disagree" not in text
    false = text.split("declined where the contexts were judged relevant", 1)[1]
    assert "falsedecline" in false and "falsedecline" not in text.split(false)[0]


def test_compare_footer_counts_only_metrics_with_means_over_fewer_pairs(
        labelled: dict[str, Any]) -> None:
    tmp: Path = labelled["tmp"]
    db = str(tmp / "c.db")
    a, _ = _eval(_write(tmp / "a.jsonl", references=True), db)
    b, _ = _eval(_write(tmp / "b.jsonl", references=False), db)
    code, out = run("compare", a, b, "--json", "--db", db)
    assert code == 0, out
    data = json.loads(out)
    paired = data["paired_samples"]
    ns = {m: r["n"] for m, r in data["metrics"].items()}
    assert 0 in ns.values()  # judge.answer_similarity: not scored in B (no reference)
    code, text = run("compare", a, b, "--db", db)
    said = " ".join(text.split())
    got = re.search(r"fewer than (\d+) for (\d+) metrics?", said)
    assert got is not None, said
    assert int(got.group(2)) == sum(0 < n < paired for n in ns.values())


# --- 3. docs/trust.md: "and strategy, when the run has several" -------------------------

def test_disagree_lines_name_the_strategy_when_the_run_has_several(
        labelled: dict[str, Any]) -> None:
    code, out = run("runs", "show", labelled["run"], "--disagree", "--db", labelled["db"])
    assert code == 0, out
    line = next(x for x in out.splitlines() if x.startswith("  flagged1"))
    assert "[a]" in line


# --- 4. dashboard download: cached without the labels stamp or the label rule -----------

def test_dashboard_download_shows_labels_imported_after_a_first_download(
        tmp_path: Path) -> None:
    pytest.importorskip("streamlit")
    from ragassay.ui import data as ui

    db = str(tmp_path / "u.db")
    rows = [{"id": i, "strategy": s, "question": q, "contexts": CONTEXTS, "answer": a}
            for i, s, q, a, _ in ROWS]
    src = tmp_path / "u.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run_id, _ = _eval(src, db)
    with ui.reading(db) as store:
        version = ui.run_version(store, store.get_run(run_id))
    before = ui.download(db, run_id, version, "csv")
    assert "label.hallucinated" not in before.splitlines()[0]
    labels = tmp_path / "l.jsonl"
    labels.write_text("".join(json.dumps({"id": i, "hallucinated": h}) + "\n"
                              for i, _, _, _, h in ROWS), encoding="utf-8")
    code, out = run("labels", "import", str(labels), "--db", db)
    assert code == 0, out
    after = ui.download(db, run_id, version, "csv")
    assert "label.hallucinated" in after.splitlines()[0]


def test_dashboard_download_reads_people_s_labels_by_the_dashboard_s_rule(
        tmp_path: Path) -> None:
    # k129: with annotator:NAME selected the file holds that person's labels, as the
    # dashboard's report does (before: always the majority)
    pytest.importorskip("streamlit")
    from ragassay.ui import data as ui

    db = str(tmp_path / "r.db")
    rows = [{"id": i, "strategy": s, "question": q, "contexts": CONTEXTS, "answer": a}
            for i, s, q, a, _ in ROWS[:1]]
    src = tmp_path / "r.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run_id, _ = _eval(src, db)
    for who, value in (("ana", True), ("bo", False), ("cy", False)):
        labels = tmp_path / f"{who}.jsonl"
        labels.write_text(json.dumps({"id": "ok1", "hallucinated": value}) + "\n",
                          encoding="utf-8")
        code, out = run("labels", "import", str(labels), "--annotator", who, "--db", db)
        assert code == 0, out
    with ui.reading(db) as store:
        version = ui.run_version(store, store.get_run(run_id))
    majority = ui.download(db, run_id, version, "csv").splitlines()
    ana = ui.download(db, run_id, version, "csv", "annotator:ana").splitlines()
    column = majority[0].split(",").index("label.hallucinated")
    assert {r.split(",")[column] for r in majority[1:]} == {"false"}
    assert {r.split(",")[column] for r in ana[1:]} == {"true"}


# --- 5. code quality --------------------------------------------------------------------

def test_beats_baseline_is_a_typed_result() -> None:
    from ragassay.cli.calibrate import beats_baseline
    from ragassay.stats.baseline import RankAgreement

    ret = typing.get_type_hints(RankAgreement.verdict)["return"]
    assert typing.get_origin(ret) is typing.Literal
    assert typing.get_type_hints(beats_baseline)["return"] is not dict[str, str]


def test_peoples_labels_are_merged_in_one_place() -> None:
    """F7 (k131): run_table's flush and with_people each merged people's labels; now
    both read `LabelPages`, the one place that does it."""
    from ragassay.report import table

    for reader in (table.run_table, table.with_people):
        src = inspect.getsource(reader)
        assert "overlay_labels(" not in src and "resolve_all(" not in src
        assert "LabelPages(" in src


def test_disagreements_read_rows_as_calibration_does_in_one_place() -> None:
    import importlib

    module = importlib.import_module("ragassay.stats.disagreements")
    src = inspect.getsource(module._verdict_rows)
    assert "normalise(" not in src and "inverted" not in src.split('"""', 2)[-1]


def test_the_html_does_not_read_label_names_from_the_csv_module() -> None:
    from ragassay.report import html_samples

    assert "from ragassay.report.csv import" not in inspect.getsource(html_samples)
