"""Helpers shared by the store tests (a uniquely named module, unlike conftest)."""

from __future__ import annotations

from typing import Any

from ragassay.store import Store
from ragassay.types import MetricResult, RunConfig, RunMeta, SampleResult, Usage


def new_run(store: Store, config: RunConfig | None = None, **meta: Any) -> str:
    return store.create_run(
        config or RunConfig(dataset="data.jsonl"),
        package_version="0.1.0",
        dataset_hash="abc123",
        judge_model="smollm2",
        meta=RunMeta(**meta),
    )


def make_result(
    sample_id: str,
    suite: str = "judge",
    *,
    value: float | bool | None = 0.5,
    strategy: str = "default",
    calls: int = 1,
) -> SampleResult:
    metrics = [MetricResult(name=f"{suite}.faithfulness", value=value)]
    if value is None:
        metrics = [
            MetricResult(name=f"{suite}.faithfulness", value=None, unscored_reason="timeout")
        ]
    metrics.append(MetricResult(name=f"{suite}.relevance", value=1.0, details={"n": 3}))
    return SampleResult(
        sample_id=sample_id,
        strategy=strategy,
        suite=suite,
        results=tuple(metrics),
        reasoning=f"because {sample_id}",
        usage=Usage(calls=calls, input_tokens=100 * calls, output_tokens=10 * calls, latency_s=0.5),
    )
