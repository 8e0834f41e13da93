"""Which labels a session asks and which plan it follows: defaults from the run's metrics,
the data's own labels first, a stored plan resumed, never changed silently."""

from __future__ import annotations

import pytest

from ragassay.annotation import (
    AnnotationError,
    PlanConflict,
    SessionOptions,
    default_labels,
    describe,
    resolve_plan,
)
from ragassay.types import AnnotationPlan, MetricSpec
from tests.support.specs import declared, linked

JUDGE = ["judge.hallucination", "judge.faithfulness", "judge.context_relevance",
         "judge.answer_similarity"]
SPECS = {m: MetricSpec(name=m, kind="bool" if m.endswith("hallucination") else "score",
                       low=0 if m.endswith("hallucination") else 1,
                       high=1 if m.endswith("hallucination") else 10, labels=linked(m))
         for m in JUDGE}


def test_default_labels_are_those_linked_to_the_metrics_one_per_group() -> None:
    # faithful is the complement of hallucinated (same metrics): asked once
    assert default_labels(declared(*JUDGE)) == ["hallucinated", "correct", "relevance"]
    assert default_labels(declared("trace.adherence", "trace.context_relevance")) == [
        "hallucinated", "relevance"]
    assert default_labels(declared("ragas.context_precision")) == []


def test_a_label_the_data_uses_is_asked_in_its_place() -> None:
    # data labelled `consistent` (the vocabulary's `faithful`): faithful, not hallucinated
    assert default_labels(declared(*JUDGE), ["consistent", "topic"]) == ["faithful", "correct",
                                                              "relevance"]


def test_a_new_plan_from_the_options() -> None:
    plan, choice = resolve_plan(None, SessionOptions(), "r1", SPECS, [])
    assert (plan.kind, plan.seed, plan.labels) == ("uniform", 0, tuple(choice.asked))
    assert choice.asked == ["hallucinated", "correct", "relevance"]
    plan, choice = resolve_plan(None, SessionOptions(kind="uncertainty", seed=4,
                                                    labels=("hallucination",)),
                               "r1", SPECS, [])
    # weighted by the first linked SCORE metric: a yes/no verdict would weight all alike
    assert (plan.kind, plan.seed, plan.metric, choice.asked) == (
        "uncertainty", 4, "judge.faithfulness", ["hallucinated"])
    _, choice = resolve_plan(None, SessionOptions(metric="judge.context_relevance"), "r1",
                            SPECS, [])
    assert choice.asked == ["relevance"]  # a metric alone picks the labels compared with it


@pytest.mark.parametrize(("opts", "message"), [
    (SessionOptions(labels=("halucinated",)),
     "'halucinated' is not a label the annotation asks; the labels are hallucinated, "
     "faithful, correct, relevance (did you mean hallucinated?)"),
    (SessionOptions(metric="judge.faithfulnes"),
     "run r1 has no metric 'judge.faithfulnes' (did you mean judge.faithfulness?)"),
    (SessionOptions(kind="uncertainty", metric="judge.hallucination"),
     "metric judge.hallucination is a yes/no verdict"),
])
def test_setup_mistakes_are_one_line(opts: SessionOptions, message: str) -> None:
    with pytest.raises(AnnotationError) as err:
        resolve_plan(None, opts, "r1", SPECS, [])
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_label_or_a_run_with_no_linked_metric_is_refused() -> None:
    specs = {m: SPECS[m] for m in ("judge.faithfulness",)}
    with pytest.raises(AnnotationError) as err:
        resolve_plan(None, SessionOptions(labels=("relevance",)), "r1", specs, [])
    assert str(err.value) == ("label 'relevance' is linked to no metric of run r1 (its "
                              "metrics: judge.faithfulness)")
    other = {"ragas.context_precision": MetricSpec(name="ragas.context_precision")}
    with pytest.raises(AnnotationError, match="no metric of run r1 is compared with a human"):
        resolve_plan(None, SessionOptions(), "r1", other, [])


def test_a_stored_plan_is_resumed_and_gains_new_labels() -> None:
    stored = AnnotationPlan(run_id="r1", kind="stratified", seed=3, labels=("hallucinated",),
                            skipped=("k1",))
    plan, choice = resolve_plan(stored, SessionOptions(), "r1", SPECS, [])
    assert plan == stored and choice.asked == ["hallucinated"]
    plan, choice = resolve_plan(stored, SessionOptions(labels=("relevance",)), "r1", SPECS, [])
    assert choice.asked == ["relevance"] and plan.labels == ("hallucinated", "relevance")
    assert plan.skipped == ("k1",) and plan.seed == 3


def test_another_order_is_a_conflict_unless_replaced() -> None:
    stored = AnnotationPlan(run_id="r1", labels=("hallucinated",), skipped=("k1",))
    for opts in (SessionOptions(kind="uncertainty"), SessionOptions(seed=9)):
        with pytest.raises(PlanConflict) as err:
            resolve_plan(stored, opts, "r1", SPECS, [])
        assert err.value.plan == stored
        assert str(err.value) == ("run r1 is annotated with a uniform plan (seed 0; labels "
                                  "hallucinated): resume it as it is, or replace it (the "
                                  "labels given so far stay)")
    plan, _ = resolve_plan(stored, SessionOptions(kind="uncertainty", replace=True), "r1",
                           SPECS, [])
    assert plan.kind == "uncertainty" and plan.skipped == ()  # a new queue: no skips yet
    weighted = AnnotationPlan(run_id="r1", kind="uncertainty", metric="judge.faithfulness")
    with pytest.raises(PlanConflict):
        resolve_plan(weighted, SessionOptions(metric="judge.context_relevance"), "r1",
                     SPECS, [])
    assert describe(weighted) == "an uncertainty plan (seed 0, by judge.faithfulness)"


def test_a_label_compared_only_with_metrics_unscored_everywhere() -> None:
    """Not asked by default (one line says so); asked when named, with a warning; a
    stored plan's labels are kept as chosen; nothing left to ask is one line."""
    unscored = {"judge.answer_similarity": "no reference answer"}
    plan, choice = resolve_plan(None, SessionOptions(), "r1", SPECS, [], unscored)
    assert choice.asked == ["hallucinated", "relevance"] == list(plan.labels)
    assert choice.left_out == ["correct"] and choice.idle == []
    assert choice.notes() == [
        "not asking correct: judge.answer_similarity (no reference answer), which it is "
        "compared with, is unscored on every sample of run r1, so its labels would feed no "
        "corrected estimate"]
    _, named = resolve_plan(None, SessionOptions(labels=("correct", "relevance")), "r1",
                            SPECS, [], unscored)
    assert named.asked == ["correct", "relevance"] and named.idle == ["correct"]
    assert named.notes()[0].startswith("warning: asking correct as named, although "
                                       "judge.answer_similarity (no reference answer)")
    stored = AnnotationPlan(run_id="r1", labels=("correct",))
    _, resumed = resolve_plan(stored, SessionOptions(), "r1", SPECS, [], unscored)
    assert resumed.asked == ["correct"] and resumed.idle == ["correct"]
    alone = {"judge.answer_similarity": SPECS["judge.answer_similarity"]}
    with pytest.raises(AnnotationError) as err:
        resolve_plan(None, SessionOptions(), "r1", alone, [], unscored)
    assert str(err.value) == (
        "no label can be asked: judge.answer_similarity (no reference answer), which it is "
        "compared with, is unscored on every sample of run r1, so labels would correct "
        "nothing")


def test_an_uncertainty_plan_is_not_weighted_by_a_declared_zero_one_verdict() -> None:
    """trace.adherence is a 0/1 score declared a verdict (every sample as sure as any
    other): an uncertainty plan for `hallucinated` on a trace run is weighted by
    trace.adherence_ratio, and asking for trace.adherence is refused, as for a yes/no
    metric (it was picked first, giving a uniform plan under the uncertainty name)."""
    specs = {s.name: s for s in declared("trace.adherence", "trace.adherence_ratio")}
    plan, _ = resolve_plan(None, SessionOptions(kind="uncertainty", labels=("hallucinated",)),
                           "r1", specs, [])
    assert plan.metric == "trace.adherence_ratio"
    with pytest.raises(AnnotationError, match="metric trace.adherence is a yes/no verdict"):
        resolve_plan(None, SessionOptions(kind="uncertainty", metric="trace.adherence"),
                     "r1", specs, [])
