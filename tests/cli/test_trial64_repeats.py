"""New-user trial 64 (issue #38 follow-ups), on a fully labelled `eval --metrics
judge,trace,ragas --by kind`: `gate` repeated judge.hallucination's "right on ..." for
trace.adherence, whose verdicts are the same on every labelled sample (the headline,
calibrate and meta-eval name the other metric instead); the "judge vs people by kind" table
showed ragas.faithfulness and trace.adherence_ratio, the same values, as two identical
AUROC columns (the headline's note says them once)."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from tests.support.cli import cli_output

ENV = {"COLUMNS": "250"}  # a table row a line
KINDS = ("lookup", "pricing", "policy")
FACTS = ("opens with the blue key card", "is on deck 3", "was repainted in May",
         "holds two spare helmets")


def _rows() -> list[dict[str, Any]]:
    """40 answers (every third invents, every fifth other adds a sentence the context does
    not hold; every eighth label says the opposite of what the answer did) in three kinds,
    and 4 declines, all labelled `hallucinated`."""
    rows = []
    for i in range(40):
        fact = f"Locker {i} {FACTS[i % 4]}."
        invents = i % 3 == 0
        answer = (f"Locker {i} was removed for repairs until spring." if invents
                  else f"{fact} It was built in 1990." if i % 5 == 1 else fact)
        rows.append({"id": f"p{i}", "question": f"What about locker {i}?",
                     "contexts": [f"{fact} It is serviced every Tuesday."], "answer": answer,
                     "labels": {"hallucinated": invents != (i % 8 == 0)},
                     "metadata": {"kind": KINDS[i % 3]}})
    for i in range(4):
        rows.append({"id": f"d{i}", "question": f"Who owns locker {i}?",
                     "contexts": [f"Locker {i} is on deck 2."],
                     "answer": "I don't have information about that.",
                     "labels": {"hallucinated": False}, "metadata": {"kind": "decline"}})
    return rows


_run = partial(cli_output, columns=ENV["COLUMNS"])


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("t64r")
    data, db, out, html = tmp / "probes.jsonl", tmp / "r.db", tmp / "r.json", tmp / "r.html"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    said = _run("eval", "-v", str(data), "--metrics", "judge,trace,ragas", "--by", "kind",
                "--db", str(db), "--out", str(out))
    doc = json.loads(out.read_text())
    run_id = doc["evaluation_metadata"]["run_id"]
    _run("report", run_id, "--format", "html", "--by", "kind", "--out", str(html), "--db", str(db))
    return {"eval": said, "doc": doc, "html": html.read_text(),
            "gate": _run("gate", run_id, "--db", str(db), code=None)}


def test_the_gate_says_a_repeated_verdicts_agreement_once(screens: dict[str, Any]) -> None:
    pairs = {p["metric"]: p for p in screens["doc"]["calibration"]["pairs"]}
    assert pairs["trace.adherence"]["verdicts"]["same_as"] == "judge.hallucination"
    lines = [" ".join(line.split()) for line in screens["gate"].splitlines()]
    # both verdicts have a held-apart figure below the floor (trial 72): this run's own
    # figure is said after it, on their lines under the weak heading (trial 71)
    # (session 25: said in their rows, named under the weak heading, not said twice)
    rows = " ".join(x.strip("│ ") for x in lines if x.startswith("│"))
    rows = " ".join(rows.replace("│", " ").split())
    assert ("this run: same verdicts as judge.hallucination on all 44 labelled samples"
            in rows), rows
    notes = [x for x in lines if not x.startswith("│")]
    assert sum(x.count("right on ") for x in notes) == 0, screens["gate"]
    heading = next(x for x in notes if x.startswith("warning: the offline judge agrees"))
    assert "trace.adherence" in heading and "judge.hallucination" in heading, heading


def test_the_by_kind_table_says_repeated_values_once(screens: dict[str, Any]) -> None:
    same = next(p["same_values"] for p in screens["doc"]["calibration"]["pairs"]
                if p["metric"] == "ragas.faithfulness")  # the headline's note says it once
    assert same["metric"] == "trace.adherence_ratio"
    line = (f"ragas.faithfulness vs people (hallucinated): same values as trace.adherence_ratio on "
            f"{'all 44' if same['samples'] == 44 else str(same['samples']) + ' of 44'} "
            "labelled samples: its agreement with people is")
    out = screens["eval"]
    table = out[out.index("judge vs people by kind"):].split("└", 1)[0]
    assert "trace.adherence_ratio vs people (hallucinated)" in table
    assert "ragas.faithfulness ~" not in table  # its column would be trace.adherence_ratio's
    # (trial 88: the table by kind comes first, the headline after it)
    head = out.index("What people would say")
    after = [x for x in out[out.index("judge vs people by kind"):head].splitlines()
             if x.startswith("ragas.faithfulness vs people (hallucinated):")]
    assert not after, after  # the headline says it (session 25: said twice)
    before = " ".join(out[head:].replace("│", " ").split())
    assert "same values as trace.adherence_ratio on all 44 labelled samples" in before
    html = screens["html"]
    assert line in html
    assert "<td>ragas.faithfulness vs people (hallucinated)</td>" not in html
    assert "<td>trace.adherence_ratio vs people (hallucinated)</td>" in html
    groups = screens["doc"]["groups"]["groups"]
    carried = {json.dumps(a.get("same_values"), sort_keys=True) for g in groups
               for a in g["agreement"] if a["metric"] == "ragas.faithfulness"}
    assert carried == {json.dumps(same, sort_keys=True)}
    kept = [a for g in groups for a in g["agreement"] if a["metric"] == "trace.adherence_ratio"]
    assert kept and all("same_values" not in a for a in kept)  # the earlier column stays
