"""CSV export: one row per sample and metric, the sample's metadata beside."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import IO, Any

from ragassay.files import defuse_cell
from ragassay.report.model import (
    FailedEntry,
    Report,
    SampleEntry,
    metadata_cells,
    metadata_columns,
)
from ragassay.report.people import label_names
from ragassay.types import LABEL_PREFIX

FIELDS = ("run_id", "sample_id", "strategy", "metric", "value", "unscored_reason",
          "abstained")
"""The CSV's first columns; the metadata columns follow them (`csv_fields`)."""


def csv_fields(report: Report) -> tuple[str, ...]:
    """The CSV's columns: FIELDS, then `metadata.<key>` per key of the samples' metadata
    (`Report.metadata_keys`, in the order they first appear), or one `metadata` column
    when there are more than METADATA_KEYS_MAX keys (`Report.metadata_json`), then
    `label.<name>` per label of the run (`label_names`)."""
    return (*FIELDS, *metadata_columns(report.table_keys()),
            *(LABEL_PREFIX + n for n in label_names(report)))


def csv_rows(report: Report, details: Iterable[SampleEntry | FailedEntry] | None = None
             ) -> Iterator[dict[str, Any]]:
    """One row per sample and metric (the CSV's `csv_fields`), from `details` (per-sample
    entries, e.g. streamed by `report.iter_details`) or else from the report's own. A
    yes/no verdict's value is 1 or 0, not `true`/`false` as a label cell says it (trial
    74 asked why): the `value` column holds every metric's values, and kept numeric a
    reader (pandas, a spreadsheet) takes its mean per metric, a verdict's rate, where a
    `true` among numbers turns the column into text. A value without a number says why:
    `unscored_reason`, its unscored reason, or else `abstained`, the outcome of an
    abstention ("correct", "false", "unknown"), which is not unscored (trial 69: declines
    read as unscored in the reason column). A metadata
    cell holds its value as JSON text (a string as itself; `true`, `3`, `["a"]`; the one
    `metadata` column the sample's object), None where the sample has no such key; a
    label cell likewise (`true`), blank where the sample has no such label."""
    run_id = report.run.run_id
    keys, labels = report.table_keys(), label_names(report)
    for entry in details if details is not None else report.entries:
        meta = {k: _text(v) for k, v in metadata_cells(entry, keys).items()}
        given = entry.labels if isinstance(entry, SampleEntry) else {}
        meta.update({LABEL_PREFIX + n: _text(given.get(n)) for n in labels})
        if isinstance(entry, FailedEntry):
            yield {"run_id": run_id, "sample_id": entry.id, "strategy": entry.strategy,
                   "metric": "", "value": "", "unscored_reason": entry.error,
                   "abstained": "", **meta}
            continue
        for metric, value in entry.metrics.items():
            abstained = (entry.abstained or {}).get(metric)
            yield {"run_id": run_id, "sample_id": entry.id, "strategy": entry.strategy,
                   "metric": metric,
                   "value": "" if value is None else int(value) if isinstance(value, bool)
                   else value,
                   "unscored_reason": "" if abstained else entry.unscored.get(metric) or "",
                   "abstained": abstained or "", **meta}


def _text(cell: Any) -> str | None:
    return cell if cell is None or isinstance(cell, str) else json.dumps(cell)


class _LineFeedRows:
    """Rows end in "\n", while the csv writer, told "\r\n", also quotes a cell holding
    a lone carriage return (told "\n" it would leave it bare and break the file)."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh

    def write(self, row: str) -> int:
        return self.fh.write(row[:-2] + "\n" if row.endswith("\r\n") else row)


def write_rows(fh: IO[str], fields: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> None:
    """CSV rows (a header, then a row per mapping; other keys ignored) to an open text
    file, every text cell defused for spreadsheets (`files.defuse_cell`): the one CSV
    writer of the report and of `labels export`."""
    writer = csv.DictWriter(_LineFeedRows(fh), fieldnames=list(fields), lineterminator="\r\n",
                            extrasaction="ignore")
    writer.writeheader()
    writer.writerows({k: defuse_cell(v) for k, v in row.items()} for row in rows)


def write_csv(report: Report, fh: IO[str],
              details: Iterable[SampleEntry | FailedEntry] | None = None) -> None:
    """Write the CSV to an open text file, row by row."""
    write_rows(fh, csv_fields(report), csv_rows(report, details))


def to_csv(report: Report) -> str:
    buf = io.StringIO()
    write_csv(report, buf)
    return buf.getvalue()
