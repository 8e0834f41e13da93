"""Trial 61, finding 3: `to_pandas()` showed a declined answer (abstained) as <NA> in
judge.hallucination, as an unscored one is; only the `_reason` text told them apart, so
`df["judge.hallucination"].isna()` counted declines as unscored while `summary()` counts
them apart. `<metric>_status` (a categorical: scored, abstained, unscored) says which,
in the wide frame and (`metric_status`) the long one."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import ragassay
from tests.support.grouped import declines_probe_rows


def test_the_status_column_counts_what_summary_counts(tmp_path: Path) -> None:
    rows = declines_probe_rows(4)
    rows[0]["reference"] = "The blue key card."  # answer similarity: scored on 1 row only
    result = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", progress=False)
    frame, summary = result.to_pandas(), result.summary()
    for metric in ("judge.hallucination", "judge.faithfulness", "judge.answer_similarity"):
        status = frame[metric + "_status"]
        assert isinstance(status.dtype, pd.CategoricalDtype)
        assert list(status.cat.categories) == ["scored", "abstained", "unscored"]
        counts = status.value_counts()
        assert {k: int(counts[k]) for k in ("scored", "abstained", "unscored")} == {
            k: int(summary.loc[metric, k]) for k in ("scored", "abstained", "unscored")}
        # a value exactly where scored; the reason exactly where not
        assert (status == "scored").tolist() == frame[metric].notna().tolist()
        assert (status != "scored").tolist() == frame[metric + "_reason"].notna().tolist()
    assert int(summary.loc["judge.hallucination", "abstained"]) == 3  # the declines
    declined = frame[frame["judge.hallucination_status"] == "abstained"]
    assert declined["judge.hallucination_reason"].str.startswith("abstained (").all()
    assert declined["answer"].eq("I don't have information about that.").all()
    long = result.to_pandas(long=True)
    mine = long[long["metric"] == "judge.hallucination"]
    assert mine["metric_status"].tolist() == frame["judge.hallucination_status"].tolist()
    assert set(long["status"]) == {"ok"}  # the row's own status stays as it was


def test_a_failed_row_has_no_status(tmp_path: Path) -> None:
    rows = [declines_probe_rows(1)[0], {"id": "bad", "answer": "no question"}]
    frame = ragassay.evaluate(rows, "judge", store=tmp_path / "r.db", skip_invalid=True,
                              progress=False).to_pandas().set_index("id")
    assert pd.isna(frame.loc["bad", "judge.overall_status"])
    assert frame.loc["q000", "judge.overall_status"] == "scored"
