"""Trial 66 (finding 3, part of 5): after the headline's "misses N ..., flags M ...", the
samples behind the counts, through the real CLI: `runs show RUN --disagree` (and
`--json`) lists each linked verdict's missed and flagged samples with the judge's value
and reasoning, and the abstentions counted false; the eval summary names that command;
the CSV has people's labels as `label.<name>` columns (imported ones too); the HTML's
cards and "All samples" table show people's label, marked where the verdict differs."""

from __future__ import annotations

import csv
import io
import json
import re
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
ROWS = [  # id, question, answer, people's hallucinated label
    ("ok1", "How many devices does Solo sync?", "Solo syncs 2 devices.", False),
    ("ok2", "How much does Studio store?", "Studio stores 40 TB.", False),
    ("missed1", "How many devices does Studio sync?", "Studio syncs 8 devices.", True),
    ("flagged1", "How many devices does Solo sync?", "Solo syncs 5 devices.", False),
    ("bad1", "Who gets priority chat?", "Priority chat is offered to Solo accounts only.",
     True),
    ("falsedecline", "Can annual plans be refunded?", DECLINE, False),  # the contexts say
    ("rightdecline", "Do you offer a student discount?", DECLINE, False),
]
ENV = {"COLUMNS": "200"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV)
    return result.exit_code, result.output


def _write(path: Path, labelled: bool) -> Path:
    rows = [{"id": i, "question": q, "contexts": CONTEXTS, "answer": a,
             **({"labels": {"hallucinated": h}} if labelled else {})}
            for i, q, a, h in ROWS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def labelled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A judge run whose rows carry `labels.hallucinated` (the trial's setup): its eval
    output, its id, and its JSON report."""
    tmp = tmp_path_factory.mktemp("trial66")
    db = str(tmp / "s.db")
    code, out = run("eval", "-v", str(_write(tmp / "d.jsonl", True)), "--metrics", "judge",
                    "--db", db)
    assert code == 0, out
    run_id = re.search(r"run (\S+) stored", out).group(1)  # type: ignore[union-attr]
    code, doc = run("report", run_id, "--db", db)
    assert code == 0, doc
    return {"db": db, "eval": out, "run": run_id, "report": json.loads(doc)}


def _verdicts(report: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in report["calibration"]["pairs"]
                if p["metric"] == "judge.hallucination")["verdicts"]


def test_runs_show_disagree_lists_the_missed_and_flagged_samples_with_reasons(
        labelled: dict[str, Any]) -> None:
    code, out = run("runs", "show", labelled["run"], "--disagree", "--db", labelled["db"])
    assert code == 0, out
    lines = out.splitlines()
    reasons = {e["id"]: e["reasoning"] for e in labelled["report"]["detailed_results"]}
    v = _verdicts(labelled["report"])
    assert (v["missed"], v["flagged"]) == (1, 1)  # the headline's counts
    missed = lines.index(next(x for x in lines if x.startswith("missed (")))
    flagged = lines.index(next(x for x in lines if x.startswith("flagged (")))
    assert lines[missed].endswith(": 1") and lines[flagged].endswith(": 1")
    # each sample with an excerpt of its question (session 25: no joining the JSON back)
    assert lines[missed + 1] == (f"  missed1  \"How many devices does Studio sync?\"  "
                                 f"judge.hallucination no; people hallucinated "
                                 f"yes: {reasons['missed1']}; the judge found it "
                                 "restated by 1b: compare the figures and names there")
    assert lines[flagged + 1].startswith("  flagged1  \"")
    assert lines[flagged + 1].endswith(f"\"  judge.hallucination yes; people "
                                       f"hallucinated no: {reasons['flagged1']}")
    assert "misses 1 of 2 people marked hallucinated, flags 1 of 3 they did not" in out
    false = out.split("abstentions counted false", 1)[1]
    assert "falsedecline" in false and "people hallucinated no" in false
    listed, declines = out.split("answers the judge read as declines (", 1)  # k198
    assert "rightdecline" not in listed and "ok1" not in out
    assert "  rightdecline  " in declines  # every decline listed apart, to check


def test_runs_show_disagree_json_holds_the_same_samples(labelled: dict[str, Any]) -> None:
    code, out = run("runs", "show", labelled["run"], "--disagree", "--json", "--db",
                    labelled["db"])
    assert code == 0, out
    data = json.loads(out)
    assert data["run_id"] == labelled["run"]
    (v,) = [x for x in data["verdicts"] if x["metric"] == "judge.hallucination"]
    assert [d["id"] for d in v["missed"]] == ["missed1"]
    assert [d["id"] for d in v["flagged"]] == ["flagged1"]
    assert v["missed"][0]["label"] is True and v["missed"][0]["value"] == 0
    assert v["missed"][0]["reason"].startswith("1 of 1 claims supported")
    assert [a["id"] for a in data["false_abstentions"]] == ["falsedecline"]
    # the JSON report holds the listing too (without the reasoning: it is per sample)
    section = labelled["report"]["disagreements"]
    assert [d["id"] for d in section["verdicts"][0]["flagged"]] == ["flagged1"]
    from ragassay.report.model import REPORT_VERSION

    assert labelled["report"]["evaluation_metadata"]["report_version"] == REPORT_VERSION


def test_json_without_disagree_is_refused(labelled: dict[str, Any]) -> None:
    code, out = run("runs", "show", labelled["run"], "--json", "--db", labelled["db"])
    assert code == 2 and "--json goes with --disagree" in out


def test_the_eval_summary_names_the_command_that_lists_them(labelled: dict[str, Any]) -> None:
    said = " ".join(labelled["eval"].split())
    command = f"ragassay runs show {labelled['run']} --disagree"
    assert (f"see judge.hallucination misses 1 and flags 1 of people's hallucinated labels: "
            f"{command} lists them") in said
    assert (f"see 1 abstention counted false, where the contexts were judged relevant "
            f"(basis: offline context relevance); people: 1 of them right: {command} lists "
            "it") in said


def _csv(db: str, run_id: str) -> list[dict[str, str]]:
    code, out = run("report", run_id, "--format", "csv", "--db", db)
    assert code == 0, out
    return list(csv.DictReader(io.StringIO(out)))


def test_the_csv_has_peoples_labels_as_columns(labelled: dict[str, Any]) -> None:
    rows = _csv(labelled["db"], labelled["run"])
    assert list(rows[0])[:8] == ["run_id", "sample_id", "strategy", "metric", "value",
                                 "unscored_reason", "abstained", "label.hallucinated"]
    got = {r["sample_id"]: r["label.hallucinated"] for r in rows}
    assert got == {i: "true" if h else "false" for i, _, _, h in ROWS}


def test_imported_labels_are_the_csvs_and_the_listings(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    code, out = run("eval", "-v", str(_write(tmp_path / "d.jsonl", False)), "--metrics", "judge",
                    "--db", db)
    assert code == 0, out
    run_id = re.search(r"run (\S+) stored", out).group(1)  # type: ignore[union-attr]
    labels = tmp_path / "l.jsonl"
    labels.write_text("".join(json.dumps({"id": i, "hallucinated": h}) + "\n"
                              for i, _, _, h in ROWS), encoding="utf-8")
    code, out = run("labels", "import", str(labels), "--db", db)
    assert code == 0, out
    got = {r["sample_id"]: r["label.hallucinated"] for r in _csv(db, run_id)}
    assert got["missed1"] == "true" and got["flagged1"] == "false"
    code, out = run("runs", "show", run_id, "--disagree", "--json", "--db", db)
    (v,) = json.loads(out)["verdicts"]
    assert ([d["id"] for d in v["missed"]], [d["id"] for d in v["flagged"]]) == (
        ["missed1"], ["flagged1"])


def test_the_html_shows_peoples_label_and_marks_the_disagreements(
        labelled: dict[str, Any]) -> None:
    code, page = run("report", labelled["run"], "--format", "html", "--db", labelled["db"])
    assert code == 0, page

    def row(sample: str) -> str:
        return page.split(f'<tr id="r-default/{sample}">', 1)[1].split("</tr>", 1)[0]

    assert "<th>people</th>" in page
    assert "<span>hallucinated</span> <b>yes</b>" in row("missed1")
    assert "&ne; judge.hallucination: missed" in row("missed1")
    assert "&ne; judge.hallucination: flagged" in row("flagged1")
    assert "&ne;" not in row("ok1") and "<b>no</b>" in row("ok1")
    cards = page.split('<section id="worst">', 1)[1].split("</section>", 1)[0]
    card = cards.split('id="s-default/flagged1"', 1)[1].split("</article>", 1)[0]
    assert "People&#x27;s labels" in card or "People's labels" in card
    assert "&ne; judge.hallucination: flagged" in card
    assert f"ragassay runs show {labelled['run']} --disagree lists them" in page
