"""Session 25 (k198), from trial 87's findings: `runs show --disagree` lists every answer
the judge read as a decline (a right answer read as one counts right and was listed
nowhere), `eval`'s "see" line counts them; every AUROC printed in `eval` and `gate` says
what it ranks (a 1-10 rating or a yes/no verdict); `eval`'s abstentions are one line, in
full under `runs show`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.store import Store


def _rows() -> list[dict[str, Any]]:
    """Bakery rows in our own words: copied answers, answers adding an invented fact, and
    declines people labelled right (one) or wrong (one)."""
    rows: list[dict[str, Any]] = []
    for i in range(16):
        ctx = f"Oven {i} bakes {i + 4} loaves of rye bread before the shop opens at seven."
        answer, wrong, kind = ctx, False, "copied"
        if i % 4 == 1:
            answer, wrong = f"Oven {i} is cleaned with lemon juice every Sunday.", True
            kind = "invented"
        elif i in (2, 6):
            answer, wrong, kind = "I'm sorry, I do not know the answer to that.", i == 6, "declined"
        rows.append({"id": f"b{i:02d}", "question": f"How many loaves of rye does oven {i} bake "
                     "before the shop opens?", "contexts": [ctx], "answer": answer,
                     "labels": {"hallucination": wrong}, "metadata": {"kind": kind}})
    return rows


def _run(*args: str) -> tuple[int, str]:
    got = CliRunner(env={"COLUMNS": "200"}).invoke(cli, list(args))
    return got.exit_code, got.stdout + got.stderr


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("k198")
    data = tmp / "bakery.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()))
    db = str(tmp / "r.db")
    code, said = _run("eval", str(data), "--db", db, "--metrics", "judge,trace", "--by",
                      "kind", "--judge-check")
    assert code == 0, said
    with Store(Path(db), readonly=True) as store:
        run_id = store.list_runs()[0].id
    return {"db": db, "id": run_id, "eval": said}


def test_disagree_lists_every_answer_read_as_a_decline(run: dict[str, str]) -> None:
    code, out = _run("runs", "show", run["id"], "--db", run["db"], "--disagree", "--by", "kind")
    assert code == 0, out
    section = out.split("answers the judge read as declines (", 1)[1]
    assert section.splitlines()[0].endswith(": 2"), section
    lines = [x for x in section.splitlines() if x.startswith("  b")]
    assert [x.split()[0] for x in lines] == ["b02", "b06"], lines
    assert "kind=declined  people hallucination no; answer \"I'm sorry" in lines[0]
    assert "people hallucination yes" in lines[1]
    code, data = _run("runs", "show", run["id"], "--db", run["db"], "--disagree", "--json")
    assert [d["id"] for d in json.loads(data)["read_as_declines"]] == ["b02", "b06"]


def test_disagree_says_none_in_one_line_without_declines(tmp_path: Path) -> None:
    rows = [r for r in _rows() if r["metadata"]["kind"] != "declined"]
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = str(tmp_path / "r.db")
    code, said = _run("eval", str(data), "--db", db, "--metrics", "judge")
    assert code == 0, said
    assert "to check each really declines" not in said
    code, out = _run("runs", "show", "--db", db, "--disagree")
    assert code == 0, out
    assert out.rstrip().endswith("counts right, so check each really declines): none"), out


def test_eval_see_line_counts_the_declines(run: dict[str, str]) -> None:
    see = run["eval"].split("\nsee ", 1)[1].split("\nabstentions", 1)[0]
    assert "--disagree" in see and "the 2 answers the judge read as declines" in see, see


def test_every_auroc_says_what_it_ranks(run: dict[str, str]) -> None:
    said = " ".join(run["eval"].split())
    assert "AUROC above: of judge.faithfulness's 1-10 rating" in said, said
    code, out = _run("gate", run["id"], "--db", run["db"])
    first = out.splitlines()[0]
    assert "AUROC of the yes/no verdict " in first, first
    assert "AUROC of the 1-10 rating " not in first  # judge.hallucination's: a verdict


def test_eval_abstentions_one_line_full_under_runs_show(run: dict[str, str]) -> None:
    said = " ".join(run["eval"].split())
    line = said.split("abstentions: ", 1)[1].split(" judge check", 1)[0]
    assert "read as declines by the judge" in line and "runs show" in line, line
    assert "is the judge's reading, not people's" not in line  # the detail moved
    code, full = _run("runs", "show", run["id"], "--db", run["db"])
    full = " ".join(full.split())
    assert "is the judge's reading, not people's, and where people labelled a decline" in full
    assert "people's labels on the 2 answers the judge read as declines: 1 right" in full
