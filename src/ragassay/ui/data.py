"""Reading the run store for the dashboard, with caching keyed by run version.

Every loader opens the store read-only (a dashboard never writes, except the
Evaluate page) and closes it again, so that a run writing in another process
(WAL) is never blocked. Heavy results are cached with `st.cache_data` keyed by
(db path, run id, version), where the version is the run's finished timestamp, or,
while it is still running, its result and sample counts: a finished run is
computed once, a running one is recomputed as it grows.

A run of more than LARGE_RUN samples is read by aggregates and pages (`summary`,
`sample_page`: SQL in the store), and its full report (bootstrap intervals over every
sample: minutes at 100,000) is built only when the user asks for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from ragassay.monitor.view import MonitorView, monitor_view
from ragassay.report import (
    FailedEntry,
    Report,
    SampleEntry,
    TrendMark,
    build_report,
    export,
    iter_details,
    published,
    run_dataset,
    run_table,
    sample_entry,
    trend_marks,
    trend_runs,
)
from ragassay.stats import (
    CompareOptions,
    Comparison,
    ScoreTable,
    TrendPoint,
    compare_strategies,
    compare_tables,
    trends,
)
from ragassay.store import (
    MetricSummary,
    RunRecord,
    SamplePage,
    SampleQuery,
    Store,
)
from ragassay.types import MAJORITY, LabelRule, Usage

SEED = 0
LARGE_RUN = 20_000
"""Samples above which a run's pages read aggregates and pages of the store, and its
full report is built on request (see the module docstring)."""


@contextmanager
def reading(db: str) -> Iterator[Store]:
    """A read-only store, closed on exit (raises StoreError with a one-line message)."""
    store = Store(db, readonly=True)
    try:
        yield store
    finally:
        store.close()


def run_version(store: Store, run: RunRecord) -> str:
    """Changes whenever the run's samples or results can change (people's labels, which
    are not the run's, are stamped apart: `labels_stamp`)."""
    if run.finished is not None and run.status != "running":
        return f"{run.status}:{run.finished.isoformat()}"
    return f"running:{store.count_results(run.id)}:{store.count_samples(run.id)}"


@dataclass(frozen=True)
class RunRow:
    """One line of the Runs page."""

    run: RunRecord
    version: str
    samples: int
    means: dict[str, float | None]


def list_runs(db: str) -> list[RunRow]:
    """Every run (newest first) with its sample count and per-metric means (cheap SQL)."""
    with reading(db) as store:
        rows = []
        for run in store.list_runs():
            version = run_version(store, run)
            rows.append(RunRow(run, version, store.count_samples(run.id),
                               metric_means(db, run.id, version)))
        return rows


@dataclass(frozen=True)
class TrendHistory:
    """The runs a trend of a run's dataset follows (`report.trend_runs`: complete eval runs,
    oldest first) as (run id, created ISO, version), and the line naming the runs of
    other kinds it leaves out (None: none)."""

    runs: tuple[tuple[str, str, str], ...]
    left_out: str | None
    marks: tuple[TrendMark, ...] = ()
    """Each run's judge and whether it changed from the previous run's
    (`report.trend_marks`), aligned with `runs`."""

    def judge_changes(self) -> dict[str, TrendMark]:
        """The marks by run id."""
        return {run[0]: mark for run, mark in zip(self.runs, self.marks, strict=True)}


def trend_history(db: str, run: RunRecord) -> TrendHistory:
    """The runs of `run`'s dataset a trend follows, by the rule `ragassay trend` follows."""
    with reading(db) as store:
        found = trend_runs(store, run_dataset(run))
        return TrendHistory(tuple((r.id, r.created.isoformat(), run_version(store, r))
                                  for r in found.runs), found.left_out(),
                            tuple(trend_marks([r.id for r in found.runs], found.runs)))


@st.cache_data(show_spinner=False, max_entries=512)
def metric_means(db: str, run_id: str, version: str) -> dict[str, float | None]:
    """Mean of the scored values of each metric (booleans as rates), from SQL."""
    with reading(db) as store:
        return store.metric_means(run_id)


def get_run(db: str, run_id: str) -> tuple[RunRecord, str]:
    """The run (exact id or unique prefix) and its current version."""
    with reading(db) as store:
        run = store.get_run(run_id)
        return run, run_version(store, run)


@st.cache_data(show_spinner=False, max_entries=256)
def samples_in(db: str, run_id: str, version: str) -> int:
    """How many samples (invalid rows included) the run has."""
    with reading(db) as store:
        return store.count_samples(run_id)


def is_large(db: str, run_id: str, version: str) -> bool:
    return samples_in(db, run_id, version) > LARGE_RUN


@dataclass(frozen=True)
class RunSummary:
    """What a large run's pages show before its full report is asked for: all SQL."""

    run: RunRecord
    samples: int
    invalid: int
    metrics: list[MetricSummary]
    usage: dict[str, Usage]


@st.cache_data(show_spinner="Reading the run's aggregates...", max_entries=32)
def summary(db: str, run_id: str, version: str) -> RunSummary:
    with reading(db) as store:
        samples = store.count_samples(run_id)
        return RunSummary(run=store.get_run(run_id), samples=samples,
                          invalid=samples - store.count_samples(run_id, valid_only=True),
                          metrics=store.metric_summary(run_id), usage=store.usage(run_id))


@st.cache_data(show_spinner=False, max_entries=64)
def strategies(db: str, run_id: str, version: str) -> list[str]:
    """The strategies the run's samples name, in order of first appearance."""
    with reading(db) as store:
        return store.sample_strategies(run_id)


@st.cache_data(show_spinner=False, max_entries=64)
def reason_names(db: str, run_id: str, version: str) -> list[str]:
    """The reasons the run's values are unscored for."""
    with reading(db) as store:
        return store.unscored_reason_names(run_id)


@st.cache_data(show_spinner="Reading samples...", max_entries=256)
def sample_page(db: str, run_id: str, version: str, query: SampleQuery) -> SamplePage:
    """One page of the run's samples as `query` filters and sorts them (SQL)."""
    with reading(db) as store:
        return store.sample_page(run_id, query)


def labels_stamp(db: str) -> tuple[int, int]:
    """Changes whenever a label is given, replaced or removed (`Store.labels_stamp`)."""
    with reading(db) as store:
        return store.labels_stamp()


def report(db: str, run_id: str, version: str, rule: str = MAJORITY) -> Report:
    """The report's sections of a run (figures as published), without per-sample details
    (those are read one sample at a time, `sample`): memory grows with a small row per
    sample; several people's labels read by `rule` ("majority" or "annotator:NAME").
    Built again when the run or people's labels change (the corrected figures and the
    agreement between people read the labels)."""
    return _report(db, run_id, version, labels_stamp(db), rule)


@st.cache_data(show_spinner="Building the report...", max_entries=32)
def _report(db: str, run_id: str, version: str, labels: tuple[int, int], rule: str
            ) -> Report:
    with reading(db) as store:
        return published(build_report(store, run_id, seed=SEED, include_details=False,
                                      rule=LabelRule.parse(rule), per_sample=False))


@st.cache_data(show_spinner=False, max_entries=256)
def sample(db: str, run_id: str, version: str, sample_id: str
           ) -> SampleEntry | FailedEntry | None:
    """One sample's report entry: its texts, values, reasons and details."""
    with reading(db) as store:
        return sample_entry(store, run_id, sample_id)


@st.cache_data(show_spinner=False, max_entries=64)
def matching(db: str, run_id: str, version: str, text: str) -> frozenset[str]:
    """Ids of the samples whose texts contain `text` (searched in the store)."""
    with reading(db) as store:
        return frozenset(store.matching_samples(run_id, text))


def download(db: str, run_id: str, version: str, fmt: Literal["json", "csv", "html"],
             rule: str = MAJORITY) -> str:
    """The run's full report as JSON, CSV or HTML text (streamed from the store for JSON
    and CSV, as `ragassay report` writes them), several people's labels read by `rule`
    as `report` reads them; built again when people's labels change (the CSV's
    `label.<name>` columns, the disagreements and the HTML's people's labels read them;
    review 14p: the file stayed the one of the first download)."""
    return _download(db, run_id, version, fmt, labels_stamp(db), rule)


@st.cache_data(show_spinner="Preparing the download...", max_entries=8)
def _download(db: str, run_id: str, version: str, fmt: Literal["json", "csv", "html"],
              labels: tuple[int, int], rule: str) -> str:
    with reading(db) as store:
        full, parsed = fmt == "html", LabelRule.parse(rule)
        out = io.StringIO()
        export(build_report(store, run_id, seed=SEED, include_details=full, rule=parsed,
                            per_sample=not full), fmt, out,
               None if full else iter_details(store, run_id, parsed))
        return out.getvalue()


@st.cache_data(show_spinner=False, max_entries=64)
def table(db: str, run_id: str, version: str) -> ScoreTable:
    """The run's ScoreTable (one row per sample, one value per metric)."""
    with reading(db) as store:
        return run_table(store, run_id).table


@st.cache_data(show_spinner="Computing trends...", max_entries=16)
def run_trends(db: str, runs: Sequence[tuple[str, str, str]]) -> dict[str, list[TrendPoint]]:
    """Per metric, its mean (with CI) across `runs` = [(run_id, created ISO, version)]."""
    tables = [(rid, created, table(db, rid, version)) for rid, created, version in runs]
    return trends(tables, seed=SEED, n_resamples=1000)


@st.cache_data(show_spinner="Comparing...", max_entries=32)
def compare_runs(db: str, a: tuple[str, str], b: tuple[str, str], alpha: float
                 ) -> Comparison:
    """Run b against run a (each `(run_id, version)`), paired by sample."""
    return compare_tables(table(db, *a), table(db, *b), CompareOptions(alpha=alpha, seed=SEED))


@st.cache_data(show_spinner="Comparing...", max_entries=32)
def compare_within(db: str, run: tuple[str, str], s1: str, s2: str, alpha: float
                   ) -> Comparison:
    """Strategy s2 against s1 within one run (`(run_id, version)`), paired by question."""
    return compare_strategies(table(db, *run), s1, s2, CompareOptions(alpha=alpha, seed=SEED))


def monitor(db: str, run_id: str) -> MonitorView | None:
    """A monitor run's view (not cached: a live monitor changes by the second)."""
    with reading(db) as store:
        return monitor_view(store, run_id)
