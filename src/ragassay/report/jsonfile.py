"""The report as JSON, with its per-sample entries streamed in.

On a large run the per-sample details are most of a report; `dump_json` writes them
one entry at a time, so that the whole report never sits in memory. The output is
the same JSON document as `json.dumps(report with "detailed_results")`.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable
from typing import IO, Any


def _dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)


def dump_json(report: dict[str, Any], fh: IO[str],
              details: Iterable[dict[str, Any]] | None = None) -> None:
    """Write `report` as indented JSON; `details`, when given, become its last key,
    "detailed_results", written entry by entry."""
    if details is None:
        fh.write(_dumps(report))
        return
    head = _dumps({k: v for k, v in report.items() if k != "detailed_results"})
    fh.write(head[:-1].rstrip())  # drop the closing brace, append one more key
    fh.write(',\n  "detailed_results": [' if len(head) > 2 else '\n  "detailed_results": [')
    sep = "\n"
    for entry in details:
        fh.write(sep + textwrap.indent(_dumps(entry), "    "))
        sep = ",\n"
    fh.write("\n  ]\n}" if sep == ",\n" else "]\n}")
