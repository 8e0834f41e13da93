"""ScoreTable construction: bools as 0/1, unscored kept as a state with its reason."""

from __future__ import annotations

import math

from ragassay.stats.describe import describe
from ragassay.stats.table import NO_RESULT, NON_FINITE, ScoreTable
from ragassay.types import InvalidRow, MetricResult, MetricSpec, Sample, SampleResult

SPECS = {
    "judge.faithfulness": MetricSpec(name="judge.faithfulness", low=1, high=10),
    "judge.hallucination": MetricSpec(name="judge.hallucination", kind="bool"),
    "ragas.faithfulness": MetricSpec(name="ragas.faithfulness"),  # never produced
}


def _result(sid: str, faith: float | None, hall: bool | None, reason: str | None = None):
    return SampleResult(
        sample_id=sid,
        suite="judge",
        results=(
            MetricResult(name="judge.faithfulness", value=faith, unscored_reason=reason),
            MetricResult(name="judge.hallucination", value=hall),
        ),
    )


def _table() -> ScoreTable:
    samples = [
        Sample(id="a", question="Q a", labels={"hallucination": False}),
        Sample(id="b", question="Q b", metadata={"question_id": 7}),
        Sample(id="c", question="Q c"),
        Sample(id="d", question="Q d"),  # no result at all
    ]
    results = [
        _result("a", 8.0, False),
        _result("b", None, True, reason="judge timeout"),
        _result("c", math.nan, False),
        SampleResult(
            sample_id="x",  # unknown sample
            suite="trace",
            results=(MetricResult(name="trace.completeness", value=0.5),),
        ),
    ]
    invalid = [InvalidRow(id="z", source="data.jsonl:9", reason="bad")]
    return ScoreTable.from_results(results, samples, SPECS, invalid=invalid)


def test_metrics_present_only_and_in_declared_order() -> None:
    t = _table()
    assert t.metrics == ("judge.faithfulness", "judge.hallucination", "trace.completeness")
    # undeclared metric gets a default 0-1 score spec
    assert t.spec("trace.completeness").kind == "score"


def test_bools_are_zero_one_and_unscored_excluded() -> None:
    t = _table()
    assert t.column("judge.hallucination") == [0.0, 1.0, 0.0, None, None]
    assert t.values("judge.faithfulness") == [8.0]
    assert t.unscored("judge.faithfulness") == 4
    reasons = t.unscored_reasons("judge.faithfulness")
    assert reasons == {"judge timeout": 1, NON_FINITE: 1, NO_RESULT: 2}
    d = describe(t.values("judge.faithfulness"), t.spec("judge.faithfulness"), unscored=4)
    assert d.mean == 8.0 and d.sample_count == 1 and d.unscored_count == 4


def test_rows_keep_labels_question_ids_and_unknown_results() -> None:
    t = _table()
    assert [r.id for r in t.rows] == ["a", "b", "c", "d", "x"]
    assert t.rows[0].labels == {"hallucination": False}
    assert t.rows[1].question_id == "7"
    assert t.rows[4].question == "" and t.rows[4].value("trace.completeness") == 0.5
    assert t.label_names == ("hallucination",)
    assert len(t.invalid) == 1 and t.strategies == ("default",)
    assert t.means()["judge.hallucination"] == 1 / 3


def test_for_strategy_keeps_metrics() -> None:
    samples = [Sample(id="1", question="q", strategy="bm25"), Sample(id="1", question="q")]
    results = [
        SampleResult(
            sample_id="1",
            strategy="bm25",
            suite="judge",
            results=(MetricResult(name="judge.faithfulness", value=3),),
        )
    ]
    t = ScoreTable.from_results(results, samples, SPECS)
    assert t.strategies == ("bm25", "default")
    sub = t.for_strategy("default")
    assert sub.metrics == ("judge.faithfulness",)
    assert sub.values("judge.faithfulness") == [] and sub.unscored("judge.faithfulness") == 1
