"""Property check: report_sections never yields NaN/inf, whatever is unscored (its values
as computed, before the report rounds them)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ragassay.stats.sections import report_sections
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec

SPECS = {
    "judge.faithfulness": MetricSpec(name="judge.faithfulness", low=1, high=10),
    "judge.hallucination": MetricSpec(
        name="judge.hallucination", kind="bool", higher_is_better=False
    ),
    "ragas.faithfulness": MetricSpec(name="ragas.faithfulness"),
    "ragas.context_precision": MetricSpec(name="ragas.context_precision"),
}

cell = st.one_of(st.none(), st.sampled_from([0.0, 0.5, 1.0]), st.floats(0, 1))
row = st.fixed_dictionaries(
    {
        "judge.faithfulness": st.one_of(st.none(), st.integers(1, 10).map(float)),
        "judge.hallucination": st.one_of(st.none(), st.sampled_from([0.0, 1.0])),
        "ragas.faithfulness": cell,
        "ragas.context_precision": cell,
        "strategy": st.sampled_from(["a", "b"]),
        "label": st.one_of(st.none(), st.booleans()),
    }
)


@settings(max_examples=30, deadline=None)
@given(st.lists(row, max_size=6))
def test_no_nan_in_any_section(rows: list[dict]) -> None:
    table = ScoreTable.from_rows(
        [
            Row(
                id=f"s{i}",
                strategy=r["strategy"],
                labels={} if r["label"] is None else {"hallucination": r["label"]},
                values={m: r[m] for m in SPECS},
            )
            for i, r in enumerate(rows)
        ],
        SPECS,
    )
    out = report_sections(table, n_resamples=20)
    json.dumps(out.model_dump(), allow_nan=False)
