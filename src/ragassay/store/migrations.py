"""Named schema migrations, applied once each, in order, each in its own transaction.

A migration is a plain function taking the connection; its name (the function's
`__name__`) is recorded in the `migrations` table when it has run. To change the
schema, append a new function to `MIGRATIONS`; never edit or reorder a released one.
Migrations must use `conn.execute` only (not `executescript`, which commits).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ragassay.store.data_fixes import (
    m0015_lost_hops_one_based,
    m0019_spec_verdicts,
    m0020_retrieval_rule_exemption,
    m0021_adherence_rule_exemption,
    m0022_abstention_basis_typed,
)
from ragassay.store.labels import m0018_labels_per_annotator
from ragassay.store.records import StoreError
from ragassay.store.routing import m0013_routing
from ragassay.store.typed_results import typed_result

Migration = Callable[[sqlite3.Connection], None]


def m0001_initial(conn: sqlite3.Connection) -> None:
    """Runs, their samples, per-suite results, the call ledger and the judge cache."""
    conn.execute(
        """CREATE TABLE runs (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            finished TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('running', 'complete', 'failed', 'interrupted')),
            config TEXT NOT NULL,
            package_version TEXT NOT NULL,
            dataset TEXT NOT NULL,
            dataset_hash TEXT,
            judge TEXT NOT NULL,
            judge_model TEXT NOT NULL,
            meta TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    conn.execute("CREATE INDEX runs_dataset_created ON runs (dataset, created)")
    conn.execute(
        """CREATE TABLE samples (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            sample_id TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            strategy TEXT NOT NULL,
            invalid INTEGER NOT NULL DEFAULT 0,
            sample TEXT NOT NULL,
            PRIMARY KEY (run_id, sample_id)
        )"""
    )
    conn.execute("CREATE INDEX samples_run_ordinal ON samples (run_id, ordinal)")
    conn.execute(
        """CREATE TABLE results (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            sample_id TEXT NOT NULL,
            suite TEXT NOT NULL,
            strategy TEXT NOT NULL,
            reasoning TEXT,
            usage TEXT NOT NULL,
            results TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (run_id, sample_id, suite)
        )"""
    )
    conn.execute(
        """CREATE TABLE calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT REFERENCES runs (id) ON DELETE CASCADE,
            sample_id TEXT NOT NULL,
            suite TEXT NOT NULL,
            prompt TEXT NOT NULL,
            cache_key TEXT,
            model TEXT NOT NULL,
            input_tokens INTEGER NOT NULL,
            output_tokens INTEGER NOT NULL,
            latency_s REAL NOT NULL,
            cached INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
            error TEXT,
            created TEXT NOT NULL
        )"""
    )
    conn.execute("CREATE INDEX calls_run ON calls (run_id, suite)")
    conn.execute(
        """CREATE TABLE cache (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL,
            created TEXT NOT NULL
        )"""
    )


def m0002_metric_values(conn: sqlite3.Connection) -> None:
    """One row per (sample, suite, metric) so that SQL can filter and aggregate by metric.

    Derived from `results.results`; existing results are backfilled. Booleans are
    stored as 1.0/0.0; an unscored metric has a NULL value and its reason.
    """
    conn.execute(
        """CREATE TABLE metric_values (
            run_id TEXT NOT NULL,
            sample_id TEXT NOT NULL,
            suite TEXT NOT NULL,
            metric TEXT NOT NULL,
            strategy TEXT NOT NULL,
            value REAL,
            unscored_reason TEXT,
            PRIMARY KEY (run_id, sample_id, suite, metric),
            FOREIGN KEY (run_id, sample_id, suite)
                REFERENCES results (run_id, sample_id, suite) ON DELETE CASCADE
        )"""
    )
    conn.execute("CREATE INDEX metric_values_run_metric ON metric_values (run_id, metric)")
    rows = conn.execute("SELECT run_id, sample_id, suite, strategy, results FROM results")
    for run_id, sample_id, suite, strategy, results in rows.fetchall():
        for item in json.loads(results):
            value = item.get("value")
            conn.execute(
                "INSERT INTO metric_values (run_id, sample_id, suite, metric, strategy, value,"
                " unscored_reason) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, sample_id,"
                " suite, metric) DO UPDATE SET value = excluded.value, unscored_reason ="
                " excluded.unscored_reason",
                (run_id, sample_id, suite, item["name"], strategy,
                 None if value is None else float(value), item.get("unscored_reason")))


_BACKEND_KEYS = frozenset({
    "api_key_env", "api_key_file", "timeout_s", "max_retries", "structured_output",
    "max_tokens", "extra_body", "backoff_base_s", "backoff_max_s", "retry_after_max_s",
    "increase_after"})


def typed_config(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A run config of before m0003 with its free-form `extra` moved onto the typed
    fields; returns (config, what had no typed home)."""
    config = dict(config)
    extra = dict(config.pop("extra", None) or {})
    config.pop("embedding_model", None)  # named what was not used; the run's meta says
    backend = extra.pop("backend", None) or {}
    config["backend"] = {k: v for k, v in backend.items() if k in _BACKEND_KEYS}
    if "n_questions" in extra:
        config["n_questions"] = extra.pop("n_questions")
    if "bench" in extra:
        extra.pop("bench")
        config["kind"] = "bench"
        config["strategies"] = list(extra.pop("strategies", []) or [])
    meta_eval = extra.pop("meta_eval", None)
    if isinstance(meta_eval, dict):
        config["kind"] = "meta-eval"
        config["split"], config["limit"] = meta_eval.get("split"), meta_eval.get("limit")
    left = {k: v for k, v in backend.items() if k not in _BACKEND_KEYS}
    if left:
        extra["backend"] = left
    return config, extra


def _legacy_embedders(config: dict[str, Any]) -> list[str]:
    """What runs of before m0003 embedded with: the offline judge always used the static
    MiniLM table; an LLM judge's ragas answer relevancy the MiniLM transformer."""
    if config.get("judge", "offline") in ("", "offline"):
        return ["offline judge: all-MiniLM-L6-v2-static"]
    if "ragas" in (config.get("metrics") or ()):
        return ["answer relevancy: all-MiniLM-L6-v2"]
    return []


def m0003_typed_config(conn: sqlite3.Connection) -> None:
    """`RunConfig.extra` became typed fields (backend options, n_questions, kind,
    strategies, split, limit); anything else it held moves to the run's meta."""
    rows = conn.execute("SELECT id, config, meta FROM runs").fetchall()
    for run_id, raw, meta in rows:
        config, left = typed_config(json.loads(raw))
        merged = json.loads(meta or "{}")
        if left:
            merged["legacy_extra"] = left
        merged.setdefault("embedders", _legacy_embedders(config))
        conn.execute("UPDATE runs SET config = ?, meta = ? WHERE id = ?",
                     (json.dumps(config, sort_keys=True), json.dumps(merged), run_id))


LEGACY_SPECS = Path(__file__).with_name("legacy_specs.json")


def m0004_run_specs(conn: sqlite3.Connection) -> None:
    """Each run stores the metric specs it was scored with. Runs from before this have the
    definitions of that time (frozen in legacy_specs.json), for their suites."""
    conn.execute("ALTER TABLE runs ADD COLUMN specs TEXT NOT NULL DEFAULT '[]'")
    legacy = json.loads(LEGACY_SPECS.read_text(encoding="utf-8"))
    for run_id, raw in conn.execute("SELECT id, config FROM runs").fetchall():
        suites = json.loads(raw).get("metrics") or []
        specs = [s for s in legacy if s["name"].split(".", 1)[0] in suites]
        conn.execute("UPDATE runs SET specs = ? WHERE id = ?", (json.dumps(specs), run_id))


def m0005_run_leases(conn: sqlite3.Connection) -> None:
    """Who is evaluating a run right now: one lease row per run, with the process id,
    the host, the process's start time (to tell a reused PID) and when it was taken.

    A run is created with its lease; `--resume` takes it over only from a process that
    is gone (same host, PID not running); finishing the run releases it.
    """
    conn.execute(
        """CREATE TABLE leases (
            run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE ON UPDATE CASCADE,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            proc_start TEXT,
            taken TEXT NOT NULL
        )"""
    )


def m0006_calls_cached_tokens(conn: sqlite3.Connection) -> None:
    """Each call records the input tokens the server served from its prompt (prefix)
    cache; calls recorded before this say 0 (not counted)."""
    conn.execute("ALTER TABLE calls ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0")


def m0007_human_labels(conn: sqlite3.Connection) -> None:
    """Human labels, keyed by the sample's content identity (`Sample.content_key`), so a
    label applies to every run that scored the same interaction; one current value per
    (content, label name). And each run's annotation plan: how its queue is drawn."""
    conn.execute(
        """CREATE TABLE labels (
            content_key TEXT NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            annotator TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            note TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            PRIMARY KEY (content_key, name)
        )"""
    )
    conn.execute(
        """CREATE TABLE annotation_plans (
            run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
            plan TEXT NOT NULL
        )"""
    )


def m0008_value_abstentions(conn: sqlite3.Connection) -> None:
    """Each stored value says whether it is an abstention ("correct", "false", "unknown":
    the answer declined; no value and no unscored reason), so that statistics read from
    the values table (`Store.iter_scores`) count abstentions apart from unscored values;
    values stored before this get it from their result's details."""
    conn.execute("ALTER TABLE metric_values ADD COLUMN abstention TEXT")
    backfill_abstentions(conn)


def backfill_abstentions(conn: sqlite3.Connection) -> None:
    """Each value without a number or an unscored reason takes its result's abstention."""
    conn.execute(
        "UPDATE metric_values SET abstention = (SELECT json_extract(j.value, '$.details."
        "abstention') FROM results r, json_each(r.results) j WHERE r.run_id ="
        " metric_values.run_id AND r.sample_id = metric_values.sample_id AND r.suite ="
        " metric_values.suite AND json_extract(j.value, '$.name') = metric_values.metric)"
        " WHERE value IS NULL AND unscored_reason IS NULL")
    conn.execute("UPDATE metric_values SET abstention = NULL WHERE abstention NOT IN"
                 " ('correct', 'false', 'unknown')")


LABEL_LINKS = Path(__file__).with_name("label_links.json")


def m0009_label_links(conn: sqlite3.Connection) -> None:
    """A metric's spec declares the human labels it is compared with (`MetricSpec.labels`);
    the specs of runs stored before this get the links of that time (frozen in
    label_links.json), which readers once found by the metrics' short names."""
    links = json.loads(LABEL_LINKS.read_text(encoding="utf-8"))
    for run_id, raw in conn.execute("SELECT id, specs FROM runs").fetchall():
        specs = json.loads(raw or "[]")
        changed = False
        for spec in specs:
            if isinstance(spec, dict) and "labels" not in spec and spec.get("name") in links:
                spec["labels"] = links[spec["name"]]
                changed = True
        if changed:
            conn.execute("UPDATE runs SET specs = ? WHERE id = ?", (json.dumps(specs), run_id))


def m0009_typed_results(conn: sqlite3.Connection) -> None:
    """What every reader used of a metric result moves from its free-form `details` onto
    typed fields (`MetricResult.abstention`, `suspicious`, `truncated`, `rating`, `marks`,
    `failure`: `store/typed_results.py`, frozen), and each result row says whether a judge
    reply held a verdict copied from the judged text (`results.suspicious`, which
    `Store.suspicious_replies` counts instead of searching the JSON)."""
    conn.execute("ALTER TABLE results ADD COLUMN suspicious INTEGER NOT NULL DEFAULT 0")
    rows = conn.execute("SELECT rowid, results FROM results").fetchall()
    for rowid, raw in rows:
        results = [typed_result(r) if isinstance(r, dict) else r for r in json.loads(raw)]
        suspicious = any(isinstance(r, dict) and r.get("suspicious") for r in results)
        conn.execute("UPDATE results SET results = ?, suspicious = ? WHERE rowid = ?",
                     (json.dumps(results, ensure_ascii=False), int(suspicious), rowid))


def m0010_batches(conn: sqlite3.Connection) -> None:
    """Provider batches (`ragassay eval --batch`): each batch a run submitted (`batches`:
    the provider's batch and file ids, its status and counts, written before the submit
    completes) and the calls each holds (`batch_calls`: custom id = the call's cache key,
    then its reply or error, tokens and cost at batch and at direct price); and the
    run's batch settings (`batch_runs`), so that a resume days later goes on the same way."""
    conn.execute(
        """CREATE TABLE batches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            provider TEXT NOT NULL,
            status TEXT NOT NULL,
            batch_id TEXT,
            input_file TEXT,
            output_file TEXT,
            error_file TEXT,
            requests INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            completed INTEGER NOT NULL DEFAULT 0,
            failed INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            done INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )"""
    )
    conn.execute("CREATE INDEX batches_run ON batches (run_id, status)")
    conn.execute(
        """CREATE TABLE batch_calls (
            batch INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
            run_id TEXT NOT NULL,
            custom_id TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('held', 'ok', 'error', 'lost')),
            reply TEXT,
            error TEXT,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cached_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL,
            direct_cost_usd REAL,
            PRIMARY KEY (batch, custom_id)
        )"""
    )
    conn.execute("CREATE INDEX batch_calls_key ON batch_calls (run_id, custom_id)")
    conn.execute(
        """CREATE TABLE batch_runs (
            run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
            options TEXT NOT NULL
        )"""
    )


def m0011_monitor(conn: sqlite3.Connection) -> None:
    """Monitor runs (`ragassay monitor`): their settings and state (`monitors`), every
    trace accepted with where it is (`monitor_traces`: open, queued for scoring, scored at
    a position of the scored stream, unsampled, invalid), the spans of the traces not yet
    scored (`monitor_spans`, so that a restart loses none), and what the drift tests found
    (`monitor_events`: windows, alarms, recoveries, one row per key)."""
    conn.execute(
        """CREATE TABLE monitors (
            run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            created TEXT NOT NULL,
            settings TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT '{}'
        )"""
    )
    conn.execute("CREATE INDEX monitors_name ON monitors (name, created)")
    conn.execute(
        """CREATE TABLE monitor_traces (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            trace_id TEXT NOT NULL,
            received TEXT NOT NULL,
            completed TEXT,
            state TEXT NOT NULL CHECK (state IN ('open', 'queued', 'scored', 'unsampled',
                                                 'invalid')),
            position INTEGER,
            reason TEXT,
            PRIMARY KEY (run_id, trace_id)
        )"""
    )
    conn.execute("CREATE UNIQUE INDEX monitor_traces_position ON monitor_traces"
                 " (run_id, position) WHERE position IS NOT NULL")
    conn.execute("CREATE INDEX monitor_traces_state ON monitor_traces (run_id, state)")
    conn.execute("CREATE INDEX monitor_traces_completed ON monitor_traces (run_id, completed)")
    conn.execute(
        """CREATE TABLE monitor_spans (
            run_id TEXT NOT NULL,
            trace_id TEXT NOT NULL,
            span_id TEXT NOT NULL,
            span TEXT NOT NULL,
            PRIMARY KEY (run_id, trace_id, span_id),
            FOREIGN KEY (run_id, trace_id) REFERENCES monitor_traces (run_id, trace_id)
                ON DELETE CASCADE
        )"""
    )
    conn.execute(
        """CREATE TABLE monitor_events (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            key TEXT NOT NULL,
            kind TEXT NOT NULL,
            metric TEXT,
            created TEXT NOT NULL,
            event TEXT NOT NULL,
            PRIMARY KEY (run_id, key)
        )"""
    )
    conn.execute("CREATE INDEX monitor_events_kind ON monitor_events (run_id, kind, created)")


MIGRATIONS: tuple[Migration, ...] = (m0001_initial, m0002_metric_values, m0003_typed_config,
                                     m0004_run_specs, m0005_run_leases, m0006_calls_cached_tokens,
                                     m0007_human_labels, m0008_value_abstentions,
                                     m0009_label_links, m0009_typed_results, m0010_batches,
                                     m0011_monitor, m0013_routing, m0015_lost_hops_one_based,
                                     m0018_labels_per_annotator, m0019_spec_verdicts,
                                     m0020_retrieval_rule_exemption,
                                     m0021_adherence_rule_exemption,
                                     m0022_abstention_basis_typed)
"""Every migration, in the order it must run."""


def _ensure_table(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )


def applied(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations already applied, in the order they were applied."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if not exists:
        return []
    return [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY rowid")]


def pending(
    conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS
) -> list[Migration]:
    """The migrations not yet applied, in order."""
    done = set(applied(conn))
    return [m for m in migrations if m.__name__ not in done]


def apply_migrations(
    conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS
) -> list[str]:
    """Apply each missing migration in its own transaction; return the names applied.

    `conn` must be in autocommit mode (`isolation_level=None`). A database that records
    migrations this code does not know was written by a newer ragassay: refused, so
    that an old version never writes into a schema it does not understand.
    """
    known = {m.__name__ for m in migrations}
    unknown = [n for n in applied(conn) if n not in known]
    if unknown:
        raise StoreError(
            f"database schema is newer than this ragassay (unknown migrations: "
            f"{', '.join(unknown)}); upgrade ragassay"
        )
    done: list[str] = []
    for migration in pending(conn, migrations):
        conn.execute("BEGIN IMMEDIATE")
        try:
            _ensure_table(conn)
            already = conn.execute(
                "SELECT 1 FROM migrations WHERE name = ?", (migration.__name__,)
            ).fetchone()
            if not already:
                migration(conn)
                conn.execute(
                    "INSERT INTO migrations (name, applied_at) VALUES (?, ?)",
                    (migration.__name__, datetime.now(UTC).isoformat()),
                )
                done.append(migration.__name__)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return done
