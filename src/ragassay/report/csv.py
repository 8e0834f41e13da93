"""CSV export: one row per sample and metric."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ragassay.report.model import FailedEntry, Report, SampleEntry

FIELDS = ("run_id", "sample_id", "strategy", "metric", "value", "unscored_reason")
# What a spreadsheet may read as the start of a formula, after the blanks it skips:
# = + - @ and their full-width forms (＝ ＋ － ＠, which some spreadsheets normalise).
_FORMULA = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
_LEADING = " \t\r\n\u3000\u00a0"  # blanks a spreadsheet may skip before a formula


def _cell(text: Any) -> Any:
    """Defuse spreadsheet formulas in user text (`=HYPERLINK(...)` in an id, say), also
    behind leading spaces, tabs or line breaks and in their full-width forms."""
    if isinstance(text, str) and text and (text[0] in "\t\r\n"
                                           or text.lstrip(_LEADING).startswith(_FORMULA)):
        return "'" + text
    return text


def csv_rows(report: Report, details: Iterable[SampleEntry | FailedEntry] | None = None
             ) -> Iterator[dict[str, Any]]:
    """One row per sample and metric (the CSV's FIELDS), from `details` (per-sample
    entries, e.g. streamed by `report.iter_details`) or else from the report's own. A
    value without a number says why in `unscored_reason`: its unscored reason, or
    "abstained (correct)" / "(false)" / "(unknown)" (`SampleEntry.reason`)."""
    run_id = report.run.run_id
    for entry in details if details is not None else report.entries:
        if isinstance(entry, FailedEntry):
            yield {"run_id": run_id, "sample_id": entry.id, "strategy": entry.strategy,
                   "metric": "", "value": "", "unscored_reason": entry.error}
            continue
        for metric, value in entry.metrics.items():
            yield {"run_id": run_id, "sample_id": entry.id, "strategy": entry.strategy,
                   "metric": metric,
                   "value": "" if value is None else int(value) if isinstance(value, bool)
                   else value,
                   "unscored_reason": entry.reason(metric) or ""}


class _LineFeedRows:
    """Rows end in "\n", while the csv writer, told "\r\n", also quotes a cell holding
    a lone carriage return (told "\n" it would leave it bare and break the file)."""

    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh

    def write(self, row: str) -> int:
        return self.fh.write(row[:-2] + "\n" if row.endswith("\r\n") else row)


def write_csv(report: Report, fh: IO[str],
              details: Iterable[SampleEntry | FailedEntry] | None = None) -> None:
    """Write the CSV to an open text file, row by row."""
    writer = csv.DictWriter(_LineFeedRows(fh), fieldnames=FIELDS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: _cell(v) if k != "value" else v for k, v in row.items()}
                     for row in csv_rows(report, details))


def to_csv(report: Report) -> str:
    buf = io.StringIO()
    write_csv(report, buf)
    return buf.getvalue()
