"""Shared fixtures for the report tests: a small run in a real store."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragassay.store import Store
from ragassay.types import InvalidRow, MetricResult, RunConfig, Sample, SampleResult, Usage


def _result(sid: str, suite: str, value: float | None, strategy: str) -> SampleResult:
    metric = (
        MetricResult(name=f"{suite}.x", value=value)
        if value is not None
        else MetricResult(name=f"{suite}.x", value=None, unscored_reason="judge timed out")
    )
    return SampleResult(sample_id=sid, strategy=strategy, suite=suite, results=(metric,),
                        reasoning=f"{suite} on {sid}", usage=Usage(calls=1, input_tokens=10))


@pytest.fixture
def run(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "r.db")
    run_id = store.create_run(RunConfig(dataset="d.jsonl", metrics=("judge",)),
                              package_version="0", dataset_hash=None, judge_model="m")
    items: list[Sample | InvalidRow] = []
    for i in range(11):
        strategy = "bm25" if i % 2 else "dense"
        if i == 4:
            items.append(InvalidRow(id="bad", source="d.jsonl:5", reason="no question"))
        items.append(Sample(id=f"s{i}", question=f"q{i}", contexts=[f"c{i}"], answer=f"a{i}",
                            strategy=strategy, labels={"good": i % 3 == 0}))
    store.add_samples(run_id, items)
    for i in range(11):
        if i == 7:
            continue  # a sample with no result at all
        strategy = "bm25" if i % 2 else "dense"
        store.save_result(run_id, _result(f"s{i}", "judge", None if i == 3 else i / 10, strategy))
        store.save_result(run_id, _result(f"s{i}", "ragas", 1 - i / 10, strategy))
    store.finish_run(run_id, "complete")
    return store, run_id
