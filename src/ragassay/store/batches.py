"""Provider batches in the run store (`ragassay eval --batch`), mixed into `Store`.

What a batch run submitted is written before it is submitted: a batch's row and the
calls it holds (`add_batch`, status "preparing") before its file is uploaded, the file
id (`batch_uploaded`) before the batch is created, the provider's batch id
(`batch_update`) as soon as the create returns. A resume reads them back (`batches`)
and polls the same batches; a call held by a live batch is never submitted again.
A batch's replies are kept per call (`save_batch_lines`) with their tokens and their
cost at batch and at direct price (the ledger of what the batch cost); the calls a
finished batch did not answer are `lost` (`settle_batch`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

CallStatus = Literal["held", "ok", "error", "lost"]
LIVE = ("preparing", "uploaded", "validating", "in_progress", "finalizing", "cancelling")
"""Batch statuses that may still answer (ours before the submit, then the provider's)."""
ENDED = ("completed", "expired", "failed", "cancelled")
"""The provider's final statuses (its output and error files can then be read)."""


class BatchRecord(BaseModel):
    """One batch of a run as stored: ours (`id`) and the provider's (`batch_id`)."""

    model_config = ConfigDict(frozen=True)

    id: int
    run_id: str
    provider: str
    status: str
    batch_id: str | None = None
    input_file: str | None = None
    output_file: str | None = None
    error_file: str | None = None
    requests: int
    bytes: int
    completed: int = 0
    failed: int = 0
    error: str | None = None
    done: bool = False  # its outputs are read and its calls settled
    created: str
    updated: str

    @property
    def live(self) -> bool:
        """Not done: it may still answer, or its outputs are still to be read."""
        return not self.done and self.status != "abandoned"


class CallState(BaseModel):
    """One batch's outcome for one call: held, answered (`reply`: the response body's
    JSON), failed (`error`) or lost with its batch; `batch_status` the batch's."""

    model_config = ConfigDict(frozen=True)

    batch: int
    status: CallStatus
    reply: str | None = None
    error: str | None = None
    batch_status: str


class BatchLine(BaseModel):
    """One line of a batch's output or error file, as stored for its call."""

    model_config = ConfigDict(frozen=True)

    custom_id: str
    status: Literal["ok", "error"]
    reply: str | None = None
    error: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float | None = None
    direct_cost_usd: float | None = None


class BatchSummary(BaseModel):
    """What a run's batches held and cost: replies at batch price and what the same
    tokens cost with direct calls."""

    model_config = ConfigDict(frozen=True)

    batches: int = 0
    statuses: dict[str, int] = {}
    requests: int = 0
    answered: int = 0
    failed: int = 0
    waiting: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    direct_cost_usd: float | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat()


class BatchesMixin:
    """The run's provider batches; `Store` provides `_read`, `_write`, `_require_run`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _require_run(self, conn: sqlite3.Connection, run_id: str) -> sqlite3.Row:
        raise NotImplementedError

    # -- the run's settings -------------------------------------------------------------

    def set_batch_options(self, run_id: str, options_json: str) -> None:
        """Record how the run submits batches (the runner's options, as JSON)."""
        with self._write() as conn:
            self._require_run(conn, run_id)
            conn.execute("INSERT INTO batch_runs (run_id, options) VALUES (?, ?) ON CONFLICT"
                         " (run_id) DO UPDATE SET options = excluded.options",
                         (run_id, options_json))

    def batch_options(self, run_id: str) -> str | None:
        """The run's batch options as recorded (JSON), None for a run of direct calls."""
        rows = self._read("SELECT options FROM batch_runs WHERE run_id = ?", (run_id,))
        return str(rows[0]["options"]) if rows else None

    # -- batches --------------------------------------------------------------------------

    def add_batch(self, run_id: str, provider: str, custom_ids: Sequence[str],
                  size: int) -> int:
        """Record a batch about to be uploaded and the calls it holds, in one transaction;
        return its id (ours)."""
        now = _now()
        with self._write() as conn:
            self._require_run(conn, run_id)
            cur = conn.execute(
                "INSERT INTO batches (run_id, provider, status, requests, bytes, created,"
                " updated) VALUES (?, ?, 'preparing', ?, ?, ?, ?)",
                (run_id, provider, len(custom_ids), size, now, now))
            batch = int(cur.lastrowid or 0)
            conn.executemany("INSERT INTO batch_calls (batch, run_id, custom_id, status)"
                             " VALUES (?, ?, ?, 'held')",
                             [(batch, run_id, c) for c in custom_ids])
        return batch

    def batch_uploaded(self, batch: int, file_id: str) -> None:
        """The batch's input file is uploaded: its id, before the batch is created."""
        self._update(batch, {"status": "uploaded", "input_file": file_id})

    def batch_update(self, batch: int, *, status: str, batch_id: str | None = None,
                     completed: int | None = None, failed: int | None = None,
                     output_file: str | None = None, error_file: str | None = None,
                     error: str | None = None) -> None:
        """The provider's view of the batch (what is given; the rest is kept)."""
        given = {"status": status, "batch_id": batch_id, "completed": completed,
                 "failed": failed, "output_file": output_file, "error_file": error_file,
                 "error": error}
        self._update(batch, {k: v for k, v in given.items() if v is not None})

    def _update(self, batch: int, fields: dict[str, Any]) -> None:
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self._write() as conn:
            conn.execute(f"UPDATE batches SET {sets}, updated = ? WHERE id = ?",
                         (*fields.values(), _now(), batch))

    def abandon_batch(self, batch: int) -> None:
        """A batch that was never submitted (its process died before the create was
        sent): it holds no call any more."""
        with self._write() as conn:
            conn.execute("DELETE FROM batch_calls WHERE batch = ?", (batch,))
            conn.execute("UPDATE batches SET status = 'abandoned', done = 1, updated = ?"
                         " WHERE id = ?", (_now(), batch))

    def batches(self, run_id: str, *, live: bool = False) -> list[BatchRecord]:
        """The run's batches, oldest first (only those still live, with `live`)."""
        where = " AND done = 0 AND status != 'abandoned'" if live else ""
        rows = self._read(f"SELECT * FROM batches WHERE run_id = ?{where} ORDER BY id",
                          (run_id,))
        return [BatchRecord(**dict(r)) for r in rows]

    def runs_waiting_for_batch(self) -> set[str]:
        """Runs with a batch still live."""
        rows = self._read("SELECT DISTINCT run_id FROM batches WHERE done = 0"
                          " AND status != 'abandoned'")
        return {str(r[0]) for r in rows}

    # -- the calls ----------------------------------------------------------------------

    def save_batch_lines(self, batch: int, lines: Iterable[BatchLine]) -> int:
        """Store a batch's replies and errors on the calls it holds, in one transaction;
        return how many named no call of the batch (left out)."""
        unknown = 0
        with self._write() as conn:
            for line in lines:
                cur = conn.execute(
                    "UPDATE batch_calls SET status = ?, reply = ?, error = ?, input_tokens = ?,"
                    " output_tokens = ?, cached_tokens = ?, cost_usd = ?, direct_cost_usd = ?"
                    " WHERE batch = ? AND custom_id = ? AND status = 'held'",
                    (line.status, line.reply, line.error, line.input_tokens,
                     line.output_tokens, line.cached_tokens, line.cost_usd,
                     line.direct_cost_usd, batch, line.custom_id))
                unknown += cur.rowcount == 0
        return unknown

    def settle_batch(self, batch: int, reason: str) -> int:
        """The batch's outputs are read: the calls it did not answer are lost (`reason`);
        return how many."""
        with self._write() as conn:
            cur = conn.execute("UPDATE batch_calls SET status = 'lost', error = ? WHERE"
                               " batch = ? AND status = 'held'", (reason, batch))
            conn.execute("UPDATE batches SET done = 1, updated = ? WHERE id = ?",
                         (_now(), batch))
            return int(cur.rowcount)

    def call_states(self, run_id: str, custom_id: str) -> list[CallState]:
        """Every batch's outcome for one call of the run, oldest first."""
        rows = self._read(
            "SELECT c.batch, c.status, c.reply, c.error, b.status AS batch_status"
            " FROM batch_calls c JOIN batches b ON b.id = c.batch"
            " WHERE c.run_id = ? AND c.custom_id = ? ORDER BY c.batch", (run_id, custom_id))
        return [CallState(**dict(r)) for r in rows]

    def batch_call_ids(self, batch: int) -> list[str]:
        """The calls a batch holds (custom ids), in the order they were added."""
        rows = self._read("SELECT custom_id FROM batch_calls WHERE batch = ? ORDER BY rowid",
                          (batch,))
        return [str(r[0]) for r in rows]

    def batch_summary(self, run_id: str) -> BatchSummary | None:
        """What the run's batches held and cost; None for a run that submitted none."""
        batches = self.batches(run_id)
        submitted = [b for b in batches if b.status != "abandoned"]
        if not submitted:
            return None
        (held, ok, failed, tin, tout, cost, direct, priced), = self._read(
            "SELECT SUM(status = 'held'), SUM(status = 'ok'), SUM(status IN ('error', 'lost')),"
            " SUM(input_tokens), SUM(output_tokens), SUM(cost_usd), SUM(direct_cost_usd),"
            " COUNT(cost_usd) FROM batch_calls WHERE run_id = ?", (run_id,))
        statuses: dict[str, int] = {}
        for b in submitted:
            statuses[b.status] = statuses.get(b.status, 0) + 1
        return BatchSummary(
            batches=len(submitted), statuses=statuses,
            requests=sum(b.requests for b in submitted), answered=ok or 0,
            failed=failed or 0, waiting=held or 0, input_tokens=tin or 0,
            output_tokens=tout or 0, cost_usd=float(cost or 0) if priced else None,
            direct_cost_usd=float(direct or 0) if priced else None)
