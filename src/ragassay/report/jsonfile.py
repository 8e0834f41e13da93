"""The report as JSON, with its per-sample entries streamed in.

The JSON document is the `Report`'s dump, its statistics sections rounded (`rounding`).
On a large run the per-sample details are most of a report; `dump_json` writes them
one entry at a time, so that the whole report never sits in memory. The output is
the same JSON document as that of the report built with its "detailed_results".
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable
from typing import IO, Any

from ragassay.report.model import FailedEntry, Report, SampleEntry, published


def _plain(obj: Any) -> Any:
    """Tuples (intervals, scales) as the lists JSON reads them back as."""
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    return obj


def report_json(report: Report) -> dict[str, Any]:
    """The JSON document of a report (statistics as published), as plain JSON values."""
    doc: dict[str, Any] = _plain(published(report).model_dump(by_alias=True))
    return doc


def entry_json(entry: SampleEntry | FailedEntry) -> dict[str, Any]:
    """One per-sample entry as plain JSON values (values as stored, unrounded)."""
    doc: dict[str, Any] = _plain(entry.model_dump())
    return doc


def _dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)


def dump_json(report: Report, fh: IO[str],
              details: Iterable[SampleEntry | FailedEntry] | None = None) -> None:
    """Write `report` as indented JSON; `details`, when given, become its last key,
    "detailed_results", written entry by entry."""
    doc = report_json(report)
    if details is None:
        fh.write(_dumps(doc))
        return
    head = _dumps({k: v for k, v in doc.items() if k != "detailed_results"})
    fh.write(head[:-1].rstrip())  # drop the closing brace, append one more key
    fh.write(',\n  "detailed_results": [')
    sep = "\n"
    for entry in details:
        fh.write(sep + textwrap.indent(_dumps(entry_json(entry)), "    "))
        sep = ",\n"
    fh.write("\n  ]\n}" if sep == ",\n" else "]\n}")
