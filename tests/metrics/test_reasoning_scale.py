"""The offline judge's reasoning names its figures on the scale the user sees (new-user
trial 67, finding 6: a sample's reasoning ended "faithfulness 0.85" while its
judge.faithfulness was 8.66 of 1-10 and its ragas.faithfulness 0.73, a third scale that
nothing explained)."""

from __future__ import annotations

import re
from pathlib import Path

from ragassay.report import SampleEntry


def test_reasoning_says_the_judge_suites_own_value(tmp_path: Path) -> None:
    import ragassay

    rows = [{"id": f"s{i}", "question": f"How does locker {i} open?",
             "contexts": [f"Locker {i} on deck 2 opens with the blue key card."],
             "answer": (f"Locker {i} opens with the blue key card." if i % 2 else
                        f"Locker {i} opens with the blue key card. It was painted red in 1998."),
             "reference": f"With the blue key card, locker {i}."} for i in range(4)]
    report = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False).report()
    entries = [e for e in report.entries if isinstance(e, SampleEntry)]
    assert entries
    for e in entries:
        said = e.reasoning or ""
        assert "\n" not in said  # one line
        faith = e.metrics["judge.faithfulness"]
        assert isinstance(faith, float)
        assert f"(judge.faithfulness {faith:.2f} on 1-10)" in said, said
        # the probability behind it is named as such, not as a faithfulness
        (p,) = re.findall(r"support (\d\.\d\d) \(judge\.faithfulness", said)
        assert abs(1 + 9 * float(p) - faith) < 0.05
        assert not re.search(r"(?<!judge\.)faithfulness \d\.\d\d(?! on)", said)
        sim = e.metrics["judge.answer_similarity"]
        assert isinstance(sim, float)
        assert f"(judge.answer_similarity {sim:.2f} on 1-10)" in said, said
