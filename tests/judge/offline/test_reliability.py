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
