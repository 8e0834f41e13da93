"""A jury's verdict from its jurors' outcomes (`metrics.jury.combine`): ratings averaged
with their distributions, flags by majority with ties to the cautious side and the
jurors' mean P(true), the composite recomputed by its rule, each juror's vote kept."""

from __future__ import annotations

import pytest

from ragassay.metrics.base import Outcome
from ragassay.metrics.judge import JudgeSuite
from ragassay.metrics.jury import combine
from ragassay.types import MetricResult, RatingReading, SampleResult, Usage


def outcome(faith: float, hall: bool, p_true: float | None = None,
            dist: dict[str, float] | None = None, calls: int = 1) -> Outcome:
    results = (
        MetricResult(name="judge.context_relevance", value=8.0),
        MetricResult(name="judge.answer_similarity", value=None,
                     unscored_reason="no reference answer"),
        MetricResult(name="judge.faithfulness", value=faith, rating=None if dist is None
                     else RatingReading(mode="expected", distribution=dist)),
        MetricResult(name="judge.hallucination", value=hall, rating=None if p_true is None
                     else RatingReading(mode="expected", p_true=p_true)),
        MetricResult(name="judge.overall", value=0.0),
    )
    return Outcome(SampleResult(sample_id="s1", suite="judge", results=results,
                                usage=Usage(calls=calls, input_tokens=10)))


def by_name(o: Outcome) -> dict[str, MetricResult]:
    return {r.name: r for r in o.result.results}


def test_ratings_are_averaged_and_flags_go_by_majority() -> None:
    got = by_name(combine(JudgeSuite(), ["a", "b", "c"], [
        outcome(9, False, 0.1, {"9": 1.0}), outcome(6, True, 0.6, {"6": 0.5, "7": 0.5}),
        outcome(3, True, 0.9)]))
    assert got["judge.faithfulness"].value == pytest.approx(6.0)
    faith = got["judge.faithfulness"].rating
    assert faith is not None and faith.distribution == pytest.approx(
        {"3": 1 / 3, "6": 1 / 6, "7": 1 / 6, "9": 1 / 3}, abs=1e-5)
    hall = got["judge.hallucination"]
    assert hall.value is True and hall.rating is not None
    assert hall.rating.p_true == pytest.approx((0.1 + 0.6 + 0.9) / 3)
    assert hall.details["jury"] == {"a": False, "b": True, "c": True}


def test_a_tie_goes_to_the_cautious_verdict() -> None:
    got = by_name(combine(JudgeSuite(), ["a", "b"], [outcome(9, False), outcome(9, True)]))
    assert got["judge.hallucination"].value is True  # hallucination: higher is worse
    rating = got["judge.hallucination"].rating
    assert rating is not None and rating.p_true == pytest.approx(0.5)


def test_the_composite_is_recomputed_from_the_combined_parts_and_usage_summed() -> None:
    out = combine(JudgeSuite(), ["a", "b"], [outcome(9, False, calls=2), outcome(7, False)])
    got = by_name(out)
    # (0.3 CR + 0.3 F) / 0.6 x (1 - hallucination), answer similarity unscored
    assert got["judge.overall"].value == pytest.approx((0.3 * 8 + 0.3 * 8) / 0.6)
    assert got["judge.answer_similarity"].value is None
    assert got["judge.answer_similarity"].unscored_reason == "no reference answer"
    assert out.result.usage.calls == 3
