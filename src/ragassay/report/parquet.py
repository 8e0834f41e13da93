"""Parquet export: the CSV's rows (one per sample and metric) as a Parquet dataset.

A folder of `part-NNNNN.parquet` files with one schema (run_id, sample_id, strategy,
metric, value as float64 with booleans 1.0/0.0, unscored_reason: the unscored reason,
abstained: an abstention's outcome, "correct", "false" or "unknown"; nulls where the CSV
has blanks), then a string column
`metadata.<key>` per key of the samples' metadata (the CSV's cells: JSON text, a string
as itself; null where the sample has no such key; beyond METADATA_KEYS_MAX keys one
`metadata` column, each sample's metadata as JSON text), which pandas, Spark, DuckDB and
Ray Data read as one table. Rows stream from the store a row group at a time, so
memory stays flat however large the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import Any

from ragassay.files import atomic_write
from ragassay.report.csv import FIELDS, csv_fields, csv_rows
from ragassay.report.model import FailedEntry, Report, SampleEntry

ROWS_PER_GROUP = 50_000
GROUPS_PER_FILE = 10


def _schema(report: Report) -> Any:
    import pyarrow as pa

    return pa.schema([("run_id", pa.string()), ("sample_id", pa.string()),
                      ("strategy", pa.string()), ("metric", pa.string()),
                      ("value", pa.float64()), ("unscored_reason", pa.string()),
                      ("abstained", pa.string()),
                      *((name, pa.string()) for name in csv_fields(report)[len(FIELDS):])])


def _typed(rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for row in rows:
        value = row["value"]
        yield {**row, "metric": row["metric"] or None,
               "value": None if value == "" else float(value),
               "unscored_reason": row["unscored_reason"] or None,
               "abstained": row["abstained"] or None}


def _groups(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    return iter(lambda: list(islice(rows, size)), [])


def write_parquet(report: Report, folder: str | Path,
                  details: Iterable[SampleEntry | FailedEntry] | None = None, *,
                  rows_per_group: int = ROWS_PER_GROUP,
                  groups_per_file: int = GROUPS_PER_FILE) -> list[Path]:
    """Write the run's rows into `folder` (created) as part files, each written
    atomically; part files of an earlier export there are replaced. Returns the files."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    groups = _groups(_typed(csv_rows(report, details)), rows_per_group)
    schema = _schema(report)
    written: list[Path] = []
    for first in groups:
        written.append(out / f"part-{len(written):05d}.parquet")
        _write_file(written[-1], schema,
                    chain([first], islice(groups, groups_per_file - 1)))
    if not written:  # no rows: one empty part, so that readers see the schema
        written.append(out / "part-00000.parquet")
        _write_file(written[-1], schema, [])
    for stale in set(out.glob("part-*.parquet")) - set(written):
        stale.unlink()
    return written


def _write_file(path: Path, schema: Any, groups: Iterable[list[dict[str, Any]]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    with atomic_write(path, binary=True) as fh, pq.ParquetWriter(fh, schema) as writer:
        empty = True
        for group in groups:
            writer.write_table(pa.Table.from_pylist(group, schema=schema))
            empty = False
        if empty:
            writer.write_table(schema.empty_table())
