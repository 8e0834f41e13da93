"""Paired comparisons, Holm correction, verdicts and trends."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ragassay.stats.compare import (
    CompareOptions,
    PairedDifference,
    compare_paired,
    compare_strategies,
    compare_tables,
    holm,
    verdict,
)
from ragassay.stats.trend import TrendPoint, trend, trends
from ragassay.types import MetricSpec

FAST = CompareOptions(n_resamples=300)


def test_holm_known_example() -> None:
    # sorted 0.01, 0.03, 0.04 -> 3*0.01, max(0.03, 2*0.03), max(0.06, 1*0.04)
    adj = holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": None})
    assert adj["a"] == pytest.approx(0.03)
    assert adj["c"] == pytest.approx(0.06)
    assert adj["b"] == pytest.approx(0.06)
    assert adj["d"] is None
    assert list(adj) == ["a", "b", "c", "d"]
    assert holm({"x": 0.6, "y": 0.7}) == {"x": 1.0, "y": 1.0}


def test_compare_paired_hand_case() -> None:
    r = compare_paired({1: 1, 2: 2, 3: 3}, {1: 2, 2: 3, 3: 5, 4: 9}, n_resamples=300)
    assert r.n == 3
    assert r.mean_a == 2.0 and r.mean_b == pytest.approx(10 / 3)
    assert r.diff == pytest.approx(4 / 3)
    assert 1.0 <= r.ci_low <= r.ci_high <= 2.0  # differences are 1, 1, 2
    assert r.wilcoxon_p == pytest.approx(0.25)  # exact: 2 * (1/2)^3


def test_compare_paired_degenerate() -> None:
    zero = compare_paired({"a": 0.5, "b": 0.7}, {"a": 0.5, "b": 0.7})
    assert zero.wilcoxon_p == 1.0 and zero.diff == 0.0
    assert (zero.ci_low, zero.ci_high) == (0.0, 0.0)
    none = compare_paired({"a": 1.0}, {"b": 1.0})
    assert none.n == 0 and none.diff is None and none.wilcoxon_p is None


def test_verdict_rules() -> None:
    up = MetricSpec(name="x.score")
    down = MetricSpec(name="x.rate", higher_is_better=False)
    sig = PairedDifference(n=5, ci_low=0.1, ci_high=0.3, wilcoxon_p=0.01)
    assert verdict(sig, up) == "better"
    assert verdict(sig, down) == "worse"
    assert verdict(PairedDifference(n=5, ci_low=-0.3, ci_high=-0.1), down, 0.05, 0.01) == (
        "better")
    assert verdict(sig, up, 0.05, 0.2) == "unclear"
    assert verdict(sig.model_copy(update={"ci_low": -0.01}), up) == "unclear"
    # no pair with a value on both sides (trial 53: a metric neither run scored read
    # "unclear"): nothing to test
    assert verdict(PairedDifference(n=0), up) == "not scored"
    assert verdict(PairedDifference(n=0, tost_p=0.01), up) == "not scored"
    # shown within the margin: equivalent, even when a difference is also detectable
    assert verdict(sig.model_copy(update={"tost_p": 0.01}), up) == "equivalent"
    assert verdict(sig.model_copy(update={"tost_p": 0.01}), up, 0.05, None, 0.2) == "better"


def _runs(make_table):
    specs = {
        "ragas.faithfulness": MetricSpec(name="ragas.faithfulness"),
        "ragas.context_recall": MetricSpec(name="ragas.context_recall"),
        "judge.hallucination": MetricSpec(
            name="judge.hallucination", kind="bool", higher_is_better=False
        ),
    }
    n = 20
    base = [0.3 + 0.02 * i for i in range(n)]
    noise = [0.01 if i % 2 else -0.01 for i in range(n)]
    a = make_table(
        specs,
        {
            "ragas.faithfulness": base,
            "ragas.context_recall": base,
            "judge.hallucination": [0] * n,
        },
    )
    b = make_table(
        specs,
        {
            "ragas.faithfulness": [v + 0.1 + e for v, e in zip(base, noise, strict=True)],
            "ragas.context_recall": [v + e for v, e in zip(base, noise, strict=True)],
            "judge.hallucination": [1] * 15 + [0] * 5,
        },
    )
    return a, b


def test_compare_tables_verdicts(make_table) -> None:
    a, b = _runs(make_table)
    out = compare_tables(a, b, FAST)
    assert out.paired_by == "strategy and sample id" and out.paired_samples == 20
    m = out.metrics
    assert m["ragas.faithfulness"].verdict == "better"
    assert m["ragas.faithfulness"].diff == pytest.approx(0.1)
    # +-0.01 around the same scores: within the margin (0.025 of the 0-1 range)
    assert m["ragas.context_recall"].verdict == "equivalent"
    assert m["ragas.context_recall"].margin == pytest.approx(0.025)
    assert m["ragas.faithfulness"].effect_size > 0.5
    assert m["judge.hallucination"].verdict == "worse"  # more hallucinations
    # Holm: the smallest p is multiplied by the number of metrics
    p = m["ragas.faithfulness"].wilcoxon_p
    assert m["ragas.faithfulness"].p_adjusted == pytest.approx(min(1.0, 3 * p))


def test_compare_tables_falls_back_to_id_and_lists_missing_metrics(make_table) -> None:
    s = {"x.a": MetricSpec(name="x.a"), "x.b": MetricSpec(name="x.b")}
    a = make_table(s, {"x.a": [0.1, 0.2, 0.3]}, strategies=["v1"] * 3)
    b = make_table(s, {"x.a": [0.1, 0.2, 0.3], "x.b": [1, 1, 1]}, strategies=["v2"] * 3)
    out = compare_tables(a, b, FAST)
    assert out.paired_by == "sample id" and out.paired_samples == 3
    assert out.metrics_only_in_b == ["x.b"] and list(out.metrics) == ["x.a"]
    assert out.metrics["x.a"].wilcoxon_p == 1.0


def test_compare_strategies_pairing(make_table) -> None:
    s = {"x.a": MetricSpec(name="x.a")}
    cols = {"x.a": [0.1, 0.2, 0.3, 0.4, 0.9, 0.1]}
    strat = ["bm25"] * 3 + ["dense"] * 3
    by_qid = make_table(
        s, cols, strategies=strat, question_ids=["q1", "q2", "q3", "q3", "q2", "q9"]
    )
    out = compare_strategies(by_qid, "bm25", "dense", FAST)
    assert out.paired_by == "question_id" and out.paired_samples == 2
    # pairs: q2 0.2 -> 0.9, q3 0.3 -> 0.4
    assert out.metrics["x.a"].diff == pytest.approx(0.4)

    by_text = make_table(
        s,
        cols,
        strategies=strat,
        ids=["a1", "a2", "a3", "b1", "b2", "b3"],
        questions=["What?", "Who  is", "Why", "who is", "what?", "how"],
    )
    out = compare_strategies(by_text, "bm25", "dense", FAST)
    assert out.paired_by == "question text" and out.paired_samples == 2
    assert out.metrics["x.a"].mean_a == pytest.approx(0.15)  # a1, a2
    assert out.metrics["x.a"].mean_b == pytest.approx(0.65)  # b2, b1

    by_id = make_table(s, cols, strategies=strat, ids=["1", "2", "3", "1", "2", "3"])
    assert compare_strategies(by_id, "bm25", "dense", FAST).paired_by == "sample id"


def test_trend_orders_by_time() -> None:
    pts = trend(
        [
            ("r3", "2024-03-01T00:00:00", 0.7),
            ("r1", datetime(2024, 1, 1, tzinfo=UTC), 0.5),
            ("r2", "2024-02-01", None),
        ]
    )
    assert [p.run_id for p in pts] == ["r1", "r2", "r3"]
    assert pts[0].created == "2024-01-01T00:00:00+00:00"
    assert [p.delta for p in pts] == [None, None, pytest.approx(0.2)]


def test_trends_across_tables(make_table) -> None:
    s = {"x.a": MetricSpec(name="x.a"), "x.b": MetricSpec(name="x.b")}
    t1 = make_table(s, {"x.a": [0.2, 0.4]})
    t2 = make_table(s, {"x.a": [0.6, 0.8], "x.b": [1.0, 1.0]})
    out = trends([("new", "2024-05-01", t2), ("old", "2024-04-01", t1)], n_resamples=100)
    assert [p.run_id for p in out["x.a"]] == ["old", "new"]
    assert [p.mean for p in out["x.a"]] == [pytest.approx(0.3), pytest.approx(0.7)]
    assert out["x.a"][1].delta == pytest.approx(0.4)
    assert out["x.b"][0] == TrendPoint(run_id="old", created="2024-04-01", mean=None,
                                       delta=None, ci_low=None, ci_high=None, count=0)
