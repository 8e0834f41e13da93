"""Session 27 (k223), from trial 90's findings on labelled probes (`metadata.kind`,
`labels.hallucinated`) run with `eval --judge-check`, through the real CLI on 36 rows of
this file's own words (one kind of invented detail the offline judge misses):

1. `gate` on a judge check said the unseen sets' weak figure on every row beside this
   run's: its rows now give this run's agreement with the user's labels alone, the
   unseen sets one line under the table, said as context from other data;
2. `runs show`'s "What people would say" put people's hallucinated rate beside a
   faithfulness mean on 1-10 marked `(inverted)`: the judge's cell now names the label
   and gives its rate on the same 0-1 scale (`hallucinated 0.387 at its line`);
3. the by-kind table's note was one ~60-word sentence: now short lines;
4. "5 rows on ... are 3 independent readings" said metrics, not data rows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragassay.report.groups import AGREEMENT_NOTE
from ragassay.store import Store
from tests.support.cli import cli_output, eval_by_kind


def _rows() -> list[dict[str, Any]]:
    """Library rows, 6 per kind, each kind one label; 5 of the 6 declines abstain."""
    rows = []
    names = ["Anna", "Ben", "Carla", "Dev", "Eli", "Fay", "Gus"]
    for i in range(6):
        a, b = names[i], names[i + 1]
        ctx = [f"The library in town {i} opens at {i + 7} am and closes at {i + 5} pm.",
               f"{a} runs the lending desk and {b} runs the archive."]
        answers = {
            "paraphrase": (f"Doors open at {i + 7} in the morning.", False),
            "cited": (ctx[0] + " [1]", False),
            "number": (ctx[0].replace(f"at {i + 7} am", f"at {i + 9} am"), True),
            "entity": (f"{b} runs the lending desk.", True),
            "invented": (f"The library in town {i} opens at {i + 7} am and also lends "
                         "bicycles.", True),
            "decline": ("I'm sorry, I can't help with that question." if i < 5
                        else f"The library opens at {i + 7} am.", False)}
        for kind, (answer, wrong) in answers.items():
            rows.append({"id": f"{kind[:2]}{i}", "question": f"When does the library in "
                         f"town {i} open and who runs lending?", "contexts": ctx,
                         "answer": answer, "labels": {"hallucinated": wrong},
                         "metadata": {"kind": kind}})
    return rows


_run = cli_output


@pytest.fixture(scope="module")
def trial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("k223")
    data, db = tmp / "probes.jsonl", str(tmp / "r.db")
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    said = _run("eval", str(data), "--judge-check", "--by", "kind", "--db", db)
    with Store(db, readonly=True) as store:
        run = store.list_runs()[0].id
    return {"run": run, "eval": said, "show": _run("runs", "show", run, "--by", "kind", "--db", db),
            "gate": _run("gate", run, "--db", db, code=1, columns="400"),
            "verbose": _run("gate", run, "--db", db, "--verbose", code=1, columns="400")}


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_gate_on_a_judge_check_says_the_unseen_sets_once_as_context(
        trial: dict[str, str]) -> None:
    flat = _flat(trial["gate"])
    assert "weak agreement with people" not in flat, flat
    assert "; this run: " not in flat
    assert "agreement with your labels: right on 30 of 36 (83%)" in flat
    assert flat.count("context, not this data:") == 1
    assert "the lowest of" not in flat  # the unseen sets' figures: --verbose
    assert "this run's agreement (in the rows) is the figure that counts" in flat
    assert flat.startswith("judge check: ")
    assert "The judge's verdict is its agreement with your labels: " in flat
    # --verbose keeps every metric's unseen-set figure
    assert "context, not this data" not in _flat(trial["verbose"])


def test_people_and_the_judge_side_by_side_in_the_same_terms(trial: dict[str, str]) -> None:
    show = trial["show"]
    end = show.index("judge.hallucination vs people (hallucinated):")
    table = show[show.index("What people would say"):end]
    row = next(x for x in table.splitlines() if "judge.faithfulness" in x)
    below = table.splitlines()[table.splitlines().index(row) + 1]
    assert "hallucinated 0.387 at its line" in row and "mean" not in row, table
    assert "0.500" in below, table  # people's figure under its label, the judge's beside it
    assert "judge's rate of that label, on the same 0-1 scale" in _flat(table)
    # the 1-10 mean is still said, under the table
    assert "judge's own: mean 6.087" in show


def test_the_by_kind_note_is_short_lines(trial: dict[str, str], tmp_path: Any) -> None:
    lines = AGREEMENT_NOTE.splitlines()
    assert len(lines) >= 4 and all(len(x.split()) <= 15 for x in lines)
    for line in lines:
        assert line in trial["show"]
    assert "right on" in eval_by_kind(tmp_path, _rows())


def test_repeats_say_metrics_not_rows(trial: dict[str, str]) -> None:
    out = _flat(trial["eval"])
    assert "5 metrics on hallucinated labels in this table are 3 independent readings" in out
    assert "5 rows on" not in out
