"""The run store's usage figures and judge cache, mixed into `Store` (one SQLite file)."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Literal

from ragassay.store.records import json_default
from ragassay.store.rows import RESULT_USAGE_SQL, USAGE_SQL
from ragassay.types import Usage


class LedgerMixin:
    """Reads of the call ledger and the cache; `Store` provides `_read` and `_write`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def call_outcomes(self, run_id: str) -> tuple[int, int]:
        """(calls that succeeded, calls that failed) in the run's ledger, cache hits
        counted as successes."""
        rows = self._read("SELECT SUM(status = 'ok'), SUM(status != 'ok') FROM calls "
                          "WHERE run_id = ?", (run_id,))
        ok, failed = rows[0][0] or 0, rows[0][1] or 0
        return int(ok), int(failed)

    def usage(
        self, run_id: str, *, source: Literal["results", "calls"] = "results",
        by: Literal["suite", "strategy"] = "suite",
    ) -> dict[str, Usage]:
        """Usage per suite (or per strategy) plus "total".

        "results" sums the Usage each saved SampleResult reports (the judge's own
        accounting). "calls" sums the ledger: `calls` counts uncached calls,
        `cache_hits` cached ones; tokens count uncached calls only; latency counts all.
        The ledger has no strategies: `by="strategy"` reads the results.
        """
        per_suite: dict[str, Usage] = defaultdict(Usage)
        if source == "results" or by == "strategy":  # summed by SQLite: no JSON in Python
            column = "suite" if by == "suite" else "strategy"
            for k, *sums, priced in self._read(RESULT_USAGE_SQL.format(column=column),
                                               (run_id,)):
                calls, tin, tout, hits, latency, tcached, cost = (x or 0 for x in sums)
                per_suite[k] = Usage(calls=calls, input_tokens=tin, output_tokens=tout,
                                     cache_hits=hits, latency_s=float(latency),
                                     cached_tokens=tcached,
                                     cost_usd=float(cost) if priced else None)
        else:
            rows = self._read(USAGE_SQL, (run_id,))
            for suite, calls, hits, tin, tout, latency, tcached in rows:
                per_suite[suite] = Usage(
                    calls=calls,
                    cache_hits=hits,
                    input_tokens=tin,
                    output_tokens=tout,
                    latency_s=latency,
                    cached_tokens=tcached,
                )
        out = dict(sorted(per_suite.items()))
        out["total"] = sum(out.values(), Usage())
        return out

    # -- cache ------------------------------------------------------------------------

    def cache_get(self, key: str) -> dict[str, Any] | None:
        """The cached value for `key`, or None."""
        rows = self._read("SELECT value FROM cache WHERE key = ?", (key,))
        if not rows:
            return None
        value = json.loads(rows[0]["value"])
        return value if isinstance(value, dict) else None

    def cache_put(self, key: str, value: dict[str, Any]) -> None:
        """Store (or replace) the value for `key`."""
        text = json.dumps(value, ensure_ascii=False, default=json_default)
        with self._write() as conn:
            conn.execute(
                "INSERT INTO cache (key, value, created) VALUES (?, ?, ?) ON CONFLICT (key)"
                " DO UPDATE SET value = excluded.value, created = excluded.created",
                (key, text, datetime.now(UTC).isoformat()),
            )

    def cache_clear(self) -> int:
        """Empty the judge cache; return how many entries were removed."""
        with self._write() as conn:
            return int(conn.execute("DELETE FROM cache").rowcount)
