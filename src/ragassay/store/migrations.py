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

from ragassay.store.models import StoreError

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
                "INSERT OR REPLACE INTO metric_values VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    sample_id,
                    suite,
                    item["name"],
                    strategy,
                    None if value is None else float(value),
                    item.get("unscored_reason"),
                ),
            )


def m0003_calls_cached_tokens(conn: sqlite3.Connection) -> None:
    """Each call records the input tokens the server served from its prompt cache."""
    conn.execute("ALTER TABLE calls ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Migration, ...] = (m0001_initial, m0002_metric_values,
                                     m0003_calls_cached_tokens)
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
