"""The gate on corrected intervals: checks decided on people's label where enough labels
exist, the judge's values otherwise, each fall-back said in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragassay.stats import ThresholdsError, load_thresholds
from ragassay.stats.corrected import corrected
from ragassay.stats.gate import value_text
from ragassay.stats.gate_corrected import (
    CorrectedGate,
    default_label_thresholds,
    gate_corrected,
    label_threshold_problem,
    load_corrected_thresholds,
)
from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec
from tests.support.specs import declared, linked

SPECS = {"judge.faithfulness": MetricSpec(name="judge.faithfulness",
                                          labels=linked("judge.faithfulness"), low=1, high=10),
         "ragas.context_precision": MetricSpec(name="ragas.context_precision")}


def _table(rate: float, labelled: int = 150, n: int = 300) -> ScoreTable:
    """The judge scores faithfulness 8-9 for nearly everything (it passes a 7 threshold
    on its own values), while people call `rate` of the answers hallucinated."""
    rng = np.random.default_rng(2)
    bad = rng.random(n) < rate
    rows = [Row(id=f"q{i}", labels={"hallucinated": bool(bad[i])} if i < labelled else {},
                values={"judge.faithfulness": float(9 - bad[i] * (rng.random() < 0.5)),
                        "ragas.context_precision": 0.8}) for i in range(n)]
    return ScoreTable.from_rows(rows, SPECS)


def test_a_judge_that_passes_is_overruled_by_peoples_labels() -> None:
    table = _table(0.3)
    cor = corrected(table)
    out = gate_corrected(table, {"judge.faithfulness": 7, "ragas.context_precision": 0.5}, cor)
    judged, faith, prec = out.result.checks
    # the corrected gate adds people's row after the metric's own, never replacing it
    assert (judged.metric, judged.label, judged.threshold) == ("judge.faithfulness", None, 7)
    assert judged.status == "PASS" and not out.result.ready
    assert faith.label == "hallucinated" and faith.status == "FAIL"
    assert faith.threshold == 0.1 and not faith.higher_is_better  # the vocabulary's default
    assert faith.value == pytest.approx(cor.overall("judge.faithfulness").ci_high)  # type: ignore[union-attr]
    assert "people's hallucinated: corrected 95% upper bound" in faith.reason
    # the value column shows people's estimate, as other rows their figure (trial 68)
    est = cor.overall("judge.faithfulness").estimate  # type: ignore[union-attr]
    assert faith.estimate == est and faith.value_text == value_text(est, 0.1)
    assert out.result.to_dict()["checks"][1]["estimate"] == est
    assert prec.label is None and prec.status == "PASS"  # no label: the judge's mean
    assert out.notes == ()  # no label is compared with context precision: nothing to say
    assert out.result.to_dict()["corrected"] is True


def test_a_label_threshold_from_the_config_decides() -> None:
    table = _table(0.03)
    cor = corrected(table)
    ok = gate_corrected(table, {"judge.faithfulness": 7}, cor, {"hallucination": 0.2})
    assert ok.result.ready and [c.threshold for c in ok.result.checks] == [7, 0.2]
    only_label = gate_corrected(table, {}, cor, default_label_thresholds(cor))
    (check,) = only_label.result.checks
    assert check.label == "hallucinated" and check.threshold == 0.1


def test_too_few_labels_fall_back_to_the_judge_in_one_line() -> None:
    table = _table(0.3, labelled=12)
    out = gate_corrected(table, {"judge.faithfulness": 7}, corrected(table), {"correct": 0.9})
    check, unchecked = out.result.checks
    assert check.label is None and check.status == "PASS"  # the judge's own mean passes
    assert out.notes == (
        "judge.faithfulness: no corrected estimate (12 labelled samples, fewer than the 30 a "
        "corrected estimate needs): gated on the judge's own values",)
    assert unchecked.label == "correct" and unchecked.status == "NOT CHECKED"
    assert unchecked.reason == "no labels" and out.result.ready
    few = gate_corrected(table, {}, corrected(table), {"hallucinated": 0.1})
    (row,) = few.result.checks
    assert row.status == "NOT CHECKED" and row.reason == "12 of 30 labels"
    assert row.metric == "judge.faithfulness" and not few.result.ready  # nothing was checked
    required = gate_corrected(table, {"judge.faithfulness": 7}, corrected(table),
                              {"hallucinated": 0.1}, require_labels=True)
    assert required.result.checks[1].status == "FAIL" and not required.result.ready


def test_label_thresholds_name_known_labels_on_their_scale() -> None:
    assert label_threshold_problem({"hallucination": 0.1, "relevance": 2.5}) is None
    assert label_threshold_problem({"halucinated": 0.1}) == (
        "unknown label 'halucinated' (did you mean hallucinated?); known labels: "
        "hallucinated, faithful, correct, relevance")
    assert label_threshold_problem({"tone": 0.5}, ["tone"]) is None  # the run's own label
    assert label_threshold_problem({"relevance": 4}) == (
        "relevance = 4 is outside the label's scale 0-3 (a mean grade)")


def test_the_corrected_table_of_a_gate_config(tmp_path: Path) -> None:
    path = tmp_path / "ragassay.toml"
    path.write_text('[thresholds]\n"judge.faithfulness" = 7\n[corrected]\nhallucination = 0.05\n')
    assert load_thresholds(path) == {"judge.faithfulness": 7.0}
    assert load_corrected_thresholds(path) == {"hallucinated": 0.05}
    path.write_text('[thresholds]\n"judge.faithfulness" = 7\n')
    assert load_corrected_thresholds(path) is None
    path.write_text('[corrected]\nhallucinated = "low"\n')
    with pytest.raises(ThresholdsError, match='corrected."hallucinated" must be a finite number'):
        load_corrected_thresholds(path)



def _gated_rows(*labels: str) -> list[tuple[str, str | None]]:
    """(metric, label) of each check of `_gated(*labels)`."""
    return [(c.metric, c.label) for c in _gated(*labels).result.checks]


def _gated(*labels: str) -> CorrectedGate:
    """A gate on faithfulness and the hallucination flag of 200 rows, 30% hallucinated,
    each row labelled with `labels` ("faithful" is the opposite of "hallucinated")."""
    specs = {s.name: s for s in declared("judge.faithfulness", "judge.hallucination")}
    bad = np.random.default_rng(5).random(200) < 0.3
    rows = [Row(id=f"q{i}", labels={k: bool(bad[i]) == (k == "hallucinated") for k in labels},
                values={"judge.faithfulness": 3.0 if bad[i] else 9.0,
                        "judge.hallucination": float(bad[i])}) for i in range(200)]
    table = ScoreTable.from_rows(rows, specs)
    return gate_corrected(table, {"judge.faithfulness": 7, "judge.hallucination": 0.1},
                          corrected(table))


def test_peoples_row_follows_the_metric_the_label_is_its_own_measure_of() -> None:
    """Trial 51: with faithfulness gated before hallucination (the default order), the
    people's-hallucinated row came after judge.faithfulness (an inverted link), not after
    judge.hallucination; it follows the label's first linked metric, once."""
    assert _gated_rows("hallucinated") == [
        ("judge.faithfulness", None), ("judge.hallucination", None),
        ("judge.hallucination", "hallucinated")]


def test_a_linked_metric_whose_label_is_checked_elsewhere_says_so() -> None:
    """Trial 55: `gate --corrected` added people's row for judge.hallucination, none for
    judge.faithfulness, also linked to `hallucinated`, and said nothing of it. The one
    rule: a label is checked once, after the first gated metric linked to it; each other
    gated metric linked to it says where in one line."""
    out = _gated("hallucinated")
    assert [c.label for c in out.result.checks].count("hallucinated") == 1
    assert out.notes == (
        "judge.faithfulness: people's hallucinated is checked once, after "
        "judge.hallucination (the metric it is first linked to): gated here on the judge's "
        "own values",)
    # with `faithful` labels too, each label has its row and each metric a note
    both = _gated("hallucinated", "faithful")
    assert [c.label for c in both.result.checks] == [None, "faithful", None, "hallucinated"]
    assert [n.split(" (")[0] for n in both.notes] == [
        "judge.faithfulness: people's hallucinated is checked once, after judge.hallucination",
        "judge.hallucination: people's faithful is checked once, after judge.faithfulness"]


def test_each_label_of_a_metric_gets_its_row_after_its_own_metric() -> None:
    """Review 5: with rows labelled both `faithful` and `hallucinated`, one estimate per
    metric was read, so the `faithful` check was dropped without a word."""
    assert _gated_rows("hallucinated", "faithful") == [
        ("judge.faithfulness", None), ("judge.faithfulness", "faithful"),
        ("judge.hallucination", None), ("judge.hallucination", "hallucinated")]


def test_a_linked_metric_without_its_labels_says_which_labels_to_give() -> None:
    """A new-user trial: `gate --corrected` said judge.context_relevance had "no human
    label linked to it" though `relevance` is linked to it and the run only lacked
    relevance labels; the line names the missing labels and the command that adds them."""
    specs = {s.name: s for s in declared("judge.context_relevance", "judge.faithfulness",
                                         "ragas.context_precision")}
    bad = np.random.default_rng(3).random(120) < 0.3
    rows = [Row(id=f"q{i}", labels={"hallucinated": bool(bad[i])},
                values={"judge.context_relevance": 6.0, "judge.faithfulness": 9.0 - 5 * bad[i],
                        "ragas.context_precision": 0.8}) for i in range(120)]
    table = ScoreTable.from_rows(rows, specs)
    out = gate_corrected(table, {"judge.context_relevance": 5, "judge.faithfulness": 7,
                                 "ragas.context_precision": 0.5}, corrected(table), run="r1")
    assert out.notes == (
        "judge.context_relevance: no corrected estimate (no 'relevance' labels in this run; "
        "label some with ragassay annotate r1 --label relevance): gated on the judge's own "
        "values",)  # context precision: no label is compared with it, nothing said
    none = ScoreTable.from_rows([Row(id=r.id, labels={}, values=r.values) for r in rows], specs)
    out = gate_corrected(none, {"judge.faithfulness": 7}, corrected(none), run="r1")
    assert out.notes == (
        "judge.faithfulness: no corrected estimate (no 'faithful' or 'hallucinated' labels in "
        "this run; label some with ragassay annotate r1 --label faithful): gated on the "
        "judge's own values",)


def test_every_sample_labelled_is_peoples_own_rate_not_a_corrected_one() -> None:
    """New-user trial 56: with all 144 rows labelled, `gate --corrected` said "people's
    hallucinated: corrected 95% upper bound ... (estimate 0.556, 144 labels)" where eval
    and calibrate say people (all labelled), nothing corrected."""
    table = _table(0.3, labelled=300)
    out = gate_corrected(table, {"judge.faithfulness": 7}, corrected(table))
    people = next(c for c in out.result.checks if c.label == "hallucinated")
    assert people.reason.startswith("people's hallucinated (all labelled, nothing corrected): "
                                    "95% upper bound ")
    assert "corrected 95%" not in people.reason
    assert people.reason.endswith(", all 300 samples labelled)")
