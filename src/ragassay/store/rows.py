"""Row conversions and the larger SQL statements of the run store."""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ragassay.store.records import CallRecord, RunRecord, StoreError, json_default
from ragassay.types import MetricResult, MetricSpec, RunConfig, RunMeta, SampleResult, Usage

CallRow = tuple[str, str, str, str | None, str, int, int, float, int, str, str | None, int]
"""A call as `insert_calls` writes it, without run id and time: sample, suite, prompt,
cache key, model, input and output tokens, latency, cached (0/1), status, error, input
tokens served from the server's prompt cache."""

LACKING_SQL = """
SELECT MIN(unscored_reason), COUNT(DISTINCT sample_id), COUNT(*) FROM metric_values
WHERE run_id = ? AND value IS NULL AND unscored_reason IN ({reasons})
GROUP BY {group}
"""
"""Metric values unscored because their sample lacks an input (types.MISSING_INPUT): per
reason ({group} = unscored_reason) or in all ({group} = run_id), their samples and
their count."""


FAILED_SQL = """
SELECT DISTINCT sample_id, suite FROM metric_values
WHERE run_id = ? AND value IS NULL AND unscored_reason IS NOT NULL AND ({cond})
"""
"""(sample, suite) judgments with a value unscored for a reason matching {cond}."""


USAGE_SQL = (
    "SELECT suite, SUM(CASE WHEN cached = 0 THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN cached != 0 THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN cached != 0 THEN 0 ELSE input_tokens END),"
    " SUM(CASE WHEN cached != 0 THEN 0 ELSE output_tokens END), SUM(latency_s),"
    " SUM(CASE WHEN cached != 0 THEN 0 ELSE cached_tokens END)"
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


def read_config(raw: str, run_id: str) -> tuple[RunConfig, tuple[str, ...]]:
    """A stored run config, and the fields of it this version does not know (a newer
    ragassay wrote them): left out, so that the run can still be read. Any other
    mismatch is a one-line StoreError."""
    try:
        return RunConfig.model_validate_json(raw), ()
    except ValidationError as exc:
        errors = exc.errors()
    unknown = [e["loc"] for e in errors if e["type"] == "extra_forbidden"]
    data = json.loads(raw)
    if unknown and isinstance(data, dict):
        for loc in unknown:
            node: Any = data
            for key in loc[:-1]:
                node = node[key]
            node.pop(loc[-1], None)
        try:
            return RunConfig.model_validate(data), tuple(".".join(map(str, loc))
                                                         for loc in unknown)
        except ValidationError as again:
            errors = again.errors()
    first = errors[0]
    where = ".".join(map(str, first["loc"])) or "config"
    raise StoreError(f"run {run_id}: its stored config cannot be read by this version of "
                     f"ragassay ({where}: {first['msg']})")


def run_from_row(row: sqlite3.Row) -> RunRecord:
    config, unknown = read_config(row["config"], row["id"])
    return RunRecord(
        id=row["id"], created=row["created"], finished=row["finished"], status=row["status"],
        config=config, package_version=row["package_version"], dataset=row["dataset"],
        dataset_hash=row["dataset_hash"], judge=row["judge"], judge_model=row["judge_model"],
        meta=RunMeta.read(json.loads(row["meta"])),
        specs=tuple(MetricSpec.model_validate(d) for d in json.loads(row["specs"])),
        unknown_config=unknown,
    )


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
    # (metric, value, unscored reason, abstention outcome)
    values: tuple[tuple[str, float | None, str | None, str | None], ...]
    calls: tuple[CallRow, ...] = ()
    suspicious: bool = False  # a judge reply held a verdict copied from the judged text


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
        results_json="[" + ",".join(m.model_dump_json(exclude_defaults=True)
                                    for m in result.results) + "]",
        values=tuple((m.name, None if m.value is None else float(m.value), m.unscored_reason,
                      m.abstention)
                     for m in result.results),
        calls=tuple(call_row(c) for c in calls),
        suspicious=any(m.suspicious for m in result.results),
    )


def cache_row(key: str, value: dict[str, Any]) -> tuple[str, str]:
    """A cache entry as the store writes it: (key, value JSON)."""
    return key, json.dumps(value, ensure_ascii=False, default=json_default)
