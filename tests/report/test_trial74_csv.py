"""Trial 74: the CSV wrote the judge's verdict as 1/0 beside people's labels written
true/false. The `value` column stays numeric on purpose (it holds every metric's values:
a `true` among numbers makes the column text, and a verdict's mean per metric is its
rate), each label is a column of its own (a yes/no label reads as booleans); the README's
CSV paragraph says so."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]


def test_a_verdict_is_a_number_and_a_label_a_boolean(tmp_path: Path) -> None:
    import ragassay
    from tests.support.verdicts import labelled_rows

    run = ragassay.evaluate(labelled_rows(answers=20, abstaining=2), "judge",
                            store=tmp_path / "r.db", progress=False)
    frame = pd.read_csv(io.StringIO(run.report("csv")))
    assert pd.api.types.is_numeric_dtype(frame["value"])
    verdicts = frame.loc[frame["metric"] == "judge.hallucination", "value"].dropna()
    assert set(verdicts) <= {0, 1} and len(verdicts) == 20
    assert frame["label.hallucinated"].dtype == bool
    rate = run.report().aggregate_metrics.metrics["judge.hallucination"].mean
    assert rate is not None and abs(verdicts.mean() - rate) < 1e-9


def test_the_readme_says_why_a_verdict_is_1_or_0() -> None:
    text = " ".join(line.lstrip("# ").strip() for line in
                    (ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert ("a yes/no verdict's 1 for yes and 0 for no, not true/false, so that the column "
            "stays numeric across metrics and a verdict's mean is its rate") in text
