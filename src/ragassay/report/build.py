"""Build the `Report` of a run from the store.

The report reads the store and calls `stats`; it never calls a judge.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ragassay.dataset.traces.trace import SampleTrace, own_metadata
from ragassay.report.bench import BenchRecord
from ragassay.report.corrected import corrected_for
from ragassay.report.groups import group_key, groups_for
from ragassay.report.hops import hops_section
from ragassay.report.model import (
    METADATA_KEYS_MAX,
    REPORT_VERSION,
    FailedEntry,
    InvalidRowEntry,
    Report,
    RunInfo,
    SampleEntry,
    StrategyEntry,
)
from ragassay.report.people import people_section
from ragassay.report.table import run_table, with_people
from ragassay.report.usage import BatchUsage, RunUsage, UsageSummary
from ragassay.stats import Finding, report_sections, with_target
from ragassay.store import RunRecord, Store
from ragassay.types import (
    InvalidRow,
    JudgeFailure,
    LabelRule,
    MetricResult,
    RatingReading,
    RunMeta,
    RunReliability,
    Sample,
    SampleResult,
    SampleRouting,
    SentenceMarks,
    Usage,
    is_offline,
)


def iter_details(store: Store, run_id: str, rule: LabelRule | None = None
                 ) -> Iterator[SampleEntry | FailedEntry]:
    """The report's per-sample entries ("detailed_results"), one at a time: the two
    ordered streams (samples, results) are joined on the fly; each sample's labels are
    the ones the statistics read, people's stored labels on top under `rule`
    (`with_people`)."""
    pending: SampleResult | None = None
    results = store.iter_results(run_id)
    routed = store.routed_samples(run_id)
    for item in with_people(store, run_id, store.iter_samples(run_id), rule):
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
        yield _entry(item, mine, routed.get(item.id))


def metadata_keys(store: Store, run_id: str) -> list[str] | None:
    """The keys of the run's samples' own metadata (as `SampleEntry.metadata` holds them:
    the trace aside), in the order they first appear: the `metadata.<key>` columns of the
    CSV, the Parquet results and `to_pandas()`; None when there are more than
    METADATA_KEYS_MAX (the tables then have one `metadata` column). A scan of every
    sample's metadata: read only for a per-sample table."""
    return store.sample_metadata_keys(run_id, most=METADATA_KEYS_MAX)


def sample_entry(store: Store, run_id: str, sample_id: str
                 ) -> SampleEntry | FailedEntry | None:
    """One sample's report entry (as in "detailed_results"), read on its own."""
    item = store.get_sample(run_id, sample_id)
    if item is None:
        return None
    if isinstance(item, InvalidRow):
        return _invalid_entry(item)
    return _entry(item, store.results_of(run_id, sample_id),
                  store.routed_samples(run_id, [sample_id]).get(sample_id))


def _invalid_entry(item: InvalidRow) -> FailedEntry:
    return FailedEntry(id=item.id, strategy=item.strategy, error=f"{item.source}: {item.reason}")


def _entry(item: Sample, results: list[SampleResult],
           routing: SampleRouting | None = None) -> SampleEntry:
    metrics: dict[str, bool | float | None] = {}
    unscored: dict[str, str] = {}
    abstained: dict[str, str] = {}
    own: dict[str, dict[str, Any]] = {}  # each metric's details: the suite's own record
    reasoning: dict[str, str] = {}
    typed = _Typed()
    usage = Usage()
    for r in results:
        usage = usage + r.usage
        if r.reasoning:
            reasoning[r.suite] = r.reasoning
        for m in r.results:
            metrics[m.name] = m.value
            if (outcome := m.abstention) is not None:
                abstained[m.name] = outcome
            elif m.value is None:
                unscored[m.name] = m.unscored_reason or "unscored"
            # the basis also where readers found it before it was typed (`details`)
            basis = {"abstention_basis": m.abstention_basis} if m.abstention_basis else {}
            if m.details or basis:
                own[m.name] = {**m.details, **basis}
            typed.add(m)
    return SampleEntry(
        id=item.id, strategy=item.strategy, question=item.question, answer=item.answer,
        contexts=list(item.contexts), reference=item.reference, labels=item.labels,
        metadata=own_metadata(item),
        metrics=metrics, unscored=unscored, details=own,
        reasoning=reasoning.get("judge") or next(iter(reasoning.values()), None),
        usage=UsageSummary.of(usage), abstained=abstained or None,
        trace=SampleTrace.of(item),
        marks=typed.marks or None, ratings=typed.ratings or None,
        failures=typed.failures or None, truncated=sorted(typed.truncated) or None,
        suspicious=typed.suspicious, routing=routing,
    )


class _Typed:
    """A sample's typed readings, gathered over its metrics."""

    def __init__(self) -> None:
        self.marks: dict[str, SentenceMarks] = {}
        self.ratings: dict[str, RatingReading] = {}
        self.failures: dict[str, JudgeFailure] = {}
        self.truncated: set[str] = set()
        self.suspicious: str | None = None

    def add(self, m: MetricResult) -> None:
        if m.marks:
            self.marks[m.name] = m.marks
        if m.rating is not None:
            self.ratings[m.name] = m.rating
        if m.failure is not None:
            self.failures[m.name] = m.failure
        self.truncated.update(m.truncated)
        self.suspicious = self.suspicious or m.suspicious


def bench_sections(meta: RunMeta) -> dict[str, Any]:
    """A bench run's stored record (`ragassay.bench.store_bench`, `RunMeta.bench`) as the
    report's fields: `leaderboard` (rows, best first), `bench` (per-strategy figures:
    cost, latency, retrieval, failures), `bench_config` and `leaderboard_error`; {} for
    any other run."""
    record = BenchRecord.read(meta.bench)
    if record is None:
        return {}
    return {"leaderboard": record.leaderboard, "bench": record.result,
            "bench_config": record.config,
            "leaderboard_error": record.leaderboard_error or None}


def run_info(run: RunRecord, total: int, invalid: int, suspicious: int = 0) -> RunInfo:
    """The report's `evaluation_metadata` of a run with `total` rows, `invalid` of them
    invalid, `suspicious` judge replies that copied a verdict from the judged text."""
    return RunInfo(
        run_id=run.id,
        timestamp=run.created.isoformat(timespec="seconds"),
        finished=run.finished.isoformat(timespec="seconds") if run.finished else None,
        status=run.status,
        dataset=run.dataset,
        dataset_hash=run.dataset_hash,
        judge=run.config.judge,
        method="offline" if is_offline(run.config.judge) else "llm",
        judge_model=run.judge_model,
        embedding_model="; ".join(run.meta.embedders) or "none",
        judge_reliability=run.meta.reliability,
        metrics=list(run.config.metrics),
        total_samples=total,
        scored_samples=total - invalid,
        invalid_samples=invalid,
        package_version=run.package_version,
        report_version=REPORT_VERSION,
        prompt_versions=run.config.prompt_versions,
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        complete=run.status == "complete",
        suspicious_replies=suspicious,
    )


def batch_usage(store: Store, run_id: str) -> BatchUsage | None:
    """The run's provider batches and their cost (None: it submitted none)."""
    found = store.batch_summary(run_id)
    if found is None:
        return None
    rounded = {k: None if v is None else round(v, 6)
               for k, v in (("cost_usd", found.cost_usd),
                            ("direct_cost_usd", found.direct_cost_usd))}
    return BatchUsage(**{**found.model_dump(), **rounded})


def build_report(store: Store, run_id: str, *, seed: int = 0,
                 include_details: bool = True, rule: LabelRule | None = None,
                 per_sample: bool = True, by: str | None = None) -> Report:
    """The full report of a run: metadata, statistics, corrected estimates (when some
    sample has labels; several people's labels made one by `rule`, default majority),
    the people who labelled and their agreement, usage and per-sample results; with
    `by` (a metadata key: `kind`, `metadata.kind`), the run's `groups` by its value
    (`groups_for`; UnknownGroupKey naming the keys there are, before anything else).
    `per_sample=False` for a report no per-sample output is written from (a summary,
    the HTML, the dashboard): the metadata keys the JSON entries, CSV and Parquet need
    (`metadata_keys`, a scan of every sample) are then not read."""
    if by is not None:
        group_key(store, run_id, by)
    rt = run_table(store, run_id, rule=rule)
    run, specs, invalid = rt.run, rt.specs, rt.invalid
    sections = report_sections(rt.table, seed=seed)
    if sections.abstentions:  # what decided them false or correct, said beside the rate
        bases = store.abstention_bases(run.id)
        sections = sections.model_copy(update={"abstentions": {
            s: a.model_copy(update={"basis": bases.get(s, [])})
            for s, a in sections.abstentions.items()}})
    usage = store.usage(run.id)
    strategies = {name: StrategyEntry(**dict(entry), usage=UsageSummary.of(
                      rt.usage_by_strategy.get(name, Usage())))
                  for name, entry in sections.strategies.items()}
    return Report(
        evaluation_metadata=run_info(run, rt.total, len(invalid),
                                     store.suspicious_replies(run.id)),
        **{**dict(sections), "strategies": strategies,
           "diagnostics": caveated(sections.diagnostics, run.meta.reliability)},
        corrected=corrected_for(store, run.id, rt=rt) if rt.table.label_names else None,
        annotators=people_section(rt, seed=seed),
        groups=None if by is None else groups_for(store, run.id, by, rt=rt, seed=seed),
        usage=RunUsage(**dict(UsageSummary.of(usage.get("total", Usage()))),
                       by_suite={k: UsageSummary.of(v) for k, v in usage.items()
                                 if k != "total"}, batch=batch_usage(store, run.id)),
        # each with the target every reader shows (declared, else the generic rule)
        metric_specs={name: with_target(spec) for name, spec in specs.items()},
        invalid_rows=[InvalidRowEntry(id=i.id, source=i.source, reason=i.reason)
                      for i in invalid],
        **bench_sections(run.meta),
        hops=hops_section(store, run.id),
        routing=store.get_routing(run.id),
        **_metadata_layout(store, run.id, per_sample),
        detailed_results=list(iter_details(store, run.id, rule)) if include_details else None,
    )


def caveated(findings: list[Finding], reliability: RunReliability | None) -> list[Finding]:
    """The findings, each whose rule fires on a metric the run's judge agrees weakly with
    people on (held apart: `RunReliability.weak`, the gate's own words) carrying that as
    its `caveat`, once per metric: `METRIC: the offline judge agrees with
    people only at AUROC 0.60 on its worst unseen set (below 0.7)` (issue #38: the
    HTML blamed retrieval on 59 of 128 answerable probes with no warning beside it)."""
    if reliability is None:
        return findings
    out = []
    for f in findings:
        said = [f"{m}: the {weak}" for m in dict.fromkeys(f.metrics)
                if (weak := reliability.weak(m)) is not None]
        out.append(f.model_copy(update={"caveat": "; ".join(said)}) if said else f)
    return out


def _metadata_layout(store: Store, run_id: str, per_sample: bool) -> dict[str, Any]:
    """The report's `metadata_keys`, or `metadata_json` when there are too many; without
    `per_sample`, none read (None: `Report.table_keys` refuses to make a table)."""
    if not per_sample:
        return {"metadata_keys": None}
    keys = metadata_keys(store, run_id)
    return {"metadata_keys": None, "metadata_json": True} if keys is None else {
        "metadata_keys": keys}
