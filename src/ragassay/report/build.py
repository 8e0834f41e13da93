"""Build the report dictionary for a run from the store; JSON is its direct dump.

The report reads the store and calls `stats`; it never calls a judge.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ragassay import __version__
from ragassay.metrics import all_specs
from ragassay.stats import ScoreTable, report_sections
from ragassay.store import RunRecord, Store
from ragassay.types import InvalidRow, MetricSpec, Sample, SampleResult, Usage


def _usage_dict(usage: Usage) -> dict[str, Any]:
    return {"calls": usage.calls, "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "total_tokens": usage.input_tokens + usage.output_tokens,
            "cache_hits": usage.cache_hits}


def load_run(store: Store, run_id: str) -> tuple[RunRecord, list[Sample | InvalidRow],
                                                   list[SampleResult], dict[str, MetricSpec]]:
    """Everything a report or the dashboard needs about one run."""
    run = store.get_run(run_id)
    items = list(store.iter_samples(run.id))
    results = list(store.iter_results(run.id))
    specs = all_specs(run.config.metrics)
    return run, items, results, specs


def score_table(items: list[Sample | InvalidRow], results: list[SampleResult],
                specs: dict[str, MetricSpec]) -> ScoreTable:
    samples = [s for s in items if isinstance(s, Sample)]
    return ScoreTable.from_results(results, samples, specs)


def _detailed(items: list[Sample | InvalidRow], results: list[SampleResult]
              ) -> Iterator[dict[str, Any]]:
    by_sample: dict[tuple[str, str], list[SampleResult]] = {}
    for r in results:
        by_sample.setdefault((r.strategy, r.sample_id), []).append(r)
    for item in items:
        if isinstance(item, InvalidRow):
            yield {"id": item.id, "strategy": item.strategy, "status": "failed",
                   "error": f"{item.source}: {item.reason}", "metrics": {}, "unscored": {},
                   "details": {}, "reasoning": None}
            continue
        metrics: dict[str, Any] = {}
        unscored: dict[str, str] = {}
        details: dict[str, Any] = {}
        reasoning: dict[str, str] = {}
        usage = Usage()
        for r in by_sample.get((item.strategy, item.id), []):
            usage = usage + r.usage
            if r.reasoning:
                reasoning[r.suite] = r.reasoning
            for m in r.results:
                metrics[m.name] = m.value
                if m.value is None:
                    unscored[m.name] = m.unscored_reason or "unscored"
                if m.details:
                    details[m.name] = m.details
        yield {
            "id": item.id, "strategy": item.strategy, "status": "ok",
            "question": item.question, "answer": item.answer,
            "contexts": list(item.contexts), "reference": item.reference,
            "labels": item.labels, "metrics": metrics, "unscored": unscored,
            "details": details,
            "reasoning": reasoning.get("judge") or next(iter(reasoning.values()), None),
            "usage": _usage_dict(usage),
        }


def build_report(store: Store, run_id: str, *, seed: int = 0,
                 include_details: bool = True) -> dict[str, Any]:
    """The full report of a run: metadata, statistics, usage and per-sample results."""
    run, items, results, specs = load_run(store, run_id)
    table = score_table(items, results, specs)
    sections = report_sections(table, seed=seed)
    usage = store.usage(run.id)
    invalid = [i for i in items if isinstance(i, InvalidRow)]
    metadata = {
        "run_id": run.id,
        "timestamp": run.created.isoformat(timespec="seconds"),
        "finished": run.finished.isoformat(timespec="seconds") if run.finished else None,
        "status": run.status,
        "dataset": run.dataset,
        "dataset_hash": run.dataset_hash,
        "judge": run.config.judge,
        "method": "offline" if run.config.judge == "offline" else "llm",
        "judge_model": run.judge_model,
        "embedding_model": run.config.embedding_model,
        "metrics": list(run.config.metrics),
        "total_samples": len(items),
        "scored_samples": len(items) - len(invalid),
        "invalid_samples": len(invalid),
        "package_version": run.package_version,
        "report_version": __version__,
        "prompt_versions": run.config.prompt_versions,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "complete": run.status == "complete",
    }
    report: dict[str, Any] = {"evaluation_metadata": metadata}
    report.update(sections)
    per_strategy: dict[str, Usage] = {}
    for r in results:
        per_strategy[r.strategy] = per_strategy.get(r.strategy, Usage()) + r.usage
    for name, entry in report.get("strategies", {}).items():
        entry["usage"] = _usage_dict(per_strategy.get(name, Usage()))
    report["usage"] = {
        **_usage_dict(usage.get("total", Usage())),
        "by_suite": {k: _usage_dict(v) for k, v in usage.items() if k != "total"},
    }
    report["metric_specs"] = {n: {"low": s.low, "high": s.high, "kind": s.kind,
                                  "higher_is_better": s.higher_is_better,
                                  "description": s.description} for n, s in specs.items()}
    report["invalid_rows"] = [{"id": i.id, "source": i.source, "reason": i.reason}
                              for i in invalid]
    if include_details:
        report["detailed_results"] = list(_detailed(items, results))
    return report
