"""`assert_metrics(..., corrected=True)` and the Python API's corrected estimates."""

from __future__ import annotations

from pathlib import Path

import pytest

import ragassay
from ragassay.testing import assert_metrics, check_metrics

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "labels"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> ragassay.EvalResult:
    db = tmp_path_factory.mktemp("api") / "r.db"
    return ragassay.evaluate(str(EXAMPLE / "data.jsonl"), "judge", store=db)


def test_corrected_assertions_use_peoples_labels(result: ragassay.EvalResult) -> None:
    thresholds = {"judge.faithfulness": 5.0}
    assert_metrics(result, thresholds)  # on the judge's own mean it passes
    check = check_metrics(result, thresholds, corrected=True)
    assert check.passed  # no labels yet: the judge's values, with a note saying so
    assert "note: judge.faithfulness: no corrected estimate" in check.message
    assert result.import_labels(EXAMPLE / "labels.jsonl") == 150
    with pytest.raises(AssertionError, match="people's hallucinated: corrected 95% upper"):
        assert_metrics(result, thresholds, corrected=True)
    assert_metrics(result, thresholds, corrected=True, label_thresholds={"hallucinated": 0.6})


def test_the_api_returns_typed_corrected_estimates(result: ragassay.EvalResult) -> None:
    result.import_labels(EXAMPLE / "labels.jsonl")
    cor = result.corrected()
    est = cor.overall("judge.faithfulness")
    assert est is not None and est.label == "hallucinated" and est.n_labelled >= 140
    assert est.ci_low < est.estimate < est.ci_high and est.judge_mean is not None
    assert not result.corrected(min_labels=1000).estimates


def test_a_typod_label_threshold_is_refused(result: ragassay.EvalResult) -> None:
    with pytest.raises(ValueError, match=r"unknown label 'halucinated' \(did you mean "
                                         r"hallucinated\?\)"):
        assert_metrics(result, {"judge.faithfulness": 1.0}, corrected=True,
                       label_thresholds={"halucinated": 0.1})
    with pytest.raises(ValueError, match="outside the label's scale 0-1"):
        check_metrics(result, {}, corrected=True, label_thresholds={"hallucinated": 5})


def test_require_labels_fails_an_unchecked_label(tmp_path: Path) -> None:
    run = ragassay.evaluate(str(EXAMPLE / "data.jsonl"), "judge", store=tmp_path / "r.db")
    few = tmp_path / "few.jsonl"
    few.write_text("".join((EXAMPLE / "labels.jsonl").read_text().splitlines(True)[:10]))
    run.import_labels(few)
    thresholds = {"judge.faithfulness": 1.0}
    check = check_metrics(run, thresholds, corrected=True, label_thresholds={"hallucinated": 0.1})
    assert check.passed
    assert "NOT CHECKED judge.hallucination -> people's hallucinated: 10 of 30 labels" \
        in check.message
    with pytest.raises(AssertionError, match="10 of 30 labels"):
        assert_metrics(run, thresholds, label_thresholds={"hallucinated": 0.1},
                       require_labels=True)


def test_a_label_checks_worst_samples_are_the_metrics_worst(
        result: ragassay.EvalResult) -> None:
    result.import_labels(EXAMPLE / "labels.jsonl")
    check = check_metrics(result, {"judge.faithfulness": 5.0}, corrected=True, worst=3)
    assert not check.passed
    shown = check.message.split("worst samples for judge.faithfulness:\n")[1].splitlines()[:3]
    values = [float(line.split("] ")[1].split(":")[0]) for line in shown]
    lowest = sorted(v for _, _, v, _ in result.store.metric_values(
        result.run_id, "judge.faithfulness") if v is not None)[:3]
    assert values == [float(f"{v:.3g}") for v in lowest]  # the least faithful come first


def test_overall_refuses_a_metric_the_run_does_not_have(result: ragassay.EvalResult) -> None:
    cor = result.corrected()
    with pytest.raises(ValueError, match=r"unknown metric 'judge.overal' \(did you mean "
                                         r"judge.overall\?\)"):
        cor.overall("judge.overal")
    assert cor.overall("judge.overall") is None  # the run's metric, linked to no label
