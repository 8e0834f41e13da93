"""Run leases: which process is evaluating a run, so that two never pay for it twice.

A lease row (`leases`: run id, PID, host, the process's start time, when taken) is
written with the run and taken again by a resume. A lease held by a live process
makes a second resume fail with `RunBusy`, naming the holder. A lease is stale, and
taken over, when its holder ran on this host and is gone: no such PID, or the PID now
belongs to a process that started at another time (a reused PID). A lease of another
host cannot be checked from here and is never taken over.

On PostgreSQL the holder also holds a session-level advisory lock on the run
(`dialect.PgConnection.hold`), which the server drops when the holder's connection ends:
there a lease is stale when its lock is free, whatever host took it, so a run left
by a machine that died is resumed from another one, and a live holder on any machine
is never taken over.
"""

from __future__ import annotations

import os
import socket
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from ragassay.store.records import StoreError


class RunBusy(StoreError):
    """Another live process holds the run's lease."""


@dataclass(frozen=True)
class Holder:
    pid: int
    host: str
    proc_start: str | None

    def describe(self) -> str:
        return f"PID {self.pid} on {self.host}"


def _proc_start(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), else None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None  # field 22 of stat(5)


def this_process() -> Holder:
    pid = os.getpid()
    return Holder(pid=pid, host=socket.gethostname(), proc_start=_proc_start(pid))


def _alive(holder: Holder) -> bool:
    """Whether the holder (on this host) still runs."""
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    if holder.proc_start is not None:
        now = _proc_start(holder.pid)
        if now is not None and now != holder.proc_start:
            return False  # the PID was reused by a later process
    return True


def check_free(conn: sqlite3.Connection, run_id: str, then: str = "resume") -> None:
    """RunBusy when another live process (or one of another host) holds the run's lease;
    the message ends with what to do `then`."""
    me = this_process()
    row = conn.execute("SELECT pid, host, proc_start, taken FROM leases WHERE run_id = ?",
                       (run_id,)).fetchone()
    hold = getattr(conn, "hold", None)  # PostgreSQL: the lease's session lock
    locked = hold(run_id) if hold is not None else False
    if row is not None:
        holder = Holder(pid=row["pid"], host=row["host"], proc_start=row["proc_start"])
        mine = holder.host == me.host and holder.pid == me.pid
        # PostgreSQL: alive while its session holds the lock; SQLite: checked on this host
        alive = (not locked) if hold is not None else \
            (holder.host != me.host or _alive(holder))
        if not mine and alive:
            raise RunBusy(f"run {run_id} is being evaluated by {holder.describe()} (since "
                          f"{row['taken'][:19].replace('T', ' ')} UTC); wait for it to "
                          f"finish or stop it, then {then}")


def take(conn: sqlite3.Connection, run_id: str) -> None:
    """Take the run's lease inside the caller's write transaction, or raise RunBusy."""
    me = this_process()
    check_free(conn, run_id)
    conn.execute(
        "INSERT INTO leases (run_id, pid, host, proc_start, taken) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (run_id) DO UPDATE SET pid = excluded.pid, host = excluded.host,"
        " proc_start = excluded.proc_start, taken = excluded.taken",
        (run_id, me.pid, me.host, me.proc_start, datetime.now(UTC).isoformat()),
    )


def release(conn: sqlite3.Connection, run_id: str) -> None:
    """Drop the run's lease if this process holds it (inside the caller's transaction)."""
    me = this_process()
    conn.execute("DELETE FROM leases WHERE run_id = ? AND pid = ? AND host = ?",
                 (run_id, me.pid, me.host))
    let_go = getattr(conn, "let_go", None)
    if let_go is not None:
        let_go(run_id)


def holder(conn: sqlite3.Connection, run_id: str) -> Holder | None:
    row = conn.execute("SELECT pid, host, proc_start FROM leases WHERE run_id = ?",
                       (run_id,)).fetchone()
    return None if row is None else Holder(row["pid"], row["host"], row["proc_start"])
