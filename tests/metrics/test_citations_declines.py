"""A decline under `--metrics citations` (new-user trial 67, finding 9: "unscored" and no
abstention table, while docs/citations.md said a decline is its own outcome in every suite
that scores answers): the suite does not record it as abstained, and the docs say so."""

from __future__ import annotations

from pathlib import Path

from ragassay.report import SampleEntry

DOCS = Path(__file__).resolve().parents[2] / "docs" / "citations.md"


def test_a_decline_is_unscored_by_citations_as_the_docs_say(tmp_path: Path) -> None:
    import ragassay

    rows = [{"id": "d0", "question": "Who repaints locker 3?",
             "contexts": ["Locker 3 on deck 2 opens with the blue key card."],
             "answer": "I don't have information about that."}]
    report = ragassay.evaluate(rows, "citations", store=tmp_path / "r.db",
                               progress=False).report()
    (e,) = [e for e in report.entries if isinstance(e, SampleEntry)]
    assert not e.abstained
    assert e.unscored["citations.recall"] == "no answer sentence needs a citation"
    docs = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert "In every answer-scoring suite it is now its own outcome" not in docs
    assert ("its `citations.recall` is unscored, `no answer sentence needs a citation`"
            in docs)
