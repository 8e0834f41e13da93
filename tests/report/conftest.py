"""Shared fixtures for the report tests: a small run in a real store."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from ragassay.report import (
    FailedEntry,
    LeaderboardRow,
    Report,
    RunInfo,
    RunUsage,
    SampleEntry,
    UsageSummary,
)
from ragassay.report.bench import BenchFigures
from ragassay.stats import Aggregates, CorrelationMatrix
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


def demo_report_html(folder: Path) -> tuple[Report, str]:
    """The demo evaluated offline with every suite into a store in `folder`: its full
    report and HTML page (the HTML report's tests and its browser test)."""
    from ragassay.dataset import demo_dataset_path, iter_samples
    from ragassay.report import build_report, to_html
    from ragassay.runner import evaluate

    config = RunConfig(dataset=str(demo_dataset_path()), metrics=("judge", "trace", "ragas"))
    with Store(folder / "demo.db") as store:
        run_id = evaluate(iter_samples(demo_dataset_path()), config, store=store).run_id
        report = build_report(store, run_id)
    return report, to_html(report)


def make_report(entries: Sequence[SampleEntry | FailedEntry] = (), run_id: str = "r1",
                **meta: Any) -> Report:
    """A report with no statistics, only its run's id and the given per-sample entries."""
    info = {"run_id": run_id, "timestamp": "2026-01-01T00:00:00+00:00", "finished": None,
            "status": "complete", "dataset": "d.jsonl", "dataset_hash": None,
            "judge": "offline", "method": "offline", "judge_model": "offline",
            "embedding_model": "none", "judge_reliability": None, "metrics": [],
            "total_samples": len(entries), "scored_samples": len(entries), "invalid_samples": 0,
            "package_version": "0", "report_version": "0", "prompt_versions": {},
            "generated": "2026-01-01T00:00:00+00:00", "complete": True, **meta}
    usage = {"calls": 0, "input_tokens": 0, "output_tokens": 0, "total_tokens": 0,
             "cache_hits": 0}
    return Report(
        evaluation_metadata=RunInfo(**info), aggregate_metrics=Aggregates(metrics={}, suites={}),
        rmse_metrics={}, per_metric_statistics={}, strategies={}, interpretation=[],
        correlations=CorrelationMatrix(method="spearman", metrics=[], matrix={}, pairs={}),
        diagnostics=[], usage=RunUsage(**usage, by_suite={}), metric_specs={},
        invalid_rows=[], detailed_results=list(entries))


def entry(sample_id: str, metrics: dict[str, Any], unscored: dict[str, str] | None = None,
          **fields: Any) -> SampleEntry:
    """One evaluated sample's entry with the given values (texts filled in)."""
    usage = UsageSummary(calls=0, input_tokens=0, output_tokens=0, total_tokens=0,
                         cache_hits=0)
    base: dict[str, Any] = {"strategy": "s", "question": "q", "answer": "a", "contexts": [],
                            "reference": None, "labels": {}, "details": {},
                            "reasoning": None, "usage": usage}
    return SampleEntry(**{**base, **fields, "id": sample_id, "metrics": metrics,
                          "unscored": unscored or {}})


NAMES = ("recursive-200/o20 hybrid k2", "recursive-200/o20 bm25 k4", "fixed-128/o32 bm25 k4",
         "markdown-160 hybrid k4", "sentence-96/o1 dense k4", "team app")


def handbook_rows() -> list[LeaderboardRow]:
    """Six strategies as the handbook bench ranks them, one a pipeline with a failure and
    one with no figures at all."""
    rows = [LeaderboardRow.model_validate({
        "rank": i + 1, "strategy": name, "kind": "built-in", "metric": "judge.overall",
        "mean": 8.04 - 0.05 * i, "ci_low": 7.55 - 0.05 * i, "ci_high": 8.49 - 0.05 * i,
        "n": 30, "vs_best": "best" if i == 0 else "unclear", "failed": 0,
        "retrieval.recall": 0.95, "retrieval.precision": 0.5, "retrieval.mrr": 0.98,
        "retrieval.ndcg": 0.953, "retrieval.n": 30, "no_answer_rate": 0.143,
        "index_time_s": 1.449,
        "retrieval_p50_s": 0.0001, "retrieval_p95_s": 0.00014, "answer_p50_s": 0.0105,
        "answer_p95_s": 0.29, "cost_estimate_usd": 0.0123, "cost_measured_usd": 0.011,
        "p_adjusted": None if i == 0 else 0.2,
        **({} if i == 0 else {"diff": -0.05 * i, "diff_ci_low": -0.05 * i - 0.04,
                              "diff_ci_high": -0.05 * i + 0.04, "effect_size": -0.04 * i,
                              "margin": 0.25, "tost_p_adjusted": 0.00002 * i,
                              "constant": False})})
        for i, name in enumerate(NAMES[:-1])]
    rows.append(LeaderboardRow(strategy=NAMES[-1], metric="judge.overall", kind="pipeline",
                               failed=3))
    return rows


def bench_report(rows: list[LeaderboardRow]) -> Report:
    """A bench run's report holding these leaderboard rows."""
    bench = BenchFigures(name="handbook", rank_by=None, n_documents=0, n_questions=0,
                         strategies=[])  # (typed: model_copy does not validate a dict)
    return make_report().model_copy(update={"leaderboard": rows, "bench": bench,
                                            "bench_config": {}})
