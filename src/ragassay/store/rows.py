"""Row conversions and the larger SQL statements of the run store."""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ragassay.store.models import CallRecord, json_default
from ragassay.types import MetricResult, SampleResult, Usage

CallRow = tuple[str, str, str, str | None, str, int, int, float, int, str, str | None, int]
"""A call as `insert_calls` writes it, without run id and time: sample, suite, prompt,
cache key, model, input and output tokens, latency, cached (0/1), status, error, input
tokens served from the server's prompt cache."""

LACKING_SQL = """
SELECT unscored_reason, COUNT(DISTINCT sample_id), COUNT(*) FROM metric_values
WHERE run_id = ? AND value IS NULL AND unscored_reason IN ({reasons})
GROUP BY {group}
"""
"""Metric values unscored because their sample lacks an input (types.MISSING_INPUT): per
reason ({group} = unscored_reason) or in all ({group} = run_id), their samples and
their count."""


USAGE_SQL = (
    "SELECT suite, SUM(cached = 0), SUM(cached != 0),"
    " SUM(CASE WHEN cached THEN 0 ELSE input_tokens END),"
    " SUM(CASE WHEN cached THEN 0 ELSE output_tokens END), SUM(latency_s),"
    " SUM(CASE WHEN cached THEN 0 ELSE cached_tokens END)"
    " FROM calls WHERE run_id = ? GROUP BY suite"
)
"""The call ledger summed per suite (cached calls count as hits, their tokens not)."""

RESULT_USAGE_SQL = (
    "SELECT {column}, " + ", ".join(
        f"SUM(json_extract(usage, '$.{f}'))" for f in (
            "calls", "input_tokens", "output_tokens", "cache_hits", "latency_s",
            "cached_tokens", "cost_usd"))
    + ", COUNT(json_extract(usage, '$.cost_usd')) FROM results WHERE run_id = ?"
    " GROUP BY {column}"
)
"""The usage each result reports, summed per suite or strategy (`cost_usd` counts the
priced results: none priced is None, not 0)."""


def result_from_row(row: sqlite3.Row) -> SampleResult:
    return SampleResult(
        sample_id=row["sample_id"],
        strategy=row["strategy"],
        suite=row["suite"],
        results=tuple(MetricResult.model_validate(m) for m in json.loads(row["results"])),
        reasoning=row["reasoning"],
        usage=Usage.model_validate_json(row["usage"]),
    )


def call_row(c: CallRecord) -> CallRow:
    return (c.sample_id, c.suite, c.prompt, c.cache_key, c.model, c.input_tokens,
            c.output_tokens, c.latency_s, int(c.cached), c.status, c.error, c.cached_tokens)


def insert_calls(conn: sqlite3.Connection, run_id: str | None, calls: Sequence[CallRow],
                 created: str) -> None:
    conn.executemany(
        "INSERT INTO calls (run_id, sample_id, suite, prompt, cache_key, model, input_tokens,"
        " output_tokens, latency_s, cached, status, error, cached_tokens, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(run_id, *c, created) for c in calls],
    )


@dataclass(frozen=True)
class PreparedResult:
    """One (sample, suite) judgment serialised for the store, checked, in plain values.

    Made by `prepare_result` wherever the judgment was made (a Ray worker prepares its
    batch, so the driver only writes rows); written by `Store.save_results`.
    """

    sample_id: str
    suite: str
    strategy: str
    reasoning: str | None
    usage_json: str
    results_json: str
    values: tuple[tuple[str, float | None, str | None], ...]  # (metric, value, reason)
    calls: tuple[CallRow, ...] = ()


def prepare_result(result: SampleResult, calls: Sequence[CallRecord] = ()) -> PreparedResult:
    """Check and serialise a judgment: ValueError for duplicate metric names, or a NaN or
    infinite value (unscored is value None plus a reason)."""
    names = [m.name for m in result.results]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate metric names in result for {result.sample_id!r}")
    for m in result.results:
        if isinstance(m.value, float) and not math.isfinite(m.value):
            raise ValueError(
                f"{m.name} = {m.value} for {result.sample_id!r}: an unscored metric"
                " must be value None with an unscored_reason"
            )
    return PreparedResult(
        sample_id=result.sample_id, suite=result.suite, strategy=result.strategy,
        reasoning=result.reasoning, usage_json=result.usage.model_dump_json(),
        results_json="[" + ",".join(m.model_dump_json() for m in result.results) + "]",
        values=tuple((m.name, None if m.value is None else float(m.value), m.unscored_reason)
                     for m in result.results),
        calls=tuple(call_row(c) for c in calls),
    )


def cache_row(key: str, value: dict[str, Any]) -> tuple[str, str]:
    """A cache entry as the store writes it: (key, value JSON)."""
    return key, json.dumps(value, ensure_ascii=False, default=json_default)
