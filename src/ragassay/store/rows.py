"""Row conversions and the larger SQL statements of the run store."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from ragassay.store.models import CallRecord
from ragassay.types import MetricResult, SampleResult, Usage

LACKING_SQL = """
WITH lacking AS (
  SELECT sample_id FROM samples WHERE run_id = ? AND invalid = 0 AND (
    json_array_length(sample, '$.contexts') = 0
    OR trim(json_extract(sample, '$.answer')) = ''
    OR json_type(sample, '$.reference') IS NULL OR json_type(sample, '$.reference') = 'null'
    OR (json_type(sample, '$.reference') = 'text'
        AND trim(json_extract(sample, '$.reference')) = '')
    OR (json_type(sample, '$.reference') = 'array'
        AND json_array_length(sample, '$.reference') = 0)))
SELECT (SELECT COUNT(*) FROM lacking),
       (SELECT COUNT(*) FROM metric_values WHERE run_id = ? AND value IS NULL
        AND sample_id IN (SELECT sample_id FROM lacking))
"""
"""Samples lacking contexts, an answer or a reference, and their unscored values."""


USAGE_SQL = (
    "SELECT suite, SUM(cached = 0), SUM(cached != 0),"
    " SUM(CASE WHEN cached THEN 0 ELSE input_tokens END),"
    " SUM(CASE WHEN cached THEN 0 ELSE output_tokens END), SUM(latency_s)"
    " FROM calls WHERE run_id = ? GROUP BY suite"
)
"""The call ledger summed per suite (cached calls count as hits, their tokens not)."""


def result_from_row(row: sqlite3.Row) -> SampleResult:
    return SampleResult(
        sample_id=row["sample_id"],
        strategy=row["strategy"],
        suite=row["suite"],
        results=tuple(MetricResult.model_validate(m) for m in json.loads(row["results"])),
        reasoning=row["reasoning"],
        usage=Usage.model_validate_json(row["usage"]),
    )


def insert_calls(conn: sqlite3.Connection, calls: Sequence[CallRecord], created: str) -> None:
    conn.executemany(
        "INSERT INTO calls (run_id, sample_id, suite, prompt, cache_key, model, input_tokens,"
        " output_tokens, latency_s, cached, status, error, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                c.run_id,
                c.sample_id,
                c.suite,
                c.prompt,
                c.cache_key,
                c.model,
                c.input_tokens,
                c.output_tokens,
                c.latency_s,
                int(c.cached),
                c.status,
                c.error,
                created,
            )
            for c in calls
        ],
    )
