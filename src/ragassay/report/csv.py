"""CSV export: one row per sample and metric."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

FIELDS = ("run_id", "sample_id", "strategy", "metric", "value", "unscored_reason")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: Any) -> Any:
    """Defuse spreadsheet formulas in user text (`=HYPERLINK(...)` in an id, say)."""
    if isinstance(text, str) and text.startswith(_FORMULA):
        return "'" + text
    return text


def csv_rows(report: dict[str, Any]) -> Iterator[dict[str, Any]]:
    run_id = report["evaluation_metadata"]["run_id"]
    for entry in report.get("detailed_results", []):
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


def to_csv(report: dict[str, Any]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: _cell(v) if k != "value" else v for k, v in row.items()}
                     for row in csv_rows(report))
    return buf.getvalue()
