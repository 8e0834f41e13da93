"""Opening the SQLite connection: location checks, pragmas, migrations, clear errors."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import cast
from urllib.parse import quote

from ragassay.store import dialect
from ragassay.store.migrations import apply_migrations, pending
from ragassay.store.records import StoreError

MEMORY = ":memory:"


def _immutable(path: Path) -> str:
    """`&immutable=1` for a store on read-only media (its folder not writable, no WAL left
    to read): SQLite cannot create the shared-memory file a WAL database needs even to be
    read, so it is opened as a file nothing can change. Otherwise ""."""
    import os

    wal = path.with_name(path.name + "-wal")
    if os.access(path.parent, os.W_OK) or (wal.exists() and wal.stat().st_size > 0):
        return ""
    return "&immutable=1"


def open_postgres(url: str, label: str, *, readonly: bool = False) -> sqlite3.Connection:
    """Connect to and migrate the PostgreSQL store at `url` (`label`: its redacted
    form, for messages); read-only sessions refuse a database that needs migrating."""
    # a PgConnection has the sqlite3 connection's face (dialect)
    return _opened(lambda: cast(sqlite3.Connection, dialect.connect(url, readonly=readonly)),
                   label, readonly)


def _opened(connect: Callable[[], sqlite3.Connection], label: str, readonly: bool,
            prepare: Callable[[sqlite3.Connection], None] | None = None) -> sqlite3.Connection:
    """`connect()`, then `prepare` (pragmas), then migrated, or refused read-only when it
    needs migrating; the connection closed on any failure, a database error raised as one
    StoreError line. The one open sequence of both backends."""
    conn: sqlite3.Connection | None = None
    try:
        conn = connect()
        if prepare is not None:
            prepare(conn)
        if readonly:
            if pending(conn):
                raise StoreError(f"{label} needs a schema upgrade: open it once without read-only")
        else:
            apply_migrations(conn)
    except sqlite3.Error as e:
        if conn is not None:
            conn.close()
        raise StoreError(f"cannot open {label}: {e}") from e
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    return conn


def open_connection(
    label: str, *, readonly: bool = False, busy_timeout_s: float = 10.0
) -> sqlite3.Connection:
    """Open (creating the parent directory) and migrate the database at `label`.

    The connection is in autocommit mode (transactions are explicit), returns
    `sqlite3.Row`s, may be used from any thread (callers serialise), and has WAL,
    synchronous=NORMAL, foreign keys and a busy timeout. Read-only connections use a
    `mode=ro` URI (immutable on read-only media) and refuse a database that needs
    migrating. Raises StoreError.
    """
    path, memory = Path(label), label == MEMORY
    if readonly:
        if memory:
            raise StoreError("a read-only store needs a database file, not :memory:")
        if not path.is_file():
            raise StoreError(f"no database at {label}")
        target, uri = f"file:{quote(str(path.resolve()))}?mode=ro{_immutable(path)}", True
    else:
        if not memory:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create directory {path.parent}: {e.strerror or e}") from e
        target, uri = label, False

    def prepare(conn: sqlite3.Connection) -> None:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA synchronous = NORMAL")
        if not readonly and not memory:
            conn.execute("PRAGMA journal_mode = WAL")

    return _opened(lambda: sqlite3.connect(target, uri=uri, timeout=busy_timeout_s,
                                           isolation_level=None, check_same_thread=False),
                   label, readonly, prepare)
