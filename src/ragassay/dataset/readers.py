"""File readers: each streams `(where, row)` records from one format.

A record's row is a mapping to validate, or a `RowProblem` when the row could not even
be decoded (bad JSON, bad UTF-8, a malformed CSV cell); row-level problems are
reported in place so that `skip_invalid` can keep them. Problems with the file as a
whole (bad header, truncated JSON list, unreadable Parquet) raise `DatasetError`.
Positions are 1-based: `name:LINE` for JSONL, JSON and CSV (the physical line where the
record starts), `name:row N` for Parquet.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ragassay.dataset.errors import DatasetError, show
from ragassay.dataset.limits import (
    MAX_LINE_BYTES,
    TOO_LONG,
    content_lines,
    open_bounded,
    physical_lines,
)
from ragassay.dataset.parquet import TooLong, parquet_rows
from ragassay.dataset.schema import NESTED, field_of
from ragassay.dataset.values import (
    ValueProblem,
    loads,
    python_literal,
    python_string_list,
    raw_decode,
)

FORMATS: dict[str, str] = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
GZIP_OK = {"jsonl", "json", "csv"}
PANDAS_BOOLS = {"True": True, "False": False}
"""How `DataFrame.to_csv` writes booleans (a flat `labels.x` column of them)."""
CSV_FIELD_LIMIT = MAX_LINE_BYTES
"""Largest CSV cell read (the csv module's default, 128 KB, would refuse a long context;
a cell may span lines, so it is capped on its own as well as each line)."""


@dataclass(frozen=True)
class RowProblem:
    """A row that failed before validation; `raw` feeds the InvalidRow's stable id."""

    reason: str
    raw: str
    row: dict[str, Any] = field(default_factory=dict)  # what could be read, for id/strategy


Record = tuple[str, Any]  # (where, Mapping | RowProblem | any other JSON value)


def detect_format(path: Path) -> tuple[str, bool]:
    """(format, gzipped) from the file name; DatasetError for unknown extensions."""
    suffixes = [s.lower() for s in path.suffixes]
    gz = bool(suffixes) and suffixes[-1] == ".gz"
    ext = suffixes[-2] if gz and len(suffixes) >= 2 else (suffixes[-1] if suffixes else "")
    fmt = FORMATS.get(ext)
    if fmt is None or (gz and fmt not in GZIP_OK):
        found = "".join(path.suffixes[-2:] if gz else path.suffixes[-1:])
        what = f"unknown dataset format {found!r}" if found else "no file extension"
        raise DatasetError(
            f"{what} (expected one of {', '.join(FORMATS)}; "
            ".gz is accepted for jsonl, json and csv)",
            where=path.name,
        )
    return fmt, gz


def read_records(path: Path, name: str,
                 field_map: dict[str, str] | None = None) -> Iterator[Record]:
    """Stream the records of `path` in its format (already checked to exist).

    `field_map` ({field: column}) only matters to CSV, whose cells are decoded by the
    field their column supplies (a contexts cell holds a list).
    """
    fmt, gz = detect_format(path)
    if fmt == "parquet":
        return read_parquet(path, name)
    if fmt == "csv":
        return read_csv(path, name, gz, field_map)
    readers = {"jsonl": read_jsonl, "json": read_json}
    return readers[fmt](path, name, gz)


def _utf8_problem(raw: bytes, exc: UnicodeDecodeError) -> str:
    return f"invalid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})"


# --- JSON Lines ------------------------------------------------------------------


def read_jsonl(path: Path, name: str, gz: bool = False) -> Iterator[Record]:
    """One JSON object per line; blank lines are skipped; a line over MAX_LINE_BYTES is a
    row problem, never held in memory."""
    with open_bounded(path, gz, name) as fh:
        for lineno, raw in content_lines(fh):
            where = f"{name}:{lineno}"
            if raw is None:
                yield where, RowProblem(TOO_LONG, f"{name}:{lineno}: {TOO_LONG}")
                continue
            if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
                if not raw.strip():
                    continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield where, RowProblem(_utf8_problem(raw, exc), raw.decode("utf-8", "replace"))
                continue
            try:
                yield where, loads(text)
            except json.JSONDecodeError as exc:
                yield where, RowProblem(f"invalid JSON: {exc.msg} (column {exc.colno})", text)
            except ValueProblem as exc:
                yield where, RowProblem(str(exc), text)


# --- JSON (a top-level list) -------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")


class _JsonListStream:
    """Incrementally decode the elements of a top-level JSON list from a binary file."""

    def __init__(self, fh: IO[bytes], name: str, chunk: int = 1 << 16):
        self.fh, self.name, self.chunk = fh, name, chunk
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.buf, self.pos, self.line = "", 0, 1
        self.bytes_newlines = 0
        self.eof = False

    def where(self, pos: int | None = None) -> str:
        line = self.line if pos is None else self.line + self.buf.count("\n", self.pos, pos)
        return f"{self.name}:{line}"

    def _more(self) -> bool:
        """Append the next chunk of text to the buffer; False at end of file."""
        if self.eof:
            return False
        data = self.fh.read(self.chunk)
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            line = self.bytes_newlines + data[: max(exc.start, 0)].count(b"\n") + 1
            bad = exc.object[exc.start] if exc.start < len(exc.object) else 0
            raise DatasetError(
                f"invalid UTF-8 (byte 0x{bad:02x})", where=f"{self.name}:{line}"
            ) from None
        self.bytes_newlines += data.count(b"\n")
        self.eof = not data
        self.buf = self.buf[self.pos :] + text
        self.pos = 0
        return True

    def _advance(self, to: int) -> None:
        self.line += self.buf.count("\n", self.pos, to)
        self.pos = to

    def peek(self) -> str:
        """Skip whitespace and return the next character ('' at end of file)."""
        while True:
            match = _WS.match(self.buf, self.pos)
            self._advance(match.end() if match else self.pos)
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def take(self) -> None:
        self._advance(self.pos + 1)

    def value(self) -> Any:
        """Decode one JSON value at the current position, reading more as needed."""
        while True:
            try:
                obj, end = raw_decode(self.buf, self.pos)
            except ValueProblem as exc:  # cannot find the element's end: stop here
                raise DatasetError(str(exc), where=self.where()) from None
            except json.JSONDecodeError as exc:
                truncated = exc.pos >= len(self.buf) - 16 or exc.msg.startswith("Unterminated")
                if truncated and len(self.buf) - self.pos > MAX_LINE_BYTES:
                    raise DatasetError(f"list element longer than {MAX_LINE_BYTES >> 20} MB "
                                       "(not read)", where=self.where()) from None
                if truncated and self._more():
                    self.chunk = min(self.chunk * 2, 1 << 24)
                    continue
                raise DatasetError(f"invalid JSON: {exc.msg}", where=self.where(exc.pos)) from None
            if end == len(self.buf) and not self.eof and self._more():
                continue  # a scalar may continue in the next chunk: decode it again
            if end - self.pos > MAX_LINE_BYTES:
                raise DatasetError(f"list element longer than {MAX_LINE_BYTES >> 20} MB "
                                   "(not read)", where=self.where())
            self._advance(end)
            return obj

    def elements(self) -> Iterator[Record]:
        first = self.peek()
        if first == "":
            return
        if first != "[":
            raise DatasetError(
                "a .json dataset must be a list of objects (use .jsonl for one object a line)",
                where=self.where(),
            )
        self.take()
        if self.peek() == "]":
            self.take()
        else:
            while True:
                self.peek()
                where = self.where()
                yield where, self.value()
                sep = self.peek()
                if sep == "":
                    raise DatasetError(
                        "invalid JSON: unexpected end of file inside the list", where=self.where()
                    )
                self.take()
                if sep == "]":
                    break
                if sep != ",":
                    raise DatasetError(
                        "invalid JSON: expected ',' or ']' after a list element",
                        where=self.where(),
                    )
        if self.peek() != "":
            raise DatasetError("invalid JSON: extra data after the list", where=self.where())


def read_json(path: Path, name: str, gz: bool = False) -> Iterator[Record]:
    """A top-level JSON list of objects, decoded element by element (streamed)."""
    with open_bounded(path, gz, name) as fh:
        yield from _JsonListStream(fh, name).elements()


# --- CSV -----------------------------------------------------------------------------


def _lines(fh: IO[bytes], name: str, bad: set[int]) -> Iterator[str]:
    """Decode physical lines (each at most MAX_LINE_BYTES); lines with invalid UTF-8 are
    noted in `bad` and replaced."""
    for lineno, raw in enumerate(physical_lines(fh, name), 1):
        if lineno == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8) :]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            bad.add(lineno)
            yield raw.decode("utf-8", "replace")


def _json_list_cell(column: str, text: str, field: str) -> Any:
    """A list cell: JSON (`["a", "b"]`) or a Python list of strings as pandas writes
    it (`['a', 'b']`), parsed with `ast`, never evaluated as code."""
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        parsed = python_string_list(text)
        if parsed is not None:
            return parsed
        raise DatasetError(
            f"'{column}' cell starts with '[' but is neither a JSON list nor a Python list "
            f"of strings ({exc.msg} at char {exc.pos + 1})",
            field=field,
        ) from None
    except ValueProblem as exc:
        raise DatasetError(f"'{column}' cell: {exc}", field=field) from None


def _csv_cell(column: str, cell: str, field: str | None) -> Any:
    """Decode one non-empty CSV cell by the field its column supplies (JSON lists and
    objects where expected)."""
    text = cell.strip()
    if field == "contexts":
        if not text.startswith("["):
            return [cell]  # one plain-text context
        return _json_list_cell(column, text, field)
    if field == "reference" and text.startswith("["):
        try:
            parsed = _json_list_cell(column, text, field)
        except DatasetError:
            return cell  # a plain reference that happens to start with '['
        return parsed if isinstance(parsed, list) else cell
    if field in NESTED:
        try:
            return loads(text)
        except (json.JSONDecodeError, ValueProblem) as exc:
            literal = python_literal(text)  # a dict as pandas writes it: {'x': True}
            if isinstance(literal, dict):
                return literal
            why = f"{exc.msg} at char {exc.pos + 1}" if isinstance(exc, json.JSONDecodeError) \
                else str(exc)
            raise DatasetError(
                f"'{column}' cell is neither a JSON object nor a Python dict ({why})",
                field=column,
            ) from None
    if column.partition(".")[0] in NESTED and "." in column:
        if text in PANDAS_BOOLS:
            return PANDAS_BOOLS[text]
        try:
            return loads(text)  # true/false/numbers/JSON values
        except (json.JSONDecodeError, ValueProblem):
            return cell
    return cell


def read_csv(path: Path, name: str, gz: bool = False,
             field_map: dict[str, str] | None = None) -> Iterator[Record]:
    """A header row, then one sample a row; list/object columns hold JSON (or a
    Python list of strings) in the cell."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    with open_bounded(path, gz, name) as fh:
        bad: set[int] = set()
        reader = csv.reader(_lines(fh, name, bad), strict=True)  # strict: a stray quote is an error
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            return
        except csv.Error as exc:
            raise DatasetError(f"malformed CSV header: {exc}", where=f"{name}:1") from None
        if bad:
            raise DatasetError("invalid UTF-8 in the header", where=f"{name}:1")
        seen: set[str] = set()
        for i, col in enumerate(header, 1):
            if not col:
                raise DatasetError(f"empty column name (column {i})", where=f"{name}:1")
            if col in seen:
                raise DatasetError(f"duplicate column {show(col)}", where=f"{name}:1")
            seen.add(col)
        fields = [field_of(col, field_map) for col in header]
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise DatasetError(f"malformed CSV: {exc}", where=f"{name}:{start}") from None
            if not any(c.strip() for c in cells):
                continue
            yield f"{name}:{start}", _csv_row(header, fields, cells, bad, start, reader.line_num)


def _csv_row(header: list[str], fields: list[str | None], cells: list[str], bad: set[int],
             start: int, end: int) -> Any:
    raw = ",".join(cells)
    readable = dict(zip(header, cells, strict=False))  # for the InvalidRow's id and strategy
    if any(n in bad for n in range(start, end + 1)):
        return RowProblem("invalid UTF-8", raw, readable)
    if len(cells) > len(header):
        reason = f"row has {len(cells)} cells but the header has {len(header)}"
        return RowProblem(reason, raw, readable)
    row: dict[str, Any] = {}
    for column, supplies, cell in zip(header, fields, cells, strict=False):
        if not cell.strip():
            continue  # an empty cell is a missing value
        try:
            row[column] = _csv_cell(column, cell, supplies)
        except DatasetError as exc:
            return RowProblem(exc.reason, raw, row)
    return row


# --- Parquet ---------------------------------------------------------------------------


def read_parquet(path: Path, name: str) -> Iterator[Record]:
    """Rows of a Parquet file, a batch at a time, within the bounds of `parquet.py` (a
    row decoding past MAX_LINE_BYTES is a row problem)."""
    for n, row in parquet_rows(path, name):
        where = f"{name}:row {n}"
        yield where, RowProblem(row.reason, where) if isinstance(row, TooLong) else row
