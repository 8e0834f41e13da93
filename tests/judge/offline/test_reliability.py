"""The shipped reliability table (written by scripts/devsets/loo.py): leave-one-dataset-out
agreement for every metric the offline judge's users see, read by the product's loader."""

from __future__ import annotations

import json

from ragassay.judge.offline_judge import RELIABILITY_PATH
from ragassay.judge.reliability import load_reliability

FAITHFULNESS = ("judge.faithfulness", "ragas.faithfulness", "trace.adherence_ratio")
FAITH_SETS = {"summedits", "begin", "wice", "factcheck_gpt", "factcheck_gpt_stance", "q2",
              "dialfact"}


def test_shipped_table_covers_the_metrics_the_user_sees() -> None:
    rel = load_reliability(RELIABILITY_PATH, "offline")
    for metric in FAITHFULNESS:
        a = rel.of(metric)
        assert a is not None and a.statistic == "AUROC"
        assert set(a.sets) == FAITH_SETS  # every faithfulness dev set, each one held out
        assert 0.0 < a.low <= a.high <= 1.0 and a.lexical_low is not None
    relevance = rel.of("judge.context_relevance")
    assert relevance is not None and relevance.statistic == "Spearman"
    assert rel.measured and "loo.py" in rel.command


def test_shipped_figures_carry_their_intervals() -> None:
    data = json.loads(RELIABILITY_PATH.read_text(encoding="utf-8"))
    assert "leave-one-dataset-out" in data["protocol"]
    for f in data["figures"]:
        assert f["ci"][0] <= f["value"] <= f["ci"][1], f
        assert f["n"] > 0


def test_shipped_table_measures_the_yes_no_verdicts() -> None:
    """Trial 72: judge.hallucination (judge.faithfulness below HALLUCINATION_THRESHOLD)
    and trace.adherence (every sentence supported) had no held-apart figure; each now has
    its balanced accuracy on every faithfulness set, with the lexical baseline's (its
    cut chosen on the other sets)."""
    rel = load_reliability(RELIABILITY_PATH, "offline")
    data = json.loads(RELIABILITY_PATH.read_text(encoding="utf-8"))
    for metric in ("judge.hallucination", "trace.adherence"):
        a = rel.of(metric)
        assert a is not None and a.statistic == "balanced accuracy"
        assert set(a.sets) == FAITH_SETS
        assert 0.0 < a.low <= a.high <= 1.0 and a.lexical_low is not None
        rows = [f for f in data["figures"] if f["metric"] == metric]
        assert {f["statistic"] for f in rows} == {"balanced accuracy"}
        assert all(isinstance(f["baseline"], float) and f["ci"] for f in rows)


def test_a_verdicts_figure_is_its_balanced_accuracy() -> None:
    """scripts/devsets/figures.balanced_figure: (TPR + TNR) / 2 of the verdict and of the
    baseline verdict on people's yes/no, with the seeded bootstrap CI and the paired CI of
    the difference."""
    import importlib
    import sys
    from pathlib import Path

    scripts = str(Path(__file__).resolve().parents[3] / "scripts" / "devsets")
    sys.path.insert(0, scripts)
    try:
        figures = importlib.import_module("figures")
    finally:
        sys.path.remove(scripts)
    truth = [True] * 6 + [False] * 4
    said = [True] * 5 + [False] + [False] * 3 + [True]  # 5/6 yes, 3/4 no
    base = [True] * 10  # always yes: chance
    f = figures.balanced_figure("judge.hallucination", said, truth, base, 200)
    assert f.value == (5 / 6 + 3 / 4) / 2 and f.baseline == 0.5
    assert f.ci is not None and f.ci[0] <= f.value <= f.ci[1]
    assert f.diff_ci is not None and f.diff_ci[0] <= f.value - 0.5 <= f.diff_ci[1]
    assert figures.STATISTIC["balanced"] == "balanced accuracy"
