"""One way to write a report in any format: `export(report, format, out)`.

`out` is an open text file, or a path written atomically (for Parquet, a folder of part
files). The per-sample entries may be streamed in (`details`, e.g. `iter_details`), so
that a large run's report is never whole in memory; JSON, CSV and Parquet stream them,
HTML reads the report's own (it draws every value).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import IO, Literal, get_args

from ragassay.files import atomic_write
from ragassay.report.csv import write_csv
from ragassay.report.html import to_html
from ragassay.report.jsonfile import dump_json
from ragassay.report.model import FailedEntry, Report, SampleEntry
from ragassay.report.parquet import write_parquet

Format = Literal["json", "csv", "html", "parquet"]
FORMATS: tuple[str, ...] = get_args(Format)


def export(report: Report, format: Format, out: IO[str] | str | Path,
           details: Iterable[SampleEntry | FailedEntry] | None = None) -> list[Path]:
    """Write `report` as `format` to `out`; returns the files written (none for an open
    file). ValueError for an unknown format, or an open file for Parquet."""
    if format not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if format == "parquet":
        if not isinstance(out, str | Path):
            raise ValueError("Parquet is written to a folder: give its path")
        return write_parquet(report, out, details)
    if isinstance(out, str | Path):
        with atomic_write(Path(out)) as fh:
            _write(report, format, fh, details)
        return [Path(out)]
    _write(report, format, out, details)
    return []


def _write(report: Report, format: Format, fh: IO[str],
           details: Iterable[SampleEntry | FailedEntry] | None) -> None:
    if format == "json":
        dump_json(report, fh, details)
    elif format == "csv":
        write_csv(report, fh, details)
    else:
        fh.write(to_html(report))
