"""Per-strategy guide fields, interpretation flags and the report_sections entry point."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from ragassay.report.rounding import rounded
from ragassay.stats.interpret import FlagsConfig, Target, interpretation
from ragassay.stats.sections import Sections, report_sections
from ragassay.stats.strategies import strategy_summaries
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import InvalidRow, MetricSpec
from tests.support.specs import linked

KEYS = {
    "aggregate_metrics",
    "rmse_metrics",
    "per_metric_statistics",
    "strategies",
    "interpretation",
    "correlations",
    "diagnostics",
}


def _judge_table(make_table, judge_specs) -> ScoreTable:
    t = make_table(
        {**judge_specs, "ragas.faithfulness": MetricSpec(name="ragas.faithfulness",
                                                         labels=linked("ragas.faithfulness"))},
        {
            "judge.context_relevance": [8, 6, None, 10, 2],
            "judge.answer_similarity": [7, 9, 8, 6, 3],
            "judge.faithfulness": [9, 9, 10, 8, 4],
            "judge.hallucination": [0, 1, 0, 0, 1],
            "judge.overall": [7.9, 0.0, 9.0, 7.4, 0.0],
            "ragas.faithfulness": [0.9, 0.8, 0.7, 1.0, 0.1],
        },
        strategies=["a", "a", "a", "a", "b"],
        labels=[{"hallucination": v} for v in (False, True, False, False, True)],
    )
    invalid = (InvalidRow(id="bad", source="d.jsonl:3", reason="x", strategy="a"),)
    return ScoreTable(rows=t.rows, specs=t.specs, invalid=invalid)


def test_overall_formula(judge_specs) -> None:
    composite = judge_specs["judge.overall"].composite
    value, _ = composite.combine({"judge.context_relevance": 8, "judge.answer_similarity": 7.5,
                                  "judge.faithfulness": 9, "judge.hallucination": 0.25})
    assert value == pytest.approx((2.4 + 3.0 + 2.7) * 0.75)


def test_strategy_guide_fields(make_table, judge_specs) -> None:
    out = strategy_summaries(_judge_table(make_table, judge_specs), n_resamples=300)
    a = out["a"]
    assert a.figure("avg_context_relevance") == pytest.approx(8.0)  # unscored excluded
    assert a.figure("avg_answer_similarity") == pytest.approx(7.5)
    assert a.figure("avg_faithfulness") == pytest.approx(9.0)
    assert a.figure("hallucination_rate") == pytest.approx(0.25)
    # the formula of the averages, named apart from the strategy's overall (issue #29)
    assert a.figure("overall") is None
    assert a.figure("overall_of_averages") == pytest.approx(6.075)
    assert a.total_questions == 5 and a.figure("failed_questions") == 2  # unscored + invalid
    lo, hi = a.interval("overall_of_averages")
    assert lo <= hi and 0 <= lo <= 10
    low, high = a.interval("avg_faithfulness")
    assert low <= 9.0 <= high
    assert a.metrics["ragas.faithfulness"].mean == pytest.approx(0.85)
    assert a.metrics["ragas.faithfulness"].count == 4
    b = out["b"]
    assert b.figure("overall_of_averages") == pytest.approx(0.0)  # hallucination rate 1
    assert b.interval("overall_of_averages") == (0.0, 0.0)
    # the JSON entry holds the guide's figures as keys of its own, then the rest
    assert list(a.model_dump())[:7] == ["avg_context_relevance", "avg_answer_similarity",
                                        "avg_faithfulness", "hallucination_rate",
                                        "overall_of_averages",
                                        "intervals", "failed_questions"]


def test_a_missing_input_is_no_failed_question(judge_specs) -> None:
    """A row whose answer similarity is unscored for lack of a reference was counted
    as failed; only a metric that could not be scored counts."""
    from ragassay.types import NO_REFERENCE

    names = list(judge_specs)

    def row(i: int, why: str | None) -> Row:
        values = {n: (None if n == "judge.answer_similarity" and why else 8.0) for n in names}
        values["judge.hallucination"] = 0.0
        reasons = {"judge.answer_similarity": why} if why else {}
        return Row(id=f"s{i}", strategy="a", question="q", question_id=None, labels={},
                   values=values, reasons=reasons)

    table = ScoreTable.from_rows([row(0, NO_REFERENCE), row(1, "judge call failed: HTTP 500"),
                                  row(2, None)], judge_specs)
    out = strategy_summaries(table, n_resamples=50)["a"]
    assert out.total_questions == 3 and out.figure("failed_questions") == 1


def test_strategies_without_judge_metrics(make_table) -> None:
    t = make_table({"x.a": MetricSpec(name="x.a")}, {"x.a": [0.5, 0.7]})
    out = strategy_summaries(t, n_resamples=100)
    assert set(out["default"].model_dump()) == {"total_questions", "metrics", "failed"}
    assert out["default"].failed == {"x": 0}  # per suite, composite or not
    assert out["default"].metrics["x.a"].mean == pytest.approx(0.6)


def test_interpretation_levels(judge_specs) -> None:
    specs = {
        **judge_specs,
        "ragas.a": MetricSpec(name="ragas.a"),
        "ragas.b": MetricSpec(name="ragas.b"),
        "ragas.c": MetricSpec(name="ragas.c"),
        "x.err": MetricSpec(name="x.err", higher_is_better=False),
        "x.five": MetricSpec(name="x.five", low=1, high=5),
    }
    overall = {
        "judge.context_relevance": 8.0,
        "judge.answer_similarity": 7.5,
        "judge.faithfulness": 6.9,
        "judge.hallucination": 0.25,
        "ragas.a": 0.85,
        "ragas.b": 0.7,
        "ragas.c": 0.5,
        "x.err": 0.1,
        "x.five": 4.2,  # normalised 0.8
    }
    flags = interpretation(overall, specs, {"s1": {"judge.hallucination": 0.1, "ragas.a": None}})
    levels = {(f.metric, f.scope): f.level for f in flags}
    assert levels == {
        ("judge.context_relevance", "overall"): "good",
        ("judge.answer_similarity", "overall"): "ok",
        ("judge.faithfulness", "overall"): "warning",
        ("judge.hallucination", "overall"): "warning",
        ("ragas.a", "overall"): "good",
        ("ragas.b", "overall"): "ok",
        ("ragas.c", "overall"): "warning",
        ("x.err", "overall"): "good",
        ("x.five", "overall"): "good",
        ("judge.hallucination", "strategy:s1"): "good",
    }
    # said plainly where the mean stands (a new-user trial read "mean 4.95 is warning:
    # target >= 8, warning below 6"): each level in its own words, the target beside it
    said = {(f.metric, f.scope): f.message for f in flags}
    assert said[("judge.faithfulness", "overall")] == (
        "judge.faithfulness mean 6.9: below the warning line 7 (target >= 9)")
    assert said[("judge.hallucination", "overall")] == (
        "judge.hallucination rate 0.25: above the warning line 0.2 (target <= 0.1)")
    assert said[("judge.answer_similarity", "overall")] == (
        "judge.answer_similarity mean 7.5: misses the target >= 8 (warning below 6)")
    assert said[("judge.hallucination", "strategy:s1")] == (
        "judge.hallucination rate 0.1 (strategy:s1): meets the target <= 0.1")


def test_interpretation_config_and_fallback() -> None:
    unit_judge = {"judge.faithfulness": MetricSpec(  # 0-1 scale
        name="judge.faithfulness", labels=linked("judge.faithfulness"))}
    (f,) = interpretation({"judge.faithfulness": 0.95}, unit_judge)
    assert f.level == "good"  # the 1-10 target does not fit, generic 0-1 rule applies
    cfg = FlagsConfig(targets={"judge.faithfulness": Target(0.99, 0.97)}, unit_good=0.9)
    (g,) = interpretation({"judge.faithfulness": 0.95}, unit_judge, config=cfg)
    assert g.level == "warning"


def test_fallback_target_of_a_lower_is_better_metric_is_exact() -> None:
    """The generic 0-1 rule turned around: good <= 1 - 0.8, and 0.2 itself is good
    (1 - 0.8 is 0.19999999999999996 in floats)."""
    err = {"s.err": MetricSpec(name="s.err", higher_is_better=False)}
    (f,) = interpretation({"s.err": 0.2}, err)
    assert f.level == "good" and "<= 0.2" in f.message
    (g,) = interpretation({"s.err": 0.2001}, err)
    assert g.level != "good"


def _walk_floats(obj: Any) -> list[float]:
    if isinstance(obj, float):
        return [obj]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _walk_floats(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _walk_floats(v)]
    return []


def _assert_json_clean(sections: Sections) -> None:
    """As the report publishes them: JSON without NaN, every float rounded."""
    published = rounded(sections).model_dump()
    json.dumps(published, allow_nan=False)
    assert all(math.isfinite(x) and x == round(x, 6) for x in _walk_floats(published))


def test_report_sections_full(make_table, judge_specs) -> None:
    out = report_sections(_judge_table(make_table, judge_specs), n_resamples=200)
    assert set(out.model_dump()) == KEYS | {"calibration", "disagreements"}
    _assert_json_clean(out)
    assert out.rmse_metrics["ragas.faithfulness"].count == 5
    scopes = {f.scope for f in out.interpretation}
    assert scopes == {"overall", "strategy:a", "strategy:b"}
    assert out.calibration is not None
    cal = {(p.label, p.metric) for p in out.calibration.pairs}
    assert ("hallucination", "judge.hallucination") in cal
    assert ("hallucination", "ragas.faithfulness") in cal
    assert out == report_sections(_judge_table(make_table, judge_specs), n_resamples=200)


def test_report_sections_degenerate_inputs(make_table) -> None:
    unit = {"x.a": MetricSpec(name="x.a"), "x.b": MetricSpec(name="x.b")}
    empty = ScoreTable(rows=(), specs={})
    one = make_table(unit, {"x.a": [0.3], "x.b": [None]})
    const = make_table(unit, {"x.a": [0.5] * 4, "x.b": [1.0, 0.0, 1.0, 0.0]})
    for t in (empty, one, const):
        out = report_sections(t, n_resamples=50)
        assert set(out.model_dump()) == KEYS  # no labels -> no calibration
        assert out.calibration is None
        _assert_json_clean(out)
    one_out = report_sections(one, n_resamples=50)
    assert one_out.per_metric_statistics["x.a"].std_dev == 0.0
    one_agg = one_out.aggregate_metrics.metrics["x.a"]
    assert one_agg.mean == 0.3 and one_agg.count == 1
    assert one_agg.ci_low is None and one_agg.ci_high is None  # one value: no interval
    assert one_out.aggregate_metrics.metrics["x.b"].mean is None
    const_out = report_sections(const, n_resamples=50)
    assert const_out.correlations.value("x.a", "x.b") is None
    assert const_out.correlations.value("x.b", "x.b") == 1.0


def test_an_abstention_is_no_failed_question(judge_specs) -> None:
    """An answer that declined ("I don't know", abstained on the answer metrics) is
    counted in the abstention rates, not as a failed question (the demo's q11 was)."""
    names = list(judge_specs)
    answer_metrics = ("judge.faithfulness", "judge.answer_similarity", "judge.overall")

    def row(i: int, abstained: bool) -> Row:
        values = {n: (None if abstained and n in answer_metrics else 8.0) for n in names}
        values["judge.hallucination"] = None if abstained else 0.0
        gone = {n: "correct" for n in (*answer_metrics, "judge.hallucination")}
        return Row(id=f"s{i}", strategy="a", question="q", question_id=None, labels={},
                   values=values, reasons={}, abstained=gone if abstained else {})

    table = ScoreTable.from_rows([row(0, True), row(1, False)], judge_specs)
    out = strategy_summaries(table, n_resamples=50)["a"]
    assert out.total_questions == 2 and out.figure("failed_questions") == 0
