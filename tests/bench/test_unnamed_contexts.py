"""Trial 50: the retrieval metrics of a pipeline that names no documents were means over
the questions with gold passages only (1 of 4: recall 1.00 where the same passage,
named, scored 0.25), and the leaderboard did not say so. An unnamed context whose text
is in the corpus is now matched to the gold documents of its document, as a named one
is; the leaderboard shows over how many questions each row's retrieval metrics are
(`retr. n`) and says so under the table when rows differ. Through `ragassay bench`."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli

LIBRARY = "Members may borrow up to 12 items at a time. Loans last three weeks."
MUSEUM = "The museum is closed on Mondays. On Thursdays it stays open until 21:00."

RAG = '''
LIBRARY = "Members may borrow up to 12 items at a time."

def named(question):
    return {"answer": LIBRARY, "contexts": [{"text": LIBRARY, "doc": "library.md"}]}

def unnamed(question):
    return {"answer": LIBRARY, "contexts": [LIBRARY]}

def museum(question):
    return {"answer": "Closed on Mondays.", "contexts": ["The museum is closed on Mondays."]}

def reworded(question):  # named nowhere, and its text is in no document
    return {"answer": LIBRARY, "contexts": ["A member can take 12 items home."]}
'''

QUESTIONS = [
    {"id": "q1", "question": "How many items can a member borrow?", "reference": "12.",
     "gold_docs": ["library.md"],
     "gold_passages": [{"doc": "library.md", "quote": "borrow up to 12 items"}]},
    {"id": "q2", "question": "When is the museum open on Thursdays?",
     "reference": "Until 21:00.", "gold_docs": ["museum.md"]},
    {"id": "q3", "question": "How long is a loan?", "reference": "Three weeks.",
     "gold_docs": ["library.md"]},
    {"id": "q4", "question": "Is the museum open on Mondays?", "reference": "No.",
     "gold_docs": ["museum.md"]},
]


def _bench(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "library.md").write_text(f"# Library\n\n{LIBRARY}\n", encoding="utf-8")
    (corpus / "museum.md").write_text(f"# Museum\n\n{MUSEUM}\n", encoding="utf-8")
    (tmp_path / "questions.jsonl").write_text(
        "".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    (tmp_path / "unnamed_rag.py").write_text(RAG, encoding="utf-8")
    strategies = "".join(f'\n[[strategy]]\nname = "{n}"\npipeline = "unnamed_rag:{n}"\n'
                         for n in ("named", "unnamed", "museum", "reworded"))
    config = tmp_path / "bench.toml"
    config.write_text('[bench]\nname = "unnamed"\ncorpus = "corpus"\n'
                      f'questions = "questions.jsonl"\n{strategies}', encoding="utf-8")
    return config


def test_unnamed_contexts_score_like_named_ones_and_n_is_shown(tmp_path: Path) -> None:
    config, db, out = _bench(tmp_path), tmp_path / "b.db", tmp_path / "r.json"
    runner = CliRunner()
    done = runner.invoke(cli, ["bench", str(config), "--db", str(db), "-q"])
    assert done.exit_code == 0, done.output
    shown = runner.invoke(cli, ["report", "--db", str(db), "--out", str(out)])
    assert shown.exit_code == 0, shown.output
    rows = {r["strategy"]: r for r in json.loads(out.read_text())["leaderboard"]}
    figures = {name: (r["retrieval.recall"], r["retrieval.mrr"], r["retrieval.ndcg"],
                      r["retrieval.n"]) for name, r in rows.items()}
    # the same passage named or not: the same figures over the same 4 questions (q1 by
    # its gold passage, q2-q4 by their gold documents)
    assert figures["named"] == figures["unnamed"] == (0.5, 0.5, 0.5, 4)
    assert figures["museum"] == (0.5, 0.5, 0.5, 4)  # museum.md, gold of q2 and q4
    # text of no document, named nowhere: the gold-passage question only (a miss)
    assert figures["reworded"] == (0.0, 0.0, 0.0, 1)
    text = " ".join(done.output.split())
    assert "retr. n" in done.output
    assert ("note: retrieval metrics over fewer questions than others' 4 (retr. n): "
            "reworded 1; their recall, MRR and nDCG are means over other questions and do "
            "not compare with the rest") in text
