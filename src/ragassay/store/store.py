"""The SQLite run store: runs, samples, results, the call ledger and the judge cache."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from ragassay.store import dialect, lease
from ragassay.store.batches import BatchesMixin
from ragassay.store.db import open_connection, open_postgres
from ragassay.store.dialect import StoreUrl
from ragassay.store.labels import LabelsMixin
from ragassay.store.ledger import LedgerMixin
from ragassay.store.monitor import MonitorMixin
from ragassay.store.outcomes import OutcomesMixin
from ragassay.store.records import (
    DEFAULT_DB_PATH,
    RUN_STATUSES,
    CallRecord,
    RunRecord,
    StoreError,
    json_default,
    read_only_reason,
)
from ragassay.store.routing import RoutingMixin
from ragassay.store.rows import (
    LACKING_SQL,
    PreparedResult,
    call_row,
    prepare_result,
    read_config,
    result_from_row,
    run_from_row,
)
from ragassay.store.rows import insert_calls as _insert_calls  # module-level: tests patch it
from ragassay.store.samples import PAGE_ROWS, SamplesMixin
from ragassay.store.scores import PagesMixin, ScoresMixin
from ragassay.types import (
    MISSING_INPUT,
    MetricSpec,
    RunConfig,
    RunMeta,
    SampleResult,
)
from ragassay.urls import redact_url


def _now() -> datetime:
    return datetime.now(UTC)


def _new_run_id(now: datetime) -> str:
    """Short and sortable by creation time (UTC): "20261130-125501-ab12"."""
    return f"{now.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=json_default)


def _merged_meta(raw: str, update: RunMeta | None) -> dict[str, Any]:
    """A stored meta with the fields `update` wrote put over it, as stored."""
    meta = RunMeta.read(json.loads(raw))
    return (meta.merged(update) if update is not None else meta).stored()


class Store(SamplesMixin, LedgerMixin, LabelsMixin, OutcomesMixin, ScoresMixin, PagesMixin,
            BatchesMixin, MonitorMixin, RoutingMixin):
    """A run store backed by one SQLite file (WAL: a dashboard may read while a run writes).

    Calls are synchronous and short; use one Store per process (a lock makes sharing it
    between threads safe, one call at a time). Every failure of the database or its
    location surfaces as `StoreError` with a one-line message.
    """

    def __init__(
        self,
        path: str | Path = DEFAULT_DB_PATH,
        *,
        readonly: bool = False,
        busy_timeout_s: float = 10.0,
    ) -> None:
        url = path.url if isinstance(path, StoreUrl) else str(path)
        self.is_postgres = isinstance(path, str) and dialect.is_url(url)
        self.label = dialect.redacted(url) if self.is_postgres else str(path)
        self.path = Path(path) if not self.is_postgres else Path(".")
        self.readonly = readonly
        self._url = url if self.is_postgres else None  # credentials: `connect_url` only
        self._lock = threading.RLock()
        if self.is_postgres:  # a PgConnection has the sqlite3 connection's face (dialect)
            self._conn = cast(sqlite3.Connection, open_postgres(url, self.label,
                                                                readonly=readonly))
        else:
            self._conn = open_connection(self.label, readonly=readonly,
                                         busy_timeout_s=busy_timeout_s)
        # runs read whose config has fields this version does not know (the CLI says so)
        self.unknown_configs: dict[str, tuple[str, ...]] = {}
        self._writable: set[str] = set()  # runs checked writable by this store

    @property
    def connect_url(self) -> str | None:
        """A PostgreSQL store's whole URL, credentials included, for another process that
        connects to the same store itself (a Ray worker that saves its judgments); None
        for SQLite. Never print it (`label` is the redacted form)."""
        return self._url

    @property
    def conn(self) -> sqlite3.Connection:
        """The underlying connection, for ad-hoc read queries (rows are `sqlite3.Row`)."""
        return self._conn

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.label!r}, readonly={self.readonly})"

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of the body is committed, or none of it."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to {self.label}: {e}") from e
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException as e:
                if self._conn.in_transaction:
                    with suppress(sqlite3.Error):
                        self._conn.execute("ROLLBACK")
                if isinstance(e, sqlite3.Error):
                    raise StoreError(f"cannot write to {self.label}: {e}") from e
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"cannot read {self.label}: {e}") from e

    def _no_run(self, run_id: str) -> StoreError:
        return StoreError(f"no run '{run_id}' in {self.label}")

    def _require_run(self, conn: sqlite3.Connection, run_id: str) -> sqlite3.Row:
        """The run's row, for a write: StoreError when it is absent or read-only here."""
        row = conn.execute("SELECT meta, config FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise self._no_run(run_id)
        self._check_writable(run_id, row["config"])
        return row

    # -- runs -------------------------------------------------------------------------

    def create_run(
        self,
        config: RunConfig,
        *,
        package_version: str,
        dataset_hash: str | None,
        judge_model: str,
        meta: RunMeta | None = None,
        specs: Sequence[MetricSpec] = (),
    ) -> str:
        """Record a new run with status "running", leased to this process, with the metric
        specs it is scored with; return its id.

        A base URL is stored without its query string and userinfo (see `ragassay.urls`).
        """
        if config.base_url or config.base_urls:
            config = config.model_copy(update={
                "base_url": redact_url(config.base_url) if config.base_url else None,
                "base_urls": tuple(redact_url(u) for u in config.base_urls)})
        for _ in range(20):
            now = _now()
            run_id = _new_run_id(now)
            with self._write() as conn:
                if conn.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone():
                    continue
                conn.execute(
                    "INSERT INTO runs (id, created, finished, status, config, package_version,"
                    " dataset, dataset_hash, judge, judge_model, meta, specs)"
                    " VALUES (?, ?, NULL, 'running', ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        run_id,
                        now.isoformat(),
                        config.model_dump_json(),
                        package_version,
                        config.dataset,
                        dataset_hash,
                        config.judge,
                        judge_model,
                        _dumps((meta or RunMeta()).stored()),
                        _dumps([sp.model_dump(mode="json") for sp in specs]),
                    ),
                )
                lease.take(conn, run_id)
                return run_id
        raise StoreError(f"cannot write to {self.label}: no free run id")  # pragma: no cover

    def _run(self, row: sqlite3.Row) -> RunRecord:
        run = run_from_row(row)
        if run.unknown_config:
            self.unknown_configs[run.id] = run.unknown_config
        return run

    def _check_writable(self, run_id: str, raw_config: str) -> None:
        """StoreError when the run's stored config has fields this version does not know
        (checked once per run and store)."""
        if run_id in self._writable:
            return
        why = read_only_reason(run_id, read_config(raw_config, run_id)[1])
        if why is not None:
            raise StoreError(why)
        self._writable.add(run_id)

    def get_run(self, run_id: str) -> RunRecord:
        """The run with this id, or the only run whose id starts with it."""
        rows = self._read("SELECT * FROM runs WHERE id = ?", (run_id,))
        if not rows and run_id:
            rows = self._read(
                "SELECT * FROM runs WHERE substr(id, 1, length(?)) = ? ORDER BY id LIMIT 6",
                (run_id, run_id),
            )
        if not rows:
            raise self._no_run(run_id)
        if len(rows) > 1:
            ids = [r["id"] for r in rows[:5]] + (["..."] if len(rows) > 5 else [])
            raise StoreError(f"run id '{run_id}' is ambiguous in {self.label}: {', '.join(ids)}")
        return self._run(rows[0])

    def list_runs(self, dataset: str | None = None) -> list[RunRecord]:
        """All runs (of one dataset, if given), newest first."""
        where, params = ("WHERE dataset = ?", (dataset,)) if dataset is not None else ("", ())
        rows = self._read(f"SELECT * FROM runs {where} ORDER BY created DESC, id DESC", params)
        return [self._run(r) for r in rows]

    def latest_run(self, dataset: str | None = None) -> RunRecord | None:
        """The newest run (of one dataset, if given), or None."""
        runs = self.list_runs(dataset)
        return runs[0] if runs else None

    def finish_run(self, run_id: str, status: str, meta_update: RunMeta | None = None, *,
                   failure: str | None = None) -> None:
        """Set a run's status and put the fields `meta_update` wrote over its meta; a
        failed run keeps why it failed (`failure`, one line; `RunRecord.failure`).

        Any status but "running" stamps `finished` and releases this process's lease;
        "running" clears it and takes the run's lease (a resumed run): `RunBusy` when a
        live process holds it, a stale lease of a process gone from this host is taken.
        `failure`: why a "failed" run failed, one line (`RunRecord.failure`); any other
        status clears an earlier one (a resumed run that completes).
        """
        if status not in RUN_STATUSES:
            raise ValueError(f"status must be one of {', '.join(RUN_STATUSES)}, not {status!r}")
        with self._write() as conn:
            row = self._require_run(conn, run_id)
            if status == "running":
                lease.take(conn, run_id)
            else:
                lease.release(conn, run_id)
            meta = _merged_meta(row["meta"], meta_update)
            meta.pop("failure", None)
            if status == "failed" and failure:
                meta["failure"] = " ".join(failure.split())
            finished = None if status == "running" else _now().isoformat()
            conn.execute(
                "UPDATE runs SET status = ?, finished = ?, meta = ? WHERE id = ?",
                (status, finished, _dumps(meta), run_id),
            )

    def update_meta(self, run_id: str, meta_update: RunMeta) -> None:
        """Put the fields `meta_update` wrote over a run's meta, leaving its status alone."""
        with self._write() as conn:
            row = self._require_run(conn, run_id)
            meta = _merged_meta(row["meta"], meta_update)
            conn.execute("UPDATE runs SET meta = ? WHERE id = ?", (_dumps(meta), run_id))

    def save_bench_record(self, run_id: str, record: dict[str, Any]) -> None:
        """Keep a bench's record with its run (`RunMeta.bench`: its config, per-strategy
        figures and leaderboard, which the report reads)."""
        self.update_meta(run_id, RunMeta(bench=record))

    def delete_run(self, run_id: str) -> None:
        """Delete a run with its samples, results, calls and annotation plan (the cache
        and human labels are kept: they belong to the content, not the run). `RunBusy`
        while another live process evaluates it."""
        with self._write() as conn:
            self._require_run(conn, run_id)
            lease.check_free(conn, run_id, then="delete it")
            if conn.execute("DELETE FROM runs WHERE id = ?", (run_id,)).rowcount == 0:
                raise self._no_run(run_id)

    # -- results ----------------------------------------------------------------------

    def save_result(
        self, run_id: str, result: SampleResult, calls: Sequence[CallRecord] = ()
    ) -> None:
        """Save one completed (sample, suite) judgment and its calls in ONE transaction.

        A killed process leaves either all of it or none of it. Saving the same
        (sample, suite) again replaces the result (its earlier calls stay in the ledger).
        """
        self.save_results(run_id, [prepare_result(result, calls)])

    def save_results(self, run_id: str, results: Sequence[PreparedResult],
                     cache: Sequence[tuple[str, str]] = ()) -> None:
        """Save judgments (see `prepare_result`) and new cache entries (`cache_row`) in
        ONE transaction: all of them or none. Idempotent per (sample, suite), as
        `save_result`."""
        now = _now().isoformat()
        with self._write() as conn:
            self._require_run(conn, run_id)
            self._write_results(conn, run_id, results, now)
            if cache:
                conn.executemany("INSERT INTO cache (key, value, created) VALUES (?, ?, ?)"
                                 " ON CONFLICT (key) DO UPDATE SET value = excluded.value,"
                                 " created = excluded.created", [(k, v, now) for k, v in cache])

    def _write_results(self, conn: sqlite3.Connection, run_id: str,
                       results: Sequence[PreparedResult], now: str) -> None:
        """Write judgments inside the caller's transaction (results, values, calls): four
        statements for the whole batch, each run over every row (`executemany`; on
        PostgreSQL one pipelined round trip each, not four per judgment). A (sample, suite)
        given twice keeps the last, as writing them one by one did."""
        calls = [c for r in results for c in r.calls]  # a repeat's calls stay too
        results = list({(r.sample_id, r.suite): r for r in results}.values())
        keys = [(run_id, r.sample_id, r.suite) for r in results]
        conn.executemany("DELETE FROM metric_values WHERE run_id = ? AND sample_id = ?"
                         " AND suite = ?", keys)
        conn.executemany(
            "INSERT INTO results (run_id, sample_id, suite, strategy, reasoning, usage,"
            " results, suspicious, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (run_id, sample_id, suite) DO UPDATE SET"
            " strategy = excluded.strategy, reasoning = excluded.reasoning, usage ="
            " excluded.usage, results = excluded.results, suspicious ="
            " excluded.suspicious, created = excluded.created",
            [(*key, r.strategy, r.reasoning, r.usage_json, r.results_json,
              int(r.suspicious), now) for key, r in zip(keys, results, strict=True)],
        )
        conn.executemany(
            "INSERT INTO metric_values (run_id, sample_id, suite, metric, strategy,"
            " value, unscored_reason, abstention) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(*key, name, r.strategy, value, reason, abstained)
             for key, r in zip(keys, results, strict=True)
             for name, value, reason, abstained in r.values],
        )
        _insert_calls(conn, run_id, calls, now)

    def results_of(self, run_id: str, sample_id: str) -> list[SampleResult]:
        """One sample's results, by suite."""
        rows = self._read("SELECT * FROM results WHERE run_id = ? AND sample_id = ? ORDER BY "
                          "suite", (run_id, sample_id))
        return [result_from_row(r) for r in rows]

    def done_keys(self, run_id: str, retry: str | None = None) -> set[tuple[str, str]]:
        """(sample_id, suite) pairs already saved: a resumed run skips these, except those
        `failed_keys(run_id, retry)` names (judged again)."""
        rows = self._read("SELECT sample_id, suite FROM results WHERE run_id = ?", (run_id,))
        done = {(r["sample_id"], r["suite"]) for r in rows}
        return done - self.failed_keys(run_id, retry) if retry else done

    def iter_results(self, run_id: str, suite: str | None = None) -> Iterator[SampleResult]:
        """The run's results (of one suite, if given), in sample order then suite, read a
        page at a time; results whose sample is not stored come last."""
        where, params = "r.run_id = ?", [run_id]
        if suite is not None:
            where, params = where + " AND r.suite = ?", [run_id, suite]
        last: tuple[int, str, str] = (-1, "", "")
        while True:
            rows = self._read(
                "SELECT r.*, s.ordinal FROM results r JOIN samples s"
                " ON s.run_id = r.run_id AND s.sample_id = r.sample_id"
                f" WHERE {where} AND (s.ordinal, r.suite, r.sample_id) > (?, ?, ?)"
                " ORDER BY s.ordinal, r.suite, r.sample_id LIMIT ?",
                [*params, *last, PAGE_ROWS],
            )
            yield from map(result_from_row, rows)
            if len(rows) < PAGE_ROWS:
                break
            last = (rows[-1]["ordinal"], rows[-1]["suite"], rows[-1]["sample_id"])
        orphans = self._read(
            f"SELECT r.* FROM results r WHERE {where} AND NOT EXISTS (SELECT 1 FROM samples s"
            " WHERE s.run_id = r.run_id AND s.sample_id = r.sample_id)"
            " ORDER BY r.suite, r.sample_id",
            params,
        )
        yield from map(result_from_row, orphans)

    def count_results(self, run_id: str, suite: str | None = None) -> int:
        """How many (sample, suite) results the run has saved."""
        extra, params = (
            (" AND suite = ?", (run_id, suite)) if suite is not None else ("", (run_id,))
        )
        return int(
            self._read(f"SELECT COUNT(*) FROM results WHERE run_id = ?{extra}", params)[0][0]
        )

    def lease_holder(self, run_id: str) -> lease.Holder | None:
        """The process holding the run's lease (None once the run has finished)."""
        with self._lock:
            return lease.holder(self._conn, run_id)

    def unscored_lacking_inputs(self, run_id: str) -> tuple[dict[str, int], int, int]:
        """(per missing-input reason, the samples with a value unscored for it; those
        samples; their values unscored for a missing input): the console's missing-input
        line. Read from the values, so a sample lacking an input no chosen metric needs
        (a reference, under --metrics trace) is not counted."""
        reasons = sorted(MISSING_INPUT)
        marks = ", ".join("?" * len(reasons))
        per = self._read(LACKING_SQL.format(reasons=marks, group="unscored_reason"),
                         (run_id, *reasons))
        total = self._read(LACKING_SQL.format(reasons=marks, group="run_id"), (run_id, *reasons))
        samples, values = (int(total[0][1]), int(total[0][2])) if total else (0, 0)
        return {str(r[0]): int(r[1]) for r in per}, samples, values

    def metric_values(
        self, run_id: str, metric: str
    ) -> list[tuple[str, str, float | None, str | None]]:
        """(sample_id, strategy, value or None, unscored reason or None) in sample order.

        Booleans come back as 1.0/0.0.
        """
        rows = self._read(
            "SELECT m.sample_id, m.strategy, m.value, m.unscored_reason FROM metric_values m"
            " LEFT JOIN samples s ON s.run_id = m.run_id AND s.sample_id = m.sample_id"
            " WHERE m.run_id = ? AND m.metric = ?"
            " ORDER BY s.ordinal IS NULL, s.ordinal, m.sample_id, m.suite",
            (run_id, metric),
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def metric_means(self, run_id: str) -> dict[str, float | None]:
        """Each metric's mean over its scored values (booleans as rates), in SQL, in the
        order the metrics were first stored: cheap figures for a list of runs."""
        rows = self._read("SELECT metric, AVG(value) FROM metric_values WHERE run_id = ?"
                          " GROUP BY metric ORDER BY MIN(rowid)", (run_id,))
        return {str(m): (None if v is None else float(v)) for m, v in rows}

    # -- calls and usage --------------------------------------------------------------

    def add_calls(self, calls: Sequence[CallRecord], *, run_id: str | None = None) -> None:
        """Append calls to the ledger (`run_id` fills in records that have none)."""
        by_run: dict[str | None, list[Any]] = {}
        for c in calls:
            by_run.setdefault(c.run_id or run_id, []).append(call_row(c))
        with self._write() as conn:
            for rid, rows in by_run.items():
                _insert_calls(conn, rid, rows, _now().isoformat())

    def iter_calls(self, run_id: str) -> Iterator[CallRecord]:
        """The run's calls in the order they were recorded."""
        for row in self._read("SELECT * FROM calls WHERE run_id = ? ORDER BY id", (run_id,)):
            yield CallRecord.model_validate({**dict(row), "cached": bool(row["cached"])})
