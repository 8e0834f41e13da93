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
