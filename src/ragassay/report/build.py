"""Build the report dictionary for a run from the store; JSON is its direct dump.

The report reads the store and calls `stats`; it never calls a judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ragassay import __version__
from ragassay.labels import canonical
from ragassay.stats import ScoreTable, report_sections
from ragassay.store import RunRecord, Store
from ragassay.types import (
    HumanLabel,
    InvalidRow,
    MetricSpec,
    Sample,
    SampleResult,
    Usage,
    is_offline,
)


def _usage_dict(usage: Usage) -> dict[str, Any]:
    out: dict[str, Any] = {"calls": usage.calls, "input_tokens": usage.input_tokens,
                           "output_tokens": usage.output_tokens,
                           "total_tokens": usage.input_tokens + usage.output_tokens,
                           "cache_hits": usage.cache_hits}
    if usage.cached_tokens:  # of input_tokens, served from the server's prompt cache
        out["cached_tokens"] = usage.cached_tokens
    if usage.cost_usd is not None:  # priced by the backend from the provider's usage
        out["cost_usd"] = round(usage.cost_usd, 6)
    return out


@dataclass
class RunTable:
    """A run's score table and what a report adds to it, read by streaming the store:
    memory grows with one small row per sample, not with the samples' texts."""

    run: RunRecord
    table: ScoreTable
    specs: dict[str, MetricSpec]
    invalid: list[InvalidRow] = field(default_factory=list)
    total: int = 0  # samples and invalid rows
    usage_by_strategy: dict[str, Usage] = field(default_factory=dict)
    content_keys: dict[tuple[str, str], str] = field(default_factory=dict)  # row key -> key
    stored_labels: int = 0  # labels that came from the store (not the dataset)


LABEL_PAGE = 500  # samples whose stored labels are read in one query


def label_spelling(names: Iterable[str]) -> dict[str, str]:
    """The vocabulary's name -> the spelling a run's data uses for it (its first), so that
    a person's `hallucinated` joins the data's `hallucination` as one label."""
    out: dict[str, str] = {}
    for name in names:
        out.setdefault(canonical(name), name)
    return out


def overlay_labels(own: Mapping[str, Any], stored: Mapping[str, HumanLabel],
                   spelling: Mapping[str, str]) -> dict[str, Any]:
    """A sample's own labels with the store's on top: a stored label replaces the label of
    the same meaning, named as the run's data names it (`spelling`), else as the
    vocabulary does."""
    merged = dict(own)
    for name, label in stored.items():
        merged[spelling.get(canonical(name), canonical(name))] = label.value
    return merged


def merge_labels(sample: Sample, stored: Mapping[str, HumanLabel],
                 spelling: Mapping[str, str]) -> Sample:
    """The sample with the store's labels on top of its own (`overlay_labels`)."""
    if not stored:
        return sample
    return sample.model_copy(update={"labels": overlay_labels(sample.labels, stored,
                                                              spelling)})


def run_table(store: Store, run_id: str,
              labels: Mapping[str, Mapping[str, Any]] | None = None) -> RunTable:
    """Stream a run's samples and results into its ScoreTable. The samples' labels are
    their own with the store's human labels on top (`merge_labels`); `labels` (sample id
    -> labels) go on top of both, for calibrating against a separate file."""
    run = store.get_run(run_id)
    out = RunTable(run=run, table=ScoreTable(rows=(), specs={}), specs=run.spec_map())
    spelling = label_spelling(store.sample_label_names(run.id))

    def page(items: list[Sample]) -> Iterator[Sample]:
        found = store.labels_for(s.content_key for s in items)
        for item in items:
            out.content_keys[(item.strategy, item.id)] = key = item.content_key
            mine = found.get(key, {})
            out.stored_labels += len(mine)
            item = merge_labels(item, mine, spelling)
            if labels and item.id in labels:
                item = item.model_copy(update={"labels": {**item.labels, **labels[item.id]}})
            yield item

    def samples() -> Iterator[Sample]:
        pending: list[Sample] = []
        for item in store.iter_samples(run.id):
            out.total += 1
            if isinstance(item, InvalidRow):
                out.invalid.append(item)
                continue
            pending.append(item)
            if len(pending) >= LABEL_PAGE:
                yield from page(pending)
                pending = []
        yield from page(pending)

    def results() -> Iterator[SampleResult]:
        for r in store.iter_results(run.id):
            out.usage_by_strategy[r.strategy] = (
                out.usage_by_strategy.get(r.strategy, Usage()) + r.usage)
            yield r

    out.table = ScoreTable.from_results(results(), samples(), out.specs)
    return out


def iter_details(store: Store, run_id: str) -> Iterator[dict[str, Any]]:
    """The report's per-sample entries ("detailed_results"), one at a time: the two
    ordered streams (samples, results) are joined on the fly."""
    pending: SampleResult | None = None
    results = store.iter_results(run_id)
    for item in store.iter_samples(run_id):
        if isinstance(item, InvalidRow):
            yield _invalid_entry(item)
            continue
        mine: list[SampleResult] = []
        while True:  # results come in sample order, so this sample's are next
            if pending is None:
                pending = next(results, None)
            if pending is None or pending.sample_id != item.id:
                break
            mine.append(pending)
            pending = None
        yield _entry(item, mine)


def sample_entry(store: Store, run_id: str, sample_id: str) -> dict[str, Any] | None:
    """One sample's report entry (as in "detailed_results"), read on its own."""
    item = store.get_sample(run_id, sample_id)
    if item is None:
        return None
    if isinstance(item, InvalidRow):
        return _invalid_entry(item)
    return _entry(item, store.results_of(run_id, sample_id))


def _invalid_entry(item: InvalidRow) -> dict[str, Any]:
    return {"id": item.id, "strategy": item.strategy, "status": "failed",
            "error": f"{item.source}: {item.reason}", "metrics": {}, "unscored": {},
            "details": {}, "reasoning": None}


def _entry(item: Sample, results: list[SampleResult]) -> dict[str, Any]:
    metrics: dict[str, Any] = {}
    unscored: dict[str, str] = {}
    details: dict[str, Any] = {}
    reasoning: dict[str, str] = {}
    usage = Usage()
    for r in results:
        usage = usage + r.usage
        if r.reasoning:
            reasoning[r.suite] = r.reasoning
        for m in r.results:
            metrics[m.name] = m.value
            if m.value is None:
                unscored[m.name] = m.unscored_reason or "unscored"
            if m.details:
                details[m.name] = m.details
    return {
        "id": item.id, "strategy": item.strategy, "status": "ok",
        "question": item.question, "answer": item.answer,
        "contexts": list(item.contexts), "reference": item.reference,
        "labels": item.labels, "metrics": metrics, "unscored": unscored,
        "details": details,
        "reasoning": reasoning.get("judge") or next(iter(reasoning.values()), None),
        "usage": _usage_dict(usage),
    }


def bench_sections(meta: Mapping[str, Any]) -> dict[str, Any]:
    """A bench run's stored record (`ragassay.bench.store_bench`, in the run's meta) as
    report sections: "leaderboard" (rows, best first), "bench" (per-strategy figures:
    cost, latency, retrieval, failures) and "bench_config"; {} for any other run."""
    record = meta.get("bench")
    if not isinstance(record, dict):
        return {}
    out: dict[str, Any] = {"leaderboard": record.get("leaderboard"),
                           "bench": record.get("result"), "bench_config": record.get("config")}
    if record.get("leaderboard_error"):
        out["leaderboard_error"] = record["leaderboard_error"]
    return out


def build_report(store: Store, run_id: str, *, seed: int = 0,
                 include_details: bool = True) -> dict[str, Any]:
    """The full report of a run: metadata, statistics, usage and per-sample results."""
    rt = run_table(store, run_id)
    run, specs, invalid = rt.run, rt.specs, rt.invalid
    sections = report_sections(rt.table, seed=seed)
    usage = store.usage(run.id)
    metadata = {
        "run_id": run.id,
        "timestamp": run.created.isoformat(timespec="seconds"),
        "finished": run.finished.isoformat(timespec="seconds") if run.finished else None,
        "status": run.status,
        "dataset": run.dataset,
        "dataset_hash": run.dataset_hash,
        "judge": run.config.judge,
        "method": "offline" if is_offline(run.config.judge) else "llm",
        "judge_model": run.judge_model,
        "embedding_model": "; ".join(run.meta.get("embedders") or ()) or "none",
        "judge_reliability": run.meta.get("reliability") or {},
        "metrics": list(run.config.metrics),
        "total_samples": rt.total,
        "scored_samples": rt.total - len(invalid),
        "invalid_samples": len(invalid),
        "package_version": run.package_version,
        "report_version": __version__,
        "prompt_versions": run.config.prompt_versions,
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "complete": run.status == "complete",
    }
    report: dict[str, Any] = {"evaluation_metadata": metadata}
    report.update(sections)
    for name, entry in report.get("strategies", {}).items():
        entry["usage"] = _usage_dict(rt.usage_by_strategy.get(name, Usage()))
    report["usage"] = {
        **_usage_dict(usage.get("total", Usage())),
        "by_suite": {k: _usage_dict(v) for k, v in usage.items() if k != "total"},
    }
    report["metric_specs"] = {n: s.model_dump(mode="json", exclude={"name"})
                              for n, s in specs.items()}
    report["invalid_rows"] = [{"id": i.id, "source": i.source, "reason": i.reason}
                              for i in invalid]
    report.update(bench_sections(run.meta))
    if include_details:
        report["detailed_results"] = list(iter_details(store, run.id))
    return report
