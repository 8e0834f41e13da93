"""Downloads: the report as JSON (the CSV and HTML writers live in ragassay.report)."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any


def _default(obj: Any) -> Any:
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")


def report_json(report: dict[str, Any]) -> str:
    """The report as pretty JSON (datetimes as ISO 8601; NaN is refused, never written)."""
    return json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False, default=_default)
