"""A routed run's tier verdicts, per-sample routing and summary, mixed into `Store`.

Each tier's verdicts are kept per (tier, sample, suite) in `tier_results`, so that a
resumed cascade judges only what a tier has not judged and `ragassay route` re-decides
without a call; `results` holds the routed verdicts (what every report reads), written
with the per-sample routing and the summary in one transaction (`save_routing`). Their
schema is `m0013_routing` (in `migrations.MIGRATIONS` by its number).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from ragassay.store import lease
from ragassay.store.rows import PreparedResult, insert_calls, result_from_row
from ragassay.types import (
    MISSING_INPUT,
    TRANSPORT_FAILURES,
    RoutingPlan,
    RoutingSummary,
    SampleResult,
    SampleRouting,
    Usage,
)


def m0013_routing(conn: sqlite3.Connection) -> None:
    """Judge routing (a cascade of judge tiers, or a jury): each tier's verdicts per
    (sample, suite) (`tier_results`, as `results` holds them), which tier decided each
    sample with each tier's confidence (`routed_samples`; tier NULL: left for a person),
    and the run's routing summary (`routings`). `results` keeps the routed verdicts."""
    conn.execute(
        """CREATE TABLE tier_results (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            tier INTEGER NOT NULL,
            sample_id TEXT NOT NULL,
            suite TEXT NOT NULL,
            strategy TEXT NOT NULL,
            reasoning TEXT,
            usage TEXT NOT NULL,
            results TEXT NOT NULL,
            created TEXT NOT NULL,
            PRIMARY KEY (run_id, tier, sample_id, suite)
        )"""
    )
    conn.execute(
        """CREATE TABLE routed_samples (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            sample_id TEXT NOT NULL,
            tier INTEGER,
            judge TEXT,
            confidences TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (run_id, sample_id)
        )"""
    )
    conn.execute(
        """CREATE TABLE routings (
            run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
            summary TEXT NOT NULL
        )"""
    )

class RoutingMixin:
    """Tier verdicts and routing; `Store` provides `_read`, `_write`, `_require_run` and
    `_write_results`."""

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def _require_run(self, conn: sqlite3.Connection, run_id: str) -> sqlite3.Row:
        raise NotImplementedError

    def _write_results(self, conn: sqlite3.Connection, run_id: str,
                       results: Sequence[PreparedResult], now: str) -> None:
        raise NotImplementedError

    def save_tier_results(self, run_id: str, tier: int,
                          results: Sequence[PreparedResult]) -> None:
        """One tier's (sample, suite) verdicts and their calls, in one transaction
        (idempotent per (tier, sample, suite))."""
        now = datetime.now(UTC).isoformat()
        with self._write() as conn:
            self._require_run(conn, run_id)
            conn.executemany(
                "INSERT OR REPLACE INTO tier_results (run_id, tier, sample_id, suite, strategy,"
                " reasoning, usage, results, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(run_id, tier, r.sample_id, r.suite, r.strategy, r.reasoning, r.usage_json,
                  r.results_json, now) for r in results])
            insert_calls(conn, run_id, [c for r in results for c in r.calls], now)

    def tier_keys(self, run_id: str, tier: int) -> set[tuple[str, str]]:
        """(sample_id, suite) verdicts the tier has given in the run."""
        rows = self._read("SELECT sample_id, suite FROM tier_results WHERE run_id = ? AND "
                          "tier = ?", (run_id, tier))
        return {(r["sample_id"], r["suite"]) for r in rows}

    def tier_failed_keys(self, run_id: str, tier: int, retry: str | None
                         ) -> set[tuple[str, str]]:
        """(sample_id, suite) verdicts of the tier unscored by a failed judge call, as
        `failed_keys` says for a run's results: "transport" (the endpoint's failures),
        "all" (any reason but a missing input), None (none)."""
        if retry == "transport":
            params: tuple[str, ...] = TRANSPORT_FAILURES
            cond = " OR ".join(["reason GLOB ?"] * len(params))
        elif retry == "all":
            params = tuple(sorted(MISSING_INPUT))
            cond = f"reason NOT IN ({', '.join('?' * len(params))})"
        else:
            return set()
        rows = self._read(
            "SELECT DISTINCT sample_id, suite FROM (SELECT t.sample_id, t.suite, "
            "json_extract(j.value, '$.unscored_reason') AS reason, "
            "json_extract(j.value, '$.value') AS value FROM tier_results t, "
            "json_each(t.results) j WHERE t.run_id = ? AND t.tier = ?) "
            f"WHERE value IS NULL AND reason IS NOT NULL AND ({cond})",
            (run_id, tier, *params))
        return {(r["sample_id"], r["suite"]) for r in rows}

    def iter_tier_results(self, run_id: str, suite: str | None = None
                          ) -> Iterator[tuple[int, SampleResult]]:
        """(tier, verdict) of every tier verdict of the run (of one suite, if given)."""
        where, params = ("run_id = ?", (run_id,)) if suite is None else (
            "run_id = ? AND suite = ?", (run_id, suite))
        rows = self._read(f"SELECT * FROM tier_results WHERE {where} ORDER BY tier, "
                          "sample_id, suite", params)
        for r in rows:
            yield int(r["tier"]), result_from_row(r)

    def tier_usage(self, run_id: str) -> dict[int, tuple[int, Usage]]:
        """Per tier: the samples it judged and the usage its verdicts report (summed by
        SQLite; cost None when no verdict of the tier was priced)."""
        rows = self._read(
            "SELECT tier, COUNT(DISTINCT sample_id), " + ", ".join(
                f"SUM(json_extract(usage, '$.{f}'))" for f in (
                    "calls", "input_tokens", "output_tokens", "cache_hits", "latency_s",
                    "cached_tokens", "cost_usd"))
            + ", COUNT(json_extract(usage, '$.cost_usd')) FROM tier_results WHERE run_id = ?"
            " GROUP BY tier", (run_id,))
        out: dict[int, tuple[int, Usage]] = {}
        for tier, samples, *sums, priced in rows:
            calls, tin, tout, hits, latency, tcached, cost = (x or 0 for x in sums)
            out[int(tier)] = (int(samples), Usage(
                calls=calls, input_tokens=tin, output_tokens=tout, cache_hits=hits,
                latency_s=float(latency), cached_tokens=tcached,
                cost_usd=float(cost) if priced else None))
        return out

    def save_routing(self, run_id: str, summary: RoutingSummary,
                     routed: Mapping[str, SampleRouting], results: Sequence[PreparedResult],
                     plan: RoutingPlan | None = None) -> None:
        """The routed verdicts (into `results`), each sample's routing and the summary,
        in one transaction: a re-routing replaces the earlier one whole; with `plan`
        (re-routed with new settings) the run's config records it."""
        now = datetime.now(UTC).isoformat()
        with self._write() as conn:
            row = self._require_run(conn, run_id)
            # refused (RunBusy) while another live process evaluates the run
            held, me = lease.holder(conn, run_id), lease.this_process()
            lease.take(conn, run_id)
            if held is None or (held.pid, held.host) != (me.pid, me.host):
                lease.release(conn, run_id)
            if plan is not None:
                config = json.loads(row["config"])
                config["routing"] = plan.model_dump(mode="json")
                conn.execute("UPDATE runs SET config = ? WHERE id = ?",
                             (json.dumps(config), run_id))
            self._write_results(conn, run_id, results, now)
            conn.execute("DELETE FROM routed_samples WHERE run_id = ?", (run_id,))
            conn.executemany(
                "INSERT INTO routed_samples (run_id, sample_id, tier, judge, confidences)"
                " VALUES (?, ?, ?, ?, ?)",
                [(run_id, sid, r.tier, r.judge, json.dumps(list(r.confidences)))
                 for sid, r in routed.items()])
            conn.execute("INSERT OR REPLACE INTO routings (run_id, summary) VALUES (?, ?)",
                         (run_id, summary.model_dump_json()))

    def get_routing(self, run_id: str) -> RoutingSummary | None:
        """The run's routing summary (None: not a routed run, or not routed yet)."""
        rows = self._read("SELECT summary FROM routings WHERE run_id = ?", (run_id,))
        return RoutingSummary.model_validate_json(rows[0][0]) if rows else None

    def routed_samples(self, run_id: str, sample_ids: Sequence[str] | None = None
                       ) -> dict[str, SampleRouting]:
        """Which tier decided each sample (of `sample_ids`, if given)."""
        rows = self._read("SELECT sample_id, tier, judge, confidences FROM routed_samples "
                          "WHERE run_id = ?", (run_id,))
        wanted = None if sample_ids is None else set(sample_ids)
        return {r["sample_id"]: SampleRouting(tier=r["tier"], judge=r["judge"],
                                              confidences=tuple(json.loads(r["confidences"])))
                for r in rows if wanted is None or r["sample_id"] in wanted}
