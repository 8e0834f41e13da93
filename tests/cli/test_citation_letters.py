"""New-user trial 73: answers citing bare bracketed letters (`[A]`, `[B]`) read as citing
nothing (recall 0) with no word why; the grammar reads a letter only after a source word
(`[Source A]`) or as an id the sample names. Such an answer's unscored reason now says so,
one reason shared by every such answer, so the run's one unscored line
names it; an answer whose letters are its contexts' ids cites them."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli

CONTEXTS = ["Books can be borrowed for 21 days and renewed twice online.",
            "On Saturdays the library opens at 9am and closes at 5pm."]
ANSWER = "You can borrow a book for 21 days [A]. On Saturdays it opens at 9am [B]."


def _eval(tmp_path: Path, metadata: dict[str, object]) -> tuple[str, dict]:
    rows = [{"id": f"s{i}", "question": "How long can I borrow a book, and when do you open?",
             "contexts": CONTEXTS, "answer": ANSWER, "metadata": metadata} for i in range(4)]
    rows.append({"id": "plain", "question": "Is there Wi-Fi?", "contexts": CONTEXTS,
                 "answer": "Yes, there is free Wi-Fi everywhere."})
    data, out = tmp_path / "data.jsonl", tmp_path / "r.json"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    got = CliRunner().invoke(cli, ["eval", str(data), "--metrics", "citations", "--db",
                                   str(tmp_path / "r.db"), "--out", str(out)],
                             env={"COLUMNS": "250"})
    assert got.exit_code == 0, got.output
    return got.output, json.loads(out.read_text())


def test_bare_letters_that_cite_nothing_are_said_in_one_line(tmp_path: Path) -> None:
    output, doc = _eval(tmp_path, {})
    line = next(x for x in output.splitlines() if "values unscored" in x)
    assert "[Source A]" in line and "bare bracketed letter, [A], names no context" in line
    assert "the answer cites nothing (a bare bracketed letter" in line
    assert "(8)" in line  # 4 answers, precision and fabricated each: one reason, counted
    why = {e["id"]: e["unscored"]["citations.precision"] for e in doc["detailed_results"]}
    assert "[Source A]" in why["s0"]
    assert why["plain"] == "the answer cites nothing"  # no letter: the plain reason


def test_letters_the_sample_names_as_ids_are_citations(tmp_path: Path) -> None:
    output, doc = _eval(tmp_path, {"context_ids": ["A", "B"]})
    assert "[Source A]" not in output
    first = next(e for e in doc["detailed_results"] if e["id"] == "s0")
    assert first["metrics"]["citations.fabricated"] == 0.0
    assert first["details"]["citations.recall"]["sentences"][0]["cites"]
