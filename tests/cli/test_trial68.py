"""Trial 68 (findings 4, 6, 7, 8), through the real CLI on one small offline-judge run
whose two declines are one "false" (its contexts judged relevant) and one "correct":
a false abstention is said as the judge's reading with its basis, never as "the contexts
held the answer"; `annotate` says a declined answer abstained, not "unscored"; `trend`
names each run's judge and marks a row whose judge changed."""

from __future__ import annotations

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
ROWS = [  # id, question, answer
    ("ok1", "How many devices does Solo sync?", "Solo syncs 2 devices."),
    ("bad1", "How many devices does Solo sync?", "Solo syncs 5 devices."),
    ("falsedecline", "Can annual plans be refunded?", DECLINE),  # judged relevant
    ("rightdecline", "Do you offer a student discount?", DECLINE),
]
ENV = {"COLUMNS": "200"}


def run(*args: str, text: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env=ENV, input=text)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two judge runs of one file (people's labels in it: a decline marked not
    hallucinated), the second with `--judge offline:accurate`."""
    tmp = tmp_path_factory.mktemp("trial68")
    data = tmp / "d.jsonl"
    data.write_text("".join(json.dumps({"id": i, "question": q, "contexts": CONTEXTS,
                                        "answer": a, "labels": {"hallucinated": i == "bad1"}})
                            + "\n" for i, q, a in ROWS), encoding="utf-8")
    db = str(tmp / "s.db")
    out: dict[str, Any] = {"db": db, "data": str(data), "evals": [], "ids": []}
    for judge in ("offline", "offline:accurate"):
        code, said = run("eval", "-v", str(data), "--metrics", "judge", "--judge", judge,
                         "--db", db)
        assert code == 0, said
        out["evals"].append(said)
        out["ids"].append(re.search(r"run (\S+) stored", said).group(1))  # type: ignore
    return out


def test_annotate_says_a_declined_answer_abstained_not_unscored(
        runs: dict[str, Any]) -> None:
    # (the file's own hallucinated labels count as given: faithful is asked)
    code, out = run("annotate", runs["ids"][0], "--label", "faithful", "--annotator",
                    "ana", "--db", runs["db"], text="y\n" * len(ROWS))
    assert code == 0, out
    judged = [line for line in out.splitlines() if "you: " in line]
    assert len(judged) == len(ROWS)
    assert sum("the judge: Faithfulness (judge) abstained (declined); Hallucination "
               "(judge) abstained (declined)" in line for line in judged) == 2, judged
    assert not any("unscored" in line for line in judged), judged


def test_trend_names_each_runs_judge_and_marks_a_change_of_judge(
        runs: dict[str, Any]) -> None:
    code, out = run("trend", runs["data"], "--metric", "judge.hallucination", "--db",
                    runs["db"])
    assert code == 0, out
    assert "the judge changed at 1 point(s), marked 'changed'" in out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines()
            if line.count("│") > 2 and line.split("│")[1].strip() in runs["ids"]}
    first, second = (rows[i] for i in runs["ids"])
    assert "│ offline " in first and "changed" not in first
    assert "offline:accurate changed" in second
    code, doc = run("trend", runs["data"], "--metric", "judge.hallucination", "--json",
                    "--db", runs["db"])
    assert code == 0, doc
    points = json.loads(doc)["judge.hallucination"]
    assert [(p["judge"], p["judge_changed"]) for p in points] == [
        ("offline", False), ("offline:accurate", True)]


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"


def test_gate_corrected_shows_peoples_estimate_in_the_value_column(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    code, out = run("eval", "-v", str(EXAMPLE / "data.jsonl"), "--metrics", "judge", "--db", db)
    assert code == 0, out
    code, out = run("labels", "import", str(EXAMPLE / "labels.jsonl"), "--db", db)
    assert code == 0, out
    code, out = run("gate", "--corrected", "--db", db)
    row = next(line for line in out.splitlines() if "people's hallucinated" in line
               and "│" in line)
    cells = [c.strip() for c in row.split("│")]
    bound, estimate = re.search(  # type: ignore[union-attr]
        r"upper bound ([\d.]+) .*\(estimate ([\d.]+)", cells[4]).groups()
    assert cells[3] == estimate != bound, row  # the value column: the estimate


def test_trust_md_says_which_runs_a_label_applies_to(tmp_path: Path) -> None:
    """Finding 8 (docs): a label in the data's `labels` field stays with its run; an
    imported one carries over by content. The doc says so, and the store does it."""
    doc = " ".join((Path(__file__).resolve().parents[2] / "docs" / "trust.md")
                    .read_text(encoding="utf-8").split())
    assert "a label in the dataset's own `labels` field stays with the run that read " \
           "that file" in doc
    assert "it carries over to every run that scored the same interaction" in doc
    rows = [{"id": i, "question": q, "contexts": CONTEXTS, "answer": a} for i, q, a in ROWS]
    own, bare = tmp_path / "own.jsonl", tmp_path / "bare.jsonl"
    own.write_text("".join(json.dumps({**r, "labels": {"hallucinated": False}}) + "\n"
                           for r in rows), encoding="utf-8")
    bare.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = str(tmp_path / "l.db")
    ids = []
    for path in (own, bare):
        code, out = run("eval", "-v", str(path), "--metrics", "judge", "--db", db)
        assert code == 0, out
        ids.append(re.search(r"run (\S+) stored", out).group(1))  # type: ignore[union-attr]

    def labelled(run_id: str) -> int:
        code, doc = run("report", run_id, "--db", db)
        assert code == 0, doc
        return sum("hallucinated" in e["labels"] for e in json.loads(doc)["detailed_results"])

    assert (labelled(ids[0]), labelled(ids[1])) == (len(ROWS), 0)  # stays with its run
    imported = tmp_path / "labels.jsonl"
    imported.write_text(json.dumps({"id": "ok1", "faithful": True}) + "\n", encoding="utf-8")
    code, out = run("labels", "import", str(imported), "--run", ids[0], "--db", db)
    assert code == 0, out
    code, doc = run("report", ids[1], "--db", db)
    entry = next(e for e in json.loads(doc)["detailed_results"] if e["id"] == "ok1")
    assert entry["labels"] == {"faithful": True}  # carried over by content


def test_a_false_abstention_is_said_as_the_judges_reading_with_its_basis(
        runs: dict[str, Any]) -> None:
    """Finding 4: "counted false (the contexts held the answer)" was a relevance rating
    said as a fact; every surface now names it and its basis, and says where people's
    labels saw no problem in the decline."""
    run_id, db = runs["ids"][0], runs["db"]
    judged = "the contexts were judged relevant (basis: offline context relevance)"
    said = " ".join(runs["evals"][0].split())
    assert "held the answer" not in said
    assert f"false: a decline where {judged}: the judge's reading, not people's" in said
    assert f"1 abstention counted false, where {judged}" in said
    code, out = run("runs", "show", run_id, "--disagree", "--db", db)
    assert code == 0, out
    assert "held the answer" not in out
    title = next(line for line in out.splitlines() if line.startswith("declined where"))
    assert title == (f"declined where {judged}: abstentions counted false by the judge's "
                     "reading, not by people: 1 (people: 1 of them right)")
    listed = out.split("\nanswers the judge read as declines (", 1)[0]  # then k198's list
    (line,) = [x for x in listed.splitlines() if x.startswith("  falsedecline")]
    # (faithful yes too, where the annotate test above labelled it; trial 81: people's
    # reading wins, listed apart as no disagreement)
    assert "people hallucinated no" in line and "(people agree with the judge here)" in line
    assert "of them, not disagreements: declines people marked no problem in" in out
    code, doc = run("report", run_id, "--db", db)
    report = json.loads(doc)
    assert report["abstentions"]["default"]["basis"] == ["offline: context relevance"]
    # ... and per sample where readers found it before it was typed (migration m0022)
    entry = next(e for e in report["detailed_results"] if e["id"] == "falsedecline")
    assert {d.get("abstention_basis") for d in entry["details"].values()} >= {
        "offline: context relevance"}
    code, page = run("report", run_id, "--format", "html", "--db", db)
    assert code == 0 and (f"&quot;contexts looked relevant&quot; where {judged}, under "
                          "&quot;contexts did not look relevant&quot; where not") in page


def test_the_false_abstention_words_follow_the_basis_and_peoples_labels() -> None:
    from ragassay.stats.abstention import false_text

    assert false_text(["offline: context relevance"]) == (
        "the contexts were judged relevant (basis: offline context relevance)")
    assert false_text(["offline: reference attributable to the contexts"]) == (
        "the contexts were judged to answer the question (basis: offline reference "
        "attributable to the contexts)")
    assert false_text([]).endswith("(basis: not recorded)")  # a run stored before 2.23.0
    from ragassay.stats.disagreements import FalseAbstention

    def right(labels: dict[str, object]) -> bool | None:
        return FalseAbstention(id="a", strategy="s", metrics=[], labels=labels).people_right()

    assert right({"hallucinated": False, "faithful": True}) is True
    assert right({"hallucinated": True}) is right({"faithful": False}) is False
    assert right({"hallucinated": False, "faithful": False}) is False
    assert right({}) is right({"topic": "billing"}) is None  # no yes/no label
