"""Routing decisions from readings: confidences read from each kind of verdict, the
metric routed on, thresholds per tier, where each sample ends up."""

from __future__ import annotations

import pytest

from ragassay.metrics.judge import JudgeSuite
from ragassay.routing import Case, Reading, calibrate, choose_target, read, route
from ragassay.routing.decide import calibrated_tiers
from ragassay.types import MetricResult, RatingReading, RoutingPlan, Tier

SPECS = {s.name: s for s in JudgeSuite().specs}  # with the labels each is linked to
FLAG = SPECS["judge.hallucination"]
RATING = SPECS["judge.answer_similarity"]
FAITH = SPECS["judge.faithfulness"]


def plan(n: int = 2, **kw: object) -> RoutingPlan:
    return RoutingPlan(tiers=tuple(Tier(judges=(f"openai:m{i}",)) for i in range(n)),
                       **kw)  # type: ignore[arg-type]


def test_a_flag_is_read_with_its_token_probability() -> None:
    r = read(MetricResult(name=FLAG.name, value=True,
                          rating=RatingReading(mode="expected", p_true=0.8)), FLAG, "llm")
    assert r == Reading(True, pytest.approx(0.8))
    r = read(MetricResult(name=FLAG.name, value=False,
                          rating=RatingReading(mode="expected", p_true=0.3)), FLAG, "llm")
    assert r.decision is False and r.confidence == pytest.approx(0.7)


def test_the_offline_judges_flag_is_read_with_its_calibrated_probability() -> None:
    # the offline suite keeps its support model's P(hallucinated) in its own record
    r = read(MetricResult(name=FLAG.name, value=True, details={"p_true": 0.9}), FLAG,
             "offline")
    assert r == Reading(True, pytest.approx(0.9))
    assert read(MetricResult(name=FLAG.name, value=True, details={"p_true": 0.9}), FLAG,
                "llm") == Reading(True, None)


def test_a_flag_without_token_probabilities_has_no_confidence() -> None:
    assert read(MetricResult(name=FLAG.name, value=True), FLAG, "llm") == Reading(True, None)


def test_a_rating_is_read_from_its_distribution_mass_on_the_verdicts_side() -> None:
    result = MetricResult(name=RATING.name, value=7.2, rating=RatingReading(
        mode="expected", distribution={"9": 0.5, "6": 0.3, "3": 0.2}))
    r = read(result, RATING, "llm")
    assert r.decision is True and r.confidence == pytest.approx(0.8)


def test_the_offline_judges_rating_is_its_calibrated_probability() -> None:
    # 1 + 9p with p = 0.2: the verdict "no" with probability 0.8
    r = read(MetricResult(name=RATING.name, value=1 + 9 * 0.2), RATING, "offline")
    assert r.decision is False and r.confidence == pytest.approx(0.8)
    assert read(MetricResult(name=RATING.name, value=2.8), RATING, "llm").confidence is None


def test_a_value_unscored_for_a_missing_input_is_settled() -> None:
    r = read(MetricResult(name=FLAG.name, value=None, unscored_reason="no contexts"), FLAG,
             "llm")
    assert r.decision is None and r.settled
    assert not read(MetricResult(name=FLAG.name, value=None, unscored_reason="judge call "
                                 "failed: HTTP 500"), FLAG, "llm").settled


def test_the_target_is_the_flag_a_present_label_links_to() -> None:
    target = choose_target([FAITH, FLAG, RATING], ["faithful"])
    assert target.metric == FLAG.name and target.label == "faithful" and target.inverted
    assert target.truth({"faithful": 1}) is False and target.truth({"x": 1}) is None
    correct = choose_target([FAITH, FLAG, RATING], ["correct"])
    assert correct.metric == RATING.name and not correct.inverted
    assert choose_target([FAITH, FLAG], []).metric == FLAG.name  # no labels: the first flag
    with pytest.raises(ValueError, match="not a metric of this run"):
        choose_target([FLAG], [], "judge.nope")


def test_a_grade_label_is_yes_above_its_midpoint() -> None:
    target = choose_target([SPECS["judge.context_relevance"]], ["relevance"])
    assert target.truth({"relevance": 2}) is True and target.truth({"relevance": 1}) is False


def _cases(confs: list[list[float | None]], truth: bool | None = True) -> list[Case]:
    return [Case(f"s{i}", truth, [None if c is None else Reading(True, c) for c in row])
            for i, row in enumerate(confs)]


def test_the_last_tier_decides_what_reaches_it_unless_abstain() -> None:
    cases = _cases([[0.95, 0.9], [0.6, 0.7], [0.6, 0.99]], truth=None)
    p = plan(escalate_below=0.8)
    th = calibrate(cases, p)
    assert [t.value if t else None for t in th] == [0.8, None]
    assert [r.tier for r in route(cases, p, th)] == [0, 1, 1]
    p = plan(escalate_below=0.8, abstain=True)
    routed = route(cases, p, calibrate(cases, p))
    assert [(r.tier, r.person) for r in routed] == [(0, False), (None, True), (1, False)]
    assert calibrated_tiers(p) == 2


def test_a_sample_not_judged_by_the_tier_it_reaches_is_pending_there() -> None:
    cases = _cases([[0.95, None], [0.6, None]], truth=None)
    p = plan(escalate_below=0.8)
    routed = route(cases, p, calibrate(cases, p))
    assert routed[0].tier == 0 and routed[1].pending == 1


def test_the_budget_share_waits_until_the_tier_has_judged_all_that_reach_it() -> None:
    cases = _cases([[0.9, None], [0.5, None], [0.7, None], [0.8, None]], truth=None)
    cases[3].readings[0] = Reading(True, None)  # judged, without a confidence
    p = plan(3, escalate_share=0.5)
    routed = route(cases, p, calibrate(cases, p))
    # the least confident half (the one without a confidence first) goes up to tier 1
    assert routed[0].tier == 0 and routed[2].tier == 0
    assert routed[1].pending == 1 and routed[3].pending == 1
    unjudged = _cases([[0.9, None], [None, None]], truth=None)
    assert all(r.pending == 0 for r in route(unjudged, p, calibrate(unjudged, p))[1:])


def test_guarantee_thresholds_come_from_the_labelled_samples_that_reach_each_tier() -> None:
    # tier 0: right above 0.9, wrong below; tier 1 always right
    cases = [Case(f"s{i}", True, [Reading(i % 10 >= 5 or i < 50, 0.95 if i < 50 else 0.6),
                                  Reading(True, 0.99)]) for i in range(200)]
    p = plan(agreement=0.9, delta=0.1, abstain=True)
    th = calibrate(cases, p)
    assert th[0] is not None and th[0].value is not None and 0.6 < th[0].value <= 0.95
    assert th[1] is not None and th[1].value is not None
    routed = route(cases, p, th)
    assert sum(r.tier == 0 for r in routed) == 50 and sum(r.tier == 1 for r in routed) == 150


def test_a_tier_that_gives_no_confidence_decides_nothing_under_a_guarantee() -> None:
    cases = [Case(f"s{i}", True, [Reading(True, None), Reading(True, 0.99)])
             for i in range(100)]
    th = calibrate(cases, plan(agreement=0.9))
    assert th[0] is not None and th[0].value is None and "no confidence" in (th[0].reason or "")
    assert all(r.tier == 1 for r in route(cases, plan(agreement=0.9), th))
