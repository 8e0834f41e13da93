"""Monitor runs, mixed into `Store`: the ledger of accepted traces, the spans of those
not yet scored, and the drift tests' events (migration `m0011_monitor`).

Every trace a monitor accepts has a row in `monitor_traces` from the moment its first
span is stored (before the receiver answers 200), so none is ever lost silently: it is
`open` (waiting for its root span), `queued` (complete and sampled, its spans kept until
it is scored), `scored` (at a `position` of the scored stream, its spans dropped: the
run's sample and results hold it now), `unsampled` or `invalid` (counted, with a
reason). Settings and state are JSON the monitor package reads into its own types.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

TRACE_STATES = ("open", "queued", "scored", "unsampled", "invalid")
_CHUNK = 500  # ids per IN (...) query


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class MonitorRecord:
    """A monitor run's row: its name, settings and state (JSON, read by `monitor`)."""

    run_id: str
    name: str
    created: str
    settings: str
    state: str


@dataclass(frozen=True)
class PendingTrace:
    """A trace not yet scored, as a restart finds it: its state and stored spans."""

    trace_id: str
    state: str
    received: str
    spans: list[str]  # each span's JSON, as `accept_spans` stored it


@dataclass(frozen=True)
class Accepted:
    """What one `accept_spans` call stored: new spans, of how many new traces; spans
    already stored (a retried export) and spans of traces already complete (late)."""

    spans: int
    new_traces: list[str]
    duplicates: int
    late: int


class MonitorMixin:
    """Reads and writes of the monitor tables; `Store` provides the rest."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    # -- monitors ---------------------------------------------------------------------

    def create_monitor(self, run_id: str, name: str, settings: str) -> None:
        """Record that the run is a monitor named `name` with these settings (JSON)."""
        with self._write() as conn:
            conn.execute("INSERT INTO monitors (run_id, name, created, settings) VALUES"
                         " (?, ?, ?, ?)", (run_id, name, _now(), settings))

    def find_monitor(self, name: str) -> MonitorRecord | None:
        """The newest monitor of this name, or None."""
        rows = self._read("SELECT * FROM monitors WHERE name = ? ORDER BY created DESC,"
                          " rowid DESC LIMIT 1", (name,))
        return _monitor(rows[0]) if rows else None

    def get_monitor(self, run_id: str) -> MonitorRecord | None:
        """The run's monitor row, or None when the run is no monitor."""
        rows = self._read("SELECT * FROM monitors WHERE run_id = ?", (run_id,))
        return _monitor(rows[0]) if rows else None

    def save_monitor(self, run_id: str, *, settings: str | None = None,
                     state: str | None = None) -> None:
        """Replace the monitor's settings and/or state (JSON)."""
        with self._write() as conn:
            if settings is not None:
                conn.execute("UPDATE monitors SET settings = ? WHERE run_id = ?",
                             (settings, run_id))
            if state is not None:
                conn.execute("UPDATE monitors SET state = ? WHERE run_id = ?", (state, run_id))

    # -- traces -----------------------------------------------------------------------

    def accept_spans(self, run_id: str, spans: Sequence[tuple[str, str, str]],
                     state: str | None = None) -> Accepted:
        """Store (trace id, span id, span JSON)s in one transaction, each new trace
        entered `open`; a span of a trace already complete (queued or done) is late
        (counted, not stored). `state` (JSON) is saved in the same transaction (a file follower's
        offset), so that what was stored and where reading stopped agree."""
        now, stored, dup, late, new = _now(), 0, 0, 0, []
        with self._write() as conn:
            known: dict[str, str] = {}
            ids = sorted({t for t, _, _ in spans})
            for i in range(0, len(ids), _CHUNK):
                part = ids[i:i + _CHUNK]
                marks = ",".join("?" * len(part))
                for row in conn.execute(f"SELECT trace_id, state FROM monitor_traces WHERE"
                                        f" run_id = ? AND trace_id IN ({marks})",
                                        (run_id, *part)):
                    known[row[0]] = row[1]
            for trace_id, span_id, span in spans:
                if trace_id not in known:
                    conn.execute("INSERT INTO monitor_traces (run_id, trace_id, received,"
                                 " state) VALUES (?, ?, ?, 'open')", (run_id, trace_id, now))
                    known[trace_id] = "open"
                    new.append(trace_id)
                if known[trace_id] != "open":
                    late += 1
                    continue
                cur = conn.execute("INSERT OR IGNORE INTO monitor_spans (run_id, trace_id,"
                                   " span_id, span) VALUES (?, ?, ?, ?)",
                                   (run_id, trace_id, span_id, span))
                if cur.rowcount:
                    stored += 1
                else:
                    dup += 1
            if state is not None:
                conn.execute("UPDATE monitors SET state = ? WHERE run_id = ?", (state, run_id))
        return Accepted(stored, new, dup, late)

    def complete_traces(self, run_id: str, done: Iterable[tuple[str, str, str | None]]
                        ) -> None:
        """(trace id, new state, reason) in one transaction: `queued` keeps the spans
        (until scored); `unsampled` and `invalid` drop them."""
        now = _now()
        with self._write() as conn:
            for trace_id, state, reason in done:
                conn.execute("UPDATE monitor_traces SET state = ?, reason = ?, completed ="
                             " COALESCE(completed, ?) WHERE run_id = ? AND trace_id = ?",
                             (state, reason, now, run_id, trace_id))
                if state != "queued":
                    conn.execute("DELETE FROM monitor_spans WHERE run_id = ? AND trace_id"
                                 " = ?", (run_id, trace_id))

    def mark_scored(self, run_id: str, trace_ids: Sequence[str]) -> int:
        """Give the traces the next positions of the scored stream, in order, and drop
        their spans, in one transaction; returns the first position given."""
        with self._write() as conn:
            (first,) = conn.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM"
                                    " monitor_traces WHERE run_id = ? AND position IS NOT NULL",
                                    (run_id,)).fetchone()
            for i, trace_id in enumerate(trace_ids):
                conn.execute("UPDATE monitor_traces SET state = 'scored', position = ? WHERE"
                             " run_id = ? AND trace_id = ?", (first + i, run_id, trace_id))
                conn.execute("DELETE FROM monitor_spans WHERE run_id = ? AND trace_id = ?",
                             (run_id, trace_id))
        return int(first)

    def pending_traces(self, run_id: str) -> Iterator[PendingTrace]:
        """The traces open or queued, with their spans, oldest first (a restart's work)."""
        rows = self._read("SELECT trace_id, state, received FROM monitor_traces WHERE"
                          " run_id = ? AND state IN ('open', 'queued') ORDER BY received,"
                          " rowid", (run_id,))
        for i in range(0, len(rows), _CHUNK):
            part = rows[i:i + _CHUNK]
            marks = ",".join("?" * len(part))
            spans: dict[str, list[str]] = {}
            for s in self._read(f"SELECT trace_id, span FROM monitor_spans WHERE run_id = ?"
                                f" AND trace_id IN ({marks})",
                                (run_id, *(r[0] for r in part))):
                spans.setdefault(s[0], []).append(s[1])
            for r in part:
                yield PendingTrace(r[0], r[1], r[2], spans.get(r[0], []))

    def trace_counts(self, run_id: str) -> dict[str, int]:
        """How many accepted traces are in each state (every state named)."""
        rows = self._read("SELECT state, COUNT(*) FROM monitor_traces WHERE run_id = ?"
                          " GROUP BY state", (run_id,))
        found = {str(r[0]): int(r[1]) for r in rows}
        return {s: found.get(s, 0) for s in TRACE_STATES}

    def invalid_reasons(self, run_id: str, limit: int = 5) -> list[tuple[str, int]]:
        """The commonest reasons traces were invalid, with their counts."""
        rows = self._read("SELECT reason, COUNT(*) AS n FROM monitor_traces WHERE run_id = ?"
                          " AND state = 'invalid' GROUP BY reason ORDER BY n DESC LIMIT ?",
                          (run_id, limit))
        return [(str(r[0]), int(r[1])) for r in rows]

    def next_position(self, run_id: str) -> int:
        rows = self._read("SELECT COALESCE(MAX(position), -1) + 1 FROM monitor_traces"
                          " WHERE run_id = ? AND position IS NOT NULL", (run_id,))
        return int(rows[0][0])

    def position_values(self, run_id: str, metric: str, first: int, last: int
                        ) -> list[tuple[int, float | None]]:
        """(position, the metric's value or None) of the scored traces at positions
        first..last, in order (None: unscored, abstained or no value stored). `+m.metric`
        keeps SQLite on the values' primary key (run, sample): on the (run, metric) index
        each lookup would read every value of the metric (seconds per batch at 10^4)."""
        rows = self._read(
            "SELECT t.position, m.value FROM monitor_traces t LEFT JOIN metric_values m ON"
            " m.run_id = t.run_id AND m.sample_id = t.trace_id AND +m.metric = ? WHERE"
            " t.run_id = ? AND t.position BETWEEN ? AND ? ORDER BY t.position",
            (metric, run_id, first, last))
        return [(int(r[0]), None if r[1] is None else float(r[1])) for r in rows]

    def worst_traces(self, run_id: str, metric: str, first: int, last: int, *,
                     ascending: bool = True, limit: int = 5) -> list[tuple[str, int, float]]:
        """(trace id, position, value) of the lowest (or highest) scored values at
        positions first..last."""
        order = "ASC" if ascending else "DESC"
        rows = self._read(
            "SELECT t.trace_id, t.position, m.value FROM monitor_traces t JOIN metric_values"
            " m ON m.run_id = t.run_id AND m.sample_id = t.trace_id AND +m.metric = ? WHERE"
            " t.run_id = ? AND t.position BETWEEN ? AND ? AND m.value IS NOT NULL"
            f" ORDER BY m.value {order}, t.position LIMIT ?",
            (metric, run_id, first, last, limit))
        return [(str(r[0]), int(r[1]), float(r[2])) for r in rows]

    def traces_at(self, run_id: str, positions: Sequence[int]) -> dict[int, tuple[str, str]]:
        """position -> (trace id, when it completed) for the given positions."""
        out: dict[int, tuple[str, str]] = {}
        for i in range(0, len(positions), _CHUNK):
            part = list(positions[i:i + _CHUNK])
            marks = ",".join("?" * len(part))
            for r in self._read(f"SELECT position, trace_id, completed FROM monitor_traces"
                                f" WHERE run_id = ? AND position IN ({marks})",
                                (run_id, *part)):
                out[int(r[0])] = (str(r[1]), str(r[2] or ""))
        return out

    # -- events -----------------------------------------------------------------------

    def add_monitor_event(self, run_id: str, key: str, kind: str, metric: str | None,
                          event: dict[str, Any]) -> bool:
        """Store an event once per key; False when the key was already stored (a restart
        replaying its last windows finds the same events again)."""
        with self._write() as conn:
            cur = conn.execute("INSERT OR IGNORE INTO monitor_events (run_id, key, kind,"
                               " metric, created, event) VALUES (?, ?, ?, ?, ?, ?)",
                               (run_id, key, kind, metric, _now(),
                                json.dumps(event, ensure_ascii=False)))
            return bool(cur.rowcount)

    def monitor_events(self, run_id: str, kind: str | None = None
                       ) -> list[tuple[str, str, str | None, str, dict[str, Any]]]:
        """(key, kind, metric, created, event) of the run's events, oldest first."""
        where, params = "run_id = ?", [run_id]
        if kind is not None:
            where, params = where + " AND kind = ?", [run_id, kind]
        rows = self._read(f"SELECT key, kind, metric, created, event FROM monitor_events"
                          f" WHERE {where} ORDER BY created, rowid", params)
        return [(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    # -- retention --------------------------------------------------------------------

    def prune_monitor(self, run_id: str, before: str) -> int:
        """Delete the traces completed before `before` (ISO time) that are done with
        (scored, unsampled, invalid), with the samples, results, values and calls of the
        scored ones, and the window events stored before it; alarms are kept. Returns
        how many traces went."""
        with self._write() as conn:
            old = "SELECT trace_id FROM monitor_traces WHERE run_id = ?1 AND state = " \
                  "'scored' AND completed < ?2"
            for table in ("metric_values", "results", "calls", "samples"):
                conn.execute(f"DELETE FROM {table} WHERE run_id = ?1 AND sample_id IN ({old})",
                             (run_id, before))
            cur = conn.execute("DELETE FROM monitor_traces WHERE run_id = ? AND state IN"
                               " ('scored', 'unsampled', 'invalid') AND completed < ?",
                               (run_id, before))
            conn.execute("DELETE FROM monitor_events WHERE run_id = ? AND kind = 'window'"
                         " AND created < ?", (run_id, before))
            return int(cur.rowcount)


def _monitor(row: sqlite3.Row) -> MonitorRecord:
    return MonitorRecord(row["run_id"], row["name"], row["created"], row["settings"],
                         row["state"])
