"""SQLite run store and judge-call cache: what makes runs resumable and never loses work.

One file (default `.ragassay/ragassay.db`, parent directories created) in WAL mode,
synchronous=NORMAL, foreign keys on and a busy timeout, so that a dashboard can read
while a run writes. Domain objects never save themselves: the store serialises the
core types with pydantic (`model_dump_json` / `model_validate_json`). It stores only
what it is given: never environment variables or keys.

Opening
    Store(path=DEFAULT_DB_PATH, *, readonly=False, busy_timeout_s=10.0)
        `path` a SQLite file, or a PostgreSQL URL (`postgresql://user@host:5432/name`,
        a `StoreUrl`): the same schema, migrations and guarantees (`store/dialect.py`
        holds every difference); credentials from the URL or the PG* variables, never
        stored or shown (`store.label` is the URL without its password).
        Writable opens apply any missing migrations (see `migrations.MIGRATIONS`);
        `readonly=True` opens `file:...?mode=ro` and refuses a DB that needs upgrading.
        `":memory:"` gives a private in-memory store (tests). Context manager; close().
    store.conn -> sqlite3.Connection, for ad-hoc read-only SQL.

Runs (status: running | complete | failed | interrupted)
    create_run(config: RunConfig, *, package_version: str, dataset_hash: str | None,
               judge_model: str, meta: RunMeta | None = None) -> str
        New id, short and sortable by creation time in UTC: "20261130-125501-ab12".
    get_run(run_id) -> RunRecord            exact id or a unique prefix of one
    list_runs(dataset: str | None = None) -> list[RunRecord]      newest first
    latest_run(dataset: str | None = None) -> RunRecord | None
    finish_run(run_id, status, meta_update: RunMeta | None = None) -> None
        Puts the fields the update wrote over the meta; "running" clears `finished`
        (use it when resuming).
    update_meta(run_id, meta_update: RunMeta) -> None;  save_bench_record(run_id, record)
    delete_run(run_id) -> None              cascades to samples, results, calls

Samples
    add_samples(run_id, items: Iterable[Sample | InvalidRow]) -> int
        Upsert in one transaction; new ids appended in input order.
    iter_samples(run_id) -> Iterator[Sample | InvalidRow]    in input order
    count_samples(run_id, *, valid_only=False) -> int

Human labels (by content key; each person's kept: one per (key, name, annotator))
    set_labels(labels) -> int;  delete_label(key, name, annotator) -> bool
    people_labels(keys, annotator=None) -> list[HumanLabel]   every person's, oldest first
    labels_for(keys, annotator) -> {key: {name: HumanLabel}}  one person's
    iter_labels(name=None);  count_labels();  delete_labels(keys, names, annotator)

Results (one transaction per completed (sample, suite) judgment)
    save_result(run_id, result: SampleResult, calls: Sequence[CallRecord] = ()) -> None
        Result, per-metric rows and calls together, or nothing. Rejects NaN/inf values:
        unscored is value None plus a reason.
    prepare_result(result, calls) -> PreparedResult     checked and serialised, no DB
        (made where the judgment was made: a Ray worker prepares its whole batch)
    save_results(run_id, prepared: Sequence[PreparedResult], cache=[(key, json)]) -> None
        A batch of judgments and new cache entries (`cache_row`) in one transaction.
    done_keys(run_id) -> set[tuple[sample_id, suite]]       resume skips these
    iter_results(run_id, suite: str | None = None) -> Iterator[SampleResult]
    count_results(run_id, suite: str | None = None) -> int
    metric_values(run_id, metric) -> list[(sample_id, strategy, value | None, reason | None)]
        Backed by the `metric_values` table (run_id, sample_id, suite, metric, strategy,
        value REAL, unscored_reason) for SQL filtering by metric; booleans are 1.0/0.0.
Scores (for statistics and the dashboard: no result or sample document is parsed)
    iter_scores(run_id) -> Iterator[ScoreRecord | InvalidRow]   in input order, a page
        at a time: sample id, strategy, question, question id, labels, values, reasons
    metrics_present(run_id) -> dict[str, bool]    metrics with stored values, first stored
        first, each with whether it is boolean
    metric_summary(run_id) -> list[MetricSummary]   per metric: scored and unscored
        counts, mean, low, high (SQL aggregates: seconds at 100,000 samples)
    unscored_reason_names(run_id) -> list[str]
    sample_page(run_id, SampleQuery(strategies, scored, reason, text, sort_metric,
        ascending, value_range, offset, limit)) -> SamplePage(total, rows)
        one page of valid samples (question cut to 200 characters, values, reasons),
        filtered and sorted by SQLite

Calls and usage
    CallRecord(run_id=None, sample_id, suite, prompt, cache_key, model, input_tokens,
               output_tokens, latency_s, cached, status "ok" | "error", error)
    add_calls(calls, *, run_id=None) -> None; iter_calls(run_id) -> Iterator[CallRecord]
    usage(run_id, *, source="results" | "calls") -> dict[str, Usage]  per suite + "total"

Cache
    cache_key(payload) -> str   sha256 hex of canonical JSON (sort_keys, separators=(",",
        ":"), ensure_ascii=False). Put into the payload only what changes the output
        (model, messages, output-affecting parameters, prompt version), never timeouts,
        concurrency, retries or keys.
    cache_get(key) -> dict | None; cache_put(key, value: dict) (insert or replace);
    cache_clear() -> int

Provider batches (`eval --batch`; `store/batches.py`)
    add_batch(run_id, provider, custom_ids, size) -> batch    before the upload
    batch_uploaded(batch, file_id); batch_update(batch, status=..., batch_id=..., ...)
    batches(run_id, live=False) -> [BatchRecord]; runs_waiting_for_batch() -> {run ids}
    save_batch_lines(batch, [BatchLine]); settle_batch(batch, reason); abandon_batch(batch)
    call_states(run_id, custom_id) -> [CallState]; batch_summary(run_id) -> BatchSummary
    set_batch_options(run_id, json); batch_options(run_id) -> json | None
Monitor runs (`store/monitor.py`, migration m0011_monitor)
    create_monitor / find_monitor(name) / get_monitor(run) / save_monitor: the monitor's
        settings and state (JSON the monitor package reads)
    accept_spans(run, [(trace, span, json)], state=None) -> Accepted   the ledger of
        accepted traces (open -> queued -> scored | unsampled | invalid) and the spans of
        those not yet scored; complete_traces, mark_scored (positions of the scored
        stream), pending_traces (a restart's work), trace_counts, position_values,
        worst_traces, traces_at; add_monitor_event (once per key), monitor_events;
        prune_monitor(run, before) (retention)

Errors
    StoreError: one-line message for the CLI, e.g. "no run 'x' in .ragassay/ragassay.db",
    "cannot write to .ragassay/ragassay.db: attempt to write a readonly database",
    "cannot create directory ...", "cannot open ...: file is not a database".
"""

from ragassay.store.batches import BatchLine, BatchRecord, BatchSummary, CallState
from ragassay.store.dialect import StoreUrl, is_url
from ragassay.store.monitor import TRACE_STATES, Accepted, MonitorRecord, PendingTrace
from ragassay.store.records import (
    DEFAULT_DB_PATH,
    CallRecord,
    RunRecord,
    RunStatus,
    StoreError,
    cache_key,
)
from ragassay.store.rows import PreparedResult, cache_row, prepare_result
from ragassay.store.scores import MetricSummary, SamplePage, SampleQuery, ScoreRecord
from ragassay.store.store import Store

__all__ = [
    "DEFAULT_DB_PATH",
    "TRACE_STATES",
    "Accepted",
    "BatchLine",
    "BatchRecord",
    "BatchSummary",
    "CallRecord",
    "CallState",
    "MetricSummary",
    "MonitorRecord",
    "PendingTrace",
    "PreparedResult",
    "RunRecord",
    "RunStatus",
    "SamplePage",
    "SampleQuery",
    "ScoreRecord",
    "Store",
    "StoreError",
    "StoreUrl",
    "cache_key",
    "cache_row",
    "is_url",
    "prepare_result",
]
