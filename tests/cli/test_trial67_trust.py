"""Trial 67's untaken product findings (k131): whether to trust the judge said the same way
on every screen (finding 5), `compare` naming the samples whose abstention outcome changed
(finding 10), the gate's table before its notes, the notes grouped (finding 11), and the
headline's JSON figure in the direction its cell shows (k130's leftover).

Run:  PYTHONPATH=src python -m pytest -q tests/cli/test_trial67_trust.py
"""

from __future__ import annotations

import html
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import cli_output, reworded_rows

DECLINE = "I'm sorry, I could not find that in the documents I have."


_run = partial(cli_output, columns="120")


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("t67")
    data, db = reworded_rows(tmp / "probes.jsonl"), tmp / "r.db"  # overlap ranks backwards
    out, page, meta = tmp / "r.json", tmp / "r.html", tmp / "m.json"
    said = _run("eval", "-v", str(data), "--metrics", "judge,trace", "--db", str(db), "--out",
                str(out))
    doc = json.loads(out.read_text())
    run_id = doc["evaluation_metadata"]["run_id"]
    _run("report", run_id, "--format", "html", "--out", str(page), "--db", str(db))
    return {"eval": said, "doc": doc, "html": page.read_text(), "run": run_id,
            "calibrate": _run("calibrate", run_id, "--db", str(db)),
            "gate": _run("gate", run_id, "--db", str(db), code=None),
            "gate_v": _run("gate", run_id, "--verbose", "--db", str(db), code=None),
            "meta": _run("meta-eval", str(data), "--metrics", "judge,trace", "--db",
                         str(tmp / "m.db"), "--out", str(meta), "-q"),
            "meta_doc": json.loads(meta.read_text())}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_every_screen_says_the_one_baseline_statement(screens: dict[str, Any]) -> None:
    """Finding 5: meta-eval said "no: ... <= reversed baseline" and under it "beating it
    says little"; eval, calibrate and gate never named the baseline. Now one statement,
    computed once per pair (`BooleanAgreement.baseline`) on the judge's own samples, said
    by every screen that shows the judge's agreement with people's labels."""
    pairs = {p["metric"]: p for p in screens["doc"]["calibration"]["pairs"]}
    verdict = pairs["judge.hallucination"]["baseline"]
    assert verdict["auroc"] < 0.5  # its direction fixed by the label, not flipped
    text, meaning = verdict["text"], verdict["meaning"]
    assert text.startswith(tuple(
        f"{w} the lexical baseline on the same 24 samples (" for w in (
            "better than", "not clearly better than", "no better than")))
    assert text.endswith("the answers people marked as a problem reuse more of their "
                         "passages' words, so the judge is compared with high overlap read "
                         "as a sign of a problem")  # (trial 89: plainer)
    assert meaning.startswith("hallucinated: word overlap alone tells people's labels apart ")
    assert "answers people marked hallucinated reuse more of their passages' words" in meaning
    head = {r["metric"]: r for r in screens["doc"]["headline"]["rows"]}
    assert text in head["judge.hallucination"]["agreement_text"]  # JSON and HTML read it
    for screen in ("eval", "html", "calibrate", "gate", "meta"):
        flat = _flat(html.unescape(screens[screen]))
        assert text in flat, screen
        # (trial 89: once a line above said why, the meaning leaves its reason out)
        short = re.sub(r" \(it points the wrong way: [^()]*\)", "", meaning)
        assert meaning in flat or short in flat and text in flat, screen
        assert "says little" not in flat, screen
    meta = {e["metric"]: e for e in screens["meta_doc"]["beats_baseline"]}
    assert meta["judge.hallucination"]["text"] == text  # meta-eval's --out: the same words
    assert meta["judge.hallucination"]["n"] == pairs["judge.hallucination"]["n"]


def test_the_gate_shows_its_table_first_and_groups_its_notes(screens: dict[str, Any]) -> None:
    """Finding 11: 13 warning and note lines before the table. Now the table, then a few
    lines (one per kind, each naming its metrics), the verdict last; --verbose says one
    line per metric; the exit code is kept (1: NOT READY)."""
    lines = screens["gate"].splitlines()
    title = next(i for i, x in enumerate(lines) if x.strip().startswith("gate for run"))
    notes = [x for x in lines if x.startswith(("note:", "warning:", "no --config"))]
    assert notes and all(lines.index(x) > title for x in notes)
    assert len(notes) <= 7, notes  # + the lexical baseline, said once (trial 71)
    assert lines[-1] == "NOT READY"
    grouped = _flat(screens["gate"])  # the verdicts' held-apart figures first (trial 72)
    # (session 25: said in the rows, named under the weak heading, not said twice)
    assert "weak agreement with people: balanced accuracy " in grouped
    assert "; this run: right on " in grouped
    rows = " ".join(screens["gate"].replace("│", " ").split())  # a row's wrapped cell joined
    assert "; this run: same verdicts as judge.hallucination" in rows
    verbose = screens["gate_v"]
    assert "warning: gating on judge.hallucination, whose" in verbose
    assert len([x for x in verbose.splitlines() if x.startswith(("note:", "warning:"))]) \
        > len(notes) - 1


def test_the_headline_json_reads_as_its_cell(screens: dict[str, Any]) -> None:
    """k130's leftover: the console cell of an inverted rate is in the label's direction
    (`hallucinated rate: 1 - trace.adherence's ...`), the JSON's `judge` and the
    comparison's text were on the metric's scale. Now `judge` is the cell's figure, with
    the metric's own beside it (`judge_own`) and `judge_turned` saying which."""
    head = {r["metric"]: r for r in screens["doc"]["headline"]["rows"]}
    own, turned = head["judge.hallucination"], head["trace.adherence"]
    assert turned["judge_turned"] is True and own["judge_turned"] is False
    assert abs(turned["judge"] - own["judge"]) < 1e-9  # both a hallucination rate
    assert abs(turned["judge_own"] - (1 - turned["judge"])) < 1e-9
    assert f"rate {turned['judge']:.3f}" in turned["judge_text"]
    faith = head["judge.faithfulness"]  # a score's mean is not turned
    assert faith["judge_turned"] is False and faith["judge"] == faith["judge_own"]


def test_compare_names_the_samples_whose_abstention_outcome_changed(tmp_path: Path) -> None:
    """Finding 10: `offline:accurate` turned one correct decline into a false abstention
    and `compare` called the runs equivalent with nothing said. Here the same ids, one
    decline whose contexts hold the answer in B only."""
    def rows(answer_in_b: bool) -> list[dict[str, Any]]:
        out = []
        for i in range(8):
            context = f"Locker {i} is on floor {i + 2} of the east wing."
            if i == 3 and not answer_in_b:
                context = "The cafeteria serves lunch from noon until two."
            out.append({"id": f"s{i}", "question": f"Which floor is locker {i} on?",
                        "contexts": [context], "answer": DECLINE if i == 3 else
                        f"Locker {i} is on floor {i + 2}."})
        return out

    db, ids = tmp_path / "c.db", []
    for name, flag in (("a", False), ("b", True)):
        data = tmp_path / f"{name}.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows(flag)))
        out = tmp_path / f"{name}.json"
        _run("eval", str(data), "--metrics", "judge", "--db", str(db), "--out", str(out), "-q")
        ids.append(json.loads(out.read_text())["evaluation_metadata"]["run_id"])
    said = _flat(_run("compare", *ids, "--db", str(db)))
    assert ("abstention outcome changed on 1 paired sample: correct -> false 1 (s3): a "
            "verdict above (equivalent included) is of a metric's values, not of these "
            "samples' declines") in said
    doc = json.loads(_run("compare", *ids, "--db", str(db), "--json"))
    assert doc["abstentions_changed"] == {
        "counts": {"correct -> false": 1},
        "samples": [{"id": "s3", "strategy": "default", "a": "correct", "b": "false"}]}
    same = json.loads(_run("compare", ids[0], ids[0], "--db", str(db), "--json"))
    assert "abstentions_changed" not in same


def test_the_headline_judge_column_does_not_claim_the_metrics_scale(
        screens: dict[str, Any]) -> None:
    """Trial 68, finding 5: the headline's judge column was headed "judge's own (its
    scale)" over an inverted rate's cell turned to the label's direction (trace.adherence
    showing the hallucinated rate 0.608, its own mean 0.392). Each cell names its scale;
    the heading claims none, in the console and the HTML."""
    turned = {r["metric"]: r for r in screens["doc"]["headline"]["rows"]}["trace.adherence"]
    assert turned["judge_turned"] is True
    head = screens["eval"].split("judge's agreement", 1)[1][:400]
    assert "judge's own" in _flat(screens["eval"]) and "its scale" not in head
    assert "judge&#x27;s own (95% CI, its scale)" not in screens["html"]
    assert "judge's own (95% CI, its scale)" not in screens["html"]
    assert "own (95% CI)" in screens["html"]
