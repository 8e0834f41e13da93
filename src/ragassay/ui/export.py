"""Downloads: the report as JSON, and as CSV with one row per sample and metric."""

from __future__ import annotations

import csv
import io
import json
from datetime import date, datetime
from typing import Any

CSV_COLUMNS = ("run_id", "sample_id", "strategy", "metric", "value", "unscored_reason")


def _default(obj: Any) -> Any:
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def report_json(report: dict[str, Any]) -> str:
    """The report as pretty JSON (datetimes as ISO 8601; NaN is refused, never written)."""
    return json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False, default=_default)


def csv_value(value: Any) -> str:
    """Booleans as 1/0 (as the store keeps them); unscored as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(float(value)) if isinstance(value, float) else str(value)


def report_csv(report: dict[str, Any]) -> str:
    """One row per (sample, metric) of `detailed_results`: CSV_COLUMNS.

    An invalid input row gets one row per declared metric, unscored with the
    validation error as reason, so that no sample disappears from the CSV.
    """
    run_id = report.get("evaluation_metadata", {}).get("run_id", "")
    metric_names = list(report.get("metric_specs", {}))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for item in report.get("detailed_results", []):
        sid, strategy = item.get("id", ""), item.get("strategy", "")
        if item.get("status") == "failed":
            reason = f"invalid input: {item.get('error', '')}"
            for m in metric_names:
                writer.writerow((run_id, sid, strategy, m, "", reason))
            continue
        unscored = item.get("unscored", {})
        for m, value in item.get("metrics", {}).items():
            reason = unscored.get(m, "unscored") if value is None else ""
            writer.writerow((run_id, sid, strategy, m, csv_value(value), reason))
    return buf.getvalue()
