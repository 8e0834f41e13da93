"""CSV export: one row per sample and metric."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import IO, Any

FIELDS = ("run_id", "sample_id", "strategy", "metric", "value", "unscored_reason")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: Any) -> Any:
    """Defuse spreadsheet formulas in user text (`=HYPERLINK(...)` in an id, say)."""
    if isinstance(text, str) and text.startswith(_FORMULA):
        return "'" + text
    return text


def csv_rows(report: dict[str, Any],
             details: Iterable[dict[str, Any]] | None = None) -> Iterator[dict[str, Any]]:
    """One row per sample and metric, from `details` (per-sample entries, e.g. streamed by
    `report.iter_details`) or else from the report's own "detailed_results"."""
    run_id = report["evaluation_metadata"]["run_id"]
    entries = details if details is not None else report.get("detailed_results", [])
    for entry in entries:
        if entry.get("status") == "failed":
            yield {"run_id": run_id, "sample_id": entry["id"], "strategy": entry["strategy"],
                   "metric": "", "value": "", "unscored_reason": entry.get("error", "invalid")}
            continue
        for metric, value in entry["metrics"].items():
            if isinstance(value, bool):
                value = int(value)
            yield {"run_id": run_id, "sample_id": entry["id"], "strategy": entry["strategy"],
                   "metric": metric, "value": "" if value is None else value,
                   "unscored_reason": entry["unscored"].get(metric, "")}


def write_csv(report: dict[str, Any], fh: IO[str],
              details: Iterable[dict[str, Any]] | None = None) -> None:
    """Write the CSV to an open text file, row by row."""
    writer = csv.DictWriter(fh, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: _cell(v) if k != "value" else v for k, v in row.items()}
                     for row in csv_rows(report, details))


def to_csv(report: dict[str, Any]) -> str:
    buf = io.StringIO()
    write_csv(report, buf)
    return buf.getvalue()
