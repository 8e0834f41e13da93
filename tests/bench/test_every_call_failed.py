"""A bench whose only pipeline fails on every question (contexts of the wrong type)
ends in one line that says why: the failures first, then that no question was judged,
never "no metric of this run declares a ranking role; set rank_by", which sent the user
to a setting that could not help. Through `ragassay bench`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli


def test_a_pipeline_failing_every_question_says_so(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "library.md").write_text("# Library\n\nMembers may borrow 12 items.\n",
                                       encoding="utf-8")
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(
        {"id": f"q{i}", "question": f"How many items, {i}?", "reference": "12.",
         "gold_docs": ["library.md"]}) + "\n" for i in range(2)), encoding="utf-8")
    (tmp_path / "broken_rag.py").write_text(
        'def answer(question):\n    return {"answer": "12.", "contexts": [123]}\n',
        encoding="utf-8")
    config = tmp_path / "bench.toml"
    config.write_text('[bench]\nname = "broken"\ncorpus = "corpus"\nquestions = '
                      '"questions.jsonl"\n[[strategy]]\nname = "mine"\n'
                      'pipeline = "broken_rag:answer"\n', encoding="utf-8")
    done = CliRunner().invoke(cli, ["bench", str(config), "--db", str(tmp_path / "b.db"),
                                    "-q"])
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output
    text = " ".join(done.output.split())
    assert "mine: 2 of 2 questions failed (failed rows in the report); first:" in text
    assert "ranking role" not in text
    assert "error: no question was judged: every pipeline call failed" in text
