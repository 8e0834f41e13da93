"""A judge.faithfulness of exactly 5.5 reads one way everywhere (new-user trial 67, finding
8: the headline said "a score <= 5.5 read as hallucinated", the docs "below 5.5", the gate
passed at ">= 5.5"). The rule is the offline judge's: it flags a hallucination below its
line `HALLUCINATION_THRESHOLD` (5.5 on 1-10), so 5.5 itself is not hallucinated."""

from __future__ import annotations

import pytest

from ragassay.judge.offline import HALLUCINATION_THRESHOLD, to_ten_point
from ragassay.judge.offline.evidence import Evidence
from ragassay.metrics.judge.suite import offline_scores
from ragassay.stats.calibration import LabelLink, calibration
from ragassay.stats.gate import default_thresholds, gate
from ragassay.stats.table import ScoreTable
from tests.stats.conftest import JUDGE_SPECS, build

LINE = to_ten_point(HALLUCINATION_THRESHOLD)


def _table(values: list[float], labels: list[bool]) -> ScoreTable:
    soft = {n: s.on_soft_judge() for n, s in JUDGE_SPECS.items()}
    return build(soft, {"judge.faithfulness": values},
                 labels=[{"hallucinated": v} for v in labels])


def test_the_judges_line_is_5_5_and_not_a_hallucination() -> None:
    assert LINE == 5.5
    at = offline_scores(Evidence(faithfulness=HALLUCINATION_THRESHOLD))
    assert at.faithfulness == LINE and at.hallucination is False


def test_kappa_reads_a_score_of_exactly_5_5_as_the_judge_does() -> None:
    """People marked the two answers at 5.5 not hallucinated, as the judge reads them: the
    kappa's yes/no agrees on all four (before: 5.5 read as hallucinated, kappa 0.2)."""
    t = _table([LINE, LINE, 2.0, 9.0], [False, False, True, False])
    (pair,) = [p for p in calibration(t, [LabelLink("hallucinated", "judge.faithfulness",
                                                   inverted=True)], n_resamples=50).pairs]
    assert pair.kappa == pytest.approx(1.0)
    assert pair.balanced_accuracy == pytest.approx(1.0)
    # the line the pair names is the judge's, on the metric's own 0-1
    assert JUDGE_SPECS["judge.faithfulness"].on_scale(pair.decision_threshold) == LINE


def test_the_gates_default_bar_passes_a_mean_of_exactly_5_5() -> None:
    t = _table([LINE, LINE], [False, False])
    bar = default_thresholds(t.specs)["judge.faithfulness"]
    assert bar == LINE
    (check,) = gate(t, {"judge.faithfulness": bar}, n_resamples=50).checks
    assert check.status == "PASS"
