"""Every metric value of the demo report equals the value the code before the metric-home
redesign produced (tests/fixtures/store_v1/reports.json, written at commit e97eae3), except
where that redesign fixed a named defect: the demo's empty-answer sample used to get
"offline judge failed: ValueError: zip() ..." on the five trace metrics; now its context
metrics are scored (TRACe relevance needs no answer) and adherence says "empty answer"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragassay.dataset import demo_dataset_path, iter_samples
from ragassay.report import build_report
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import RunConfig

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "store_v1" / "reports.json"
EMPTY_ANSWER = ("dense-k5", "q05-dense-k5")
FIXED = {"trace.context_relevance", "trace.context_utilization", "trace.completeness"}


def test_demo_values_are_unchanged(tmp_path: Path) -> None:
    old = next(r for r in json.loads(FIXTURE.read_text(encoding="utf-8")).values()
               if r["evaluation_metadata"]["metrics"] == ["judge", "trace", "ragas"])
    config = RunConfig(dataset=str(demo_dataset_path()), metrics=("judge", "trace", "ragas"))
    with Store(tmp_path / "demo.db") as store:
        run_id = evaluate(iter_samples(demo_dataset_path()), config, store=store).run_id
        new = build_report(store, run_id)
    before = {(d["strategy"], d["id"]): d for d in old["detailed_results"]}
    after = {(d["strategy"], d["id"]): d for d in new["detailed_results"]}
    assert before.keys() == after.keys()
    for key, b in before.items():
        a = after[key]
        for metric, value in b["metrics"].items():
            if key == EMPTY_ANSWER and metric in FIXED:
                assert value is None and a["metrics"][metric] is not None
                assert "zip()" in b["unscored"][metric]
                continue
            assert a["metrics"][metric] == pytest.approx(value, abs=1e-12), (key, metric)
    reasons = [r for d in new["detailed_results"] for r in d["unscored"].values()]
    assert not any("Error" in r or "zip()" in r for r in reasons)  # no exception text
