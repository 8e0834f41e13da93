"""The HTML report's samples table reads like the other tables: no Python literals."""

from __future__ import annotations

from ragassay.report import FailedEntry, to_html
from tests.report.conftest import entry, make_report


def test_samples_show_values_as_text_and_invalid_rows_with_their_reason() -> None:
    report = make_report([
        entry("s1", {"judge.faithfulness": 8.123456789012, "judge.hallucination": False,
                     "judge.answer_similarity": None},
              {"judge.answer_similarity": "no reference answer"}, strategy="a",
              answer="x", reasoning="fine"),
        FailedEntry(id="bad", strategy="a", error="d.jsonl:3: missing question"),
    ])
    page = to_html(report)
    samples = page[page.index("<h2>Samples</h2>"):]
    assert "judge.faithfulness: 8.123" in samples and "8.123456789" not in samples
    assert "judge.hallucination: no" in samples and "False" not in samples
    assert "None" not in samples
    assert "judge.answer_similarity: no reference answer" in samples
    assert "invalid row: d.jsonl:3: missing question" in samples
