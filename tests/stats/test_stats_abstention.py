"""Abstentions in the table and the statistics: no value, not unscored, left out of the
means, counted in their own per-strategy rates with intervals."""

import pytest
from pydantic import ValidationError

from ragassay.stats import ScoreTable, abstention_rates, aggregate_metrics, report_sections
from ragassay.types import MetricResult, MetricSpec, Sample, SampleResult

SPEC = {"s.faith": MetricSpec(name="s.faith"), "s.ctx": MetricSpec(name="s.ctx")}


def _result(i: int, strategy: str, faith: MetricResult) -> SampleResult:
    return SampleResult(sample_id=f"q{i}", strategy=strategy, suite="s",
                        results=(faith, MetricResult(name="s.ctx", value=0.5)))


def _abst(outcome: str) -> MetricResult:
    return MetricResult(name="s.faith", value=None, abstention=outcome)


def _results() -> list[SampleResult]:
    return [
        _result(0, "a", MetricResult(name="s.faith", value=1.0)),
        _result(1, "a", MetricResult(name="s.faith", value=0.0)),
        _result(2, "a", _abst("correct")),
        _result(3, "a", _abst("false")),
        _result(4, "a", MetricResult(name="s.faith", value=None, unscored_reason="empty answer")),
        _result(0, "b", MetricResult(name="s.faith", value=1.0)),
    ]


def _table() -> ScoreTable:
    results = _results()
    samples = [Sample(id=r.sample_id, question="q", strategy=r.strategy) for r in results]
    return ScoreTable.from_results(results, samples, SPEC)


def test_status_of_a_value():
    assert MetricResult(name="x", value=0.0).status == "scored"
    assert MetricResult(name="x", value=None, unscored_reason="empty answer").status == "unscored"
    assert _abst("false").status == "abstained" and _abst("false").abstention == "false"
    # a details key is no state (the suite's own record); an abstention has no value and
    # no unscored reason, and one of three outcomes
    assert MetricResult(name="x", value=None, unscored_reason="r",
                        details={"abstention": "false"}).status == "unscored"
    for wrong in ({"value": 1.0, "abstention": "false"},
                  {"value": None, "unscored_reason": "r", "abstention": "false"},
                  {"value": None, "abstention": "maybe"}):
        with pytest.raises(ValidationError):
            MetricResult(name="x", **wrong)


def test_abstentions_are_neither_means_nor_unscored():
    table = _table()
    assert table.values("s.faith") == [1.0, 0.0, 1.0]
    assert table.unscored("s.faith") == 1 and table.abstained("s.faith") == 2
    assert table.unscored_reasons("s.faith") == {"empty answer": 1}
    agg = aggregate_metrics(table, n_resamples=200).metrics["s.faith"]
    assert agg.mean == 2 / 3 and agg.unscored == 1 and agg.abstained == 2
    assert aggregate_metrics(table, n_resamples=200).metrics["s.ctx"].abstained is None


def test_rates_per_strategy_with_intervals():
    rates = abstention_rates(_table(), n_resamples=200)
    assert rates is not None and list(rates) == ["a", "b"]
    a = rates["a"]
    assert (a.samples, a.abstained, a.correct, a.false) == (5, 2, 1, 1)
    assert a.abstention_rate.mean == 2 / 5 and a.false_abstention_rate.mean == 1 / 5
    assert a.abstention_rate.ci_low is not None and a.abstention_rate.ci_high is not None
    assert rates["b"].abstention_rate.mean == 0.0


def test_section_only_when_some_answer_abstained():
    assert report_sections(_table(), n_resamples=100).abstentions is not None
    plain = ScoreTable.from_results(
        [_result(0, "a", MetricResult(name="s.faith", value=1.0))],
        [Sample(id="q0", question="q", strategy="a")], SPEC)
    sections = report_sections(plain, n_resamples=100)
    assert sections.abstentions is None
    assert "abstentions" not in sections.model_dump(exclude_none=True)


def test_gate_reads_the_run_rates():
    from ragassay.stats import gate

    result = gate(_table(), {"abstentions.abstention_rate": 0.5,
                             "abstentions.false_abstention_rate": 0.1}, n_resamples=100)
    by = {c.metric: c for c in result.checks}
    assert by["abstentions.abstention_rate"].status == "PASS"  # 2/6 <= 0.5
    assert by["abstentions.abstention_rate"].value == 2 / 6
    assert by["abstentions.false_abstention_rate"].status == "FAIL"  # 1/6 > 0.1
    assert by["abstentions.false_abstention_rate"].higher_is_better is False


def test_compare_pairs_the_rates_when_some_answer_abstained():
    from ragassay.stats import compare_strategies

    # strategy b answers the same questions as a, never abstaining
    more = [_result(i, "b", MetricResult(name="s.faith", value=1.0)) for i in range(1, 5)]
    samples = [Sample(id=f"q{i}", question="q", strategy=s) for s in "ab" for i in range(5)]
    results = [r for r in _results() if r.strategy == "a"]
    both = ScoreTable.from_results([*results, *more], samples, SPEC)
    cmp = compare_strategies(both, "a", "b")
    rate = cmp.metrics["abstentions.abstention_rate"]
    # paired over q1-q4 (b has no q0): a abstained on q2 and q3
    assert rate.n == 4 and rate.mean_a == 2 / 4 and rate.mean_b == 0.0
    assert rate.higher_is_better is False
    assert "abstentions.false_abstention_rate" in cmp.metrics
    plain = ScoreTable.from_results([results[0], *more], samples, SPEC)
    assert "abstentions.abstention_rate" not in compare_strategies(plain, "a", "b").metrics
