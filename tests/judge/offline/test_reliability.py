"""The shipped reliability table: leave-one-dataset-out agreement per offline metric."""

from __future__ import annotations

import json

from ragassay.judge.offline import (
    LOW_AGREEMENT,
    RELIABILITY_PATH,
    load_reliability,
    reliability_meta,
)

FAITHFULNESS = ("judge.faithfulness", "ragas.faithfulness", "trace.adherence_ratio")


def test_shipped_table_covers_the_metrics_the_user_sees() -> None:
    rel = load_reliability()
    for metric in FAITHFULNESS:
        r = rel[metric]
        assert r.statistics == ["AUROC"]
        assert len(r.figures) >= 7  # every faithfulness dev set, each one held out
        assert all(f.ci is not None and f.ci[0] <= f.value <= f.ci[1] for f in r.figures)
    assert rel["judge.context_relevance"].statistics == ["Spearman"]
    assert "leave-one-dataset-out" in reliability_meta()["protocol"]


def test_summary_and_warning_rule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = {
        "protocol": "leave-one-dataset-out (test)",
        "figures": [
            {
                "metric": "m.good",
                "set": s,
                "statistic": "AUROC",
                "value": v,
                "ci": [v - 0.02, v],
                "n": 100,
                "baseline": 0.6,
            }
            for s, v in (("a", 0.81), ("b", 0.93), ("c", 0.75))
        ]
        + [
            {
                "metric": "m.weak",
                "set": "a",
                "statistic": "AUROC",
                "value": 0.64,
                "ci": None,
                "n": 50,
                "baseline": 0.6,
            },
            {
                "metric": "m.none",
                "set": "a",
                "statistic": "AUROC",
                "value": None,
                "ci": None,
                "n": 0,
                "baseline": None,
            },
        ],
    }
    path = tmp_path / "rel.json"
    path.write_text(json.dumps(table))
    rel = load_reliability(str(path))
    assert rel["m.good"].summary() == (
        "AUROC 0.75-0.93 on 3 unseen human-labelled sets (median 0.81)"
    )
    assert not rel["m.good"].below() and rel["m.weak"].below()
    assert rel["m.weak"].low == 0.64 < LOW_AGREEMENT["AUROC"]
    assert "m.none" not in rel  # no measured agreement: absent, for the gate to warn


def test_table_file_is_plain_json() -> None:
    data = json.loads(RELIABILITY_PATH.read_text(encoding="utf-8"))
    assert {"protocol", "date", "command", "figures"} <= set(data)
