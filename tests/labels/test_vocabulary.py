"""The label vocabulary: names, scales, values and the metrics each label links to."""

from __future__ import annotations

from ragassay.labels import canonical, check_value, linked_metrics, lookup
from ragassay.types import LinkedLabel, MetricSpec
from tests.support.specs import declared

METRICS = declared("judge.faithfulness", "judge.hallucination", "judge.answer_similarity",
                   "trace.adherence_ratio", "trace.context_relevance", "ragas.faithfulness")


def test_aliases_name_one_label() -> None:
    assert canonical("hallucination") == canonical("labels.has_hallucination") == "hallucinated"
    assert canonical("grounded") == "faithful" and canonical("tone") == "tone"
    kind = lookup("relevant")
    assert kind is not None and (kind.kind, kind.low, kind.high) == ("grade", 0, 3)
    assert lookup("tone") is None


def test_links_follow_meaning_and_direction() -> None:
    assert linked_metrics("hallucinated", METRICS) == [
        ("judge.hallucination", False), ("judge.faithfulness", True),
        ("trace.adherence_ratio", True), ("ragas.faithfulness", True)]
    assert linked_metrics("faithful", METRICS)[0] == ("judge.faithfulness", False)
    assert linked_metrics("correct", METRICS) == [("judge.answer_similarity", False)]
    assert linked_metrics("relevance", METRICS) == [("trace.context_relevance", False)]
    # a label of the user's own links to metrics of its own short name
    assert linked_metrics("adherence_ratio", METRICS) == [("trace.adherence_ratio", False)]
    assert linked_metrics("tone", METRICS) == []


def test_a_metric_declares_the_labels_it_is_compared_with() -> None:
    """The links are the metric's own declaration (`MetricSpec.labels`), by the label's
    vocabulary name: a metric of another suite that declares one is linked, one that does
    not is not, whatever its name."""
    mine = MetricSpec(name="mine.groundedness", labels=(LinkedLabel(label="faithful"),))
    plain = MetricSpec(name="other.faithfulness_score")
    assert linked_metrics("grounded", [plain, mine]) == [("mine.groundedness", False)]
    assert linked_metrics("hallucinated", [plain, mine]) == []


def test_values_are_checked_against_the_scale() -> None:
    assert check_value(True, "bool", 0, 1) == 1.0
    assert check_value(0, "bool", 0, 1) == 0.0
    assert check_value(2, "bool", 0, 1) == "2 is not true/false or 1/0"
    assert check_value(4, "grade", 0, 3) == "4 is outside 0-3"
    assert check_value("high", "grade", 0, 3) == "'high' is not a number 0-3"
    assert check_value(float("nan"), "grade", 0, 3) == "nan is not a number 0-3"
    assert check_value(True, "grade", 0, 3) == "True is not a grade 0-3"
    assert check_value(2.5, "grade", 0, 3) == 2.5
