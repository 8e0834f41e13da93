"""Label files: rows of human labels from JSONL, JSON or CSV, as people and pandas write them.

A row names its sample by `id` (a sample id of the run), by `content_key` (what
`ragassay labels export` writes), or by its content (`question`, `contexts`, `answer`);
its labels are a `labels` object (or a pandas-written dict cell, `{'hallucinated': True}`)
or flat columns (`hallucinated`, `labels.hallucinated`). Values as pandas writes them
read as meant: `True`/`False`/`true` and `yes`/`no` are booleans, numbers are numbers,
an empty cell is no label; the leading unnamed index column `df.to_csv(path)` writes is
skipped. Optional columns `annotator` and `note` travel with the row's labels.
Every problem is a one-line `LabelFileError` naming the file and line.
"""

from __future__ import annotations

import ast
import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragassay.dataset.values import ValueProblem, loads, python_string_list, value_problem
from ragassay.files import restore_cell
from ragassay.types import content_key

IDENTITY = ("id", "content_key", "question", "contexts", "answer", "strategy")
"""Columns that name a sample, never labels."""
EXTRA = ("annotator", "note", "reference", "metadata", "source", "created", "label", "value")
"""Columns that travel with a row's labels, never labels themselves."""
PANDAS_INDEX = ("", "Unnamed: 0")
"""The header of the index column pandas writes first by default: not a label."""
MAX_BYTES = 200 * 1024 * 1024  # a label file larger than this is refused


class LabelFileError(ValueError):
    """A label file that cannot be read; the message is one line."""


@dataclass(frozen=True)
class LabelRow:
    """One row of a label file: how it names its sample, and its labels."""

    line: int
    id: str | None
    key: str | None  # content key, given or computed from the row's content
    labels: dict[str, Any] = field(default_factory=dict)
    annotator: str = ""
    note: str = ""
    strategy: str = ""  # the sample's strategy, when the row gives one (as export does)


def python_dict(text: str) -> dict[str, Any] | None:
    """A Python dict of constants as pandas writes a dict cell, `{'a': True, 'b': 2}`, else
    None. Parsed with `ast` and evaluated only when every key is a string and every value a
    constant; nothing is ever run."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Dict) or not all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return None
    if not all(isinstance(v, ast.Constant) or (isinstance(v, ast.UnaryOp)
               and isinstance(v.operand, ast.Constant)) for v in node.values):
        return None
    value = ast.literal_eval(node)
    return value if isinstance(value, dict) else None


def cell_value(value: Any) -> Any:
    """A label value as written in a CSV cell or JSON: `True`/`false`/`yes`/`No` -> bool,
    a number in text -> float, an empty cell -> None; anything else as given."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return None
    if text.lower() in ("true", "false", "yes", "no"):
        return text.lower() in ("true", "yes")
    try:
        return float(text)
    except ValueError:
        return value


def _contexts(value: Any) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return value
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            try:
                parsed = json.loads(value)
            except json.JSONDecodeError:
                parsed = python_string_list(value)
            if isinstance(parsed, list) and all(isinstance(c, str) for c in parsed):
                return parsed
        return [value]
    return None


def _row(where: str, line: int, row: Any) -> LabelRow:
    if not isinstance(row, dict):
        raise LabelFileError(f"{where}:{line}: expected an object with an 'id' and labels")
    problem = value_problem(row)
    if problem:
        raise LabelFileError(f"{where}:{line}: the row {problem}")
    nested = row.get("labels")
    if isinstance(nested, str):
        nested = python_dict(nested) if nested.strip().startswith("{") else None
        if nested is None:
            raise LabelFileError(f"{where}:{line}: 'labels' must be an object of name: value")
    if isinstance(nested, dict):
        raw = dict(nested)
    elif "label" in row and "value" in row:  # long form, as `labels export` writes it
        raw = {str(row["label"]): row["value"]}
    else:
        raw = {k.removeprefix("labels."): v for k, v in row.items()
               if k not in IDENTITY and k not in EXTRA and k != "labels"}
    labels = {str(k): v for k, v in ((k, cell_value(v)) for k, v in raw.items())
              if v is not None}
    sample_id = row.get("id")
    key = row.get("content_key") or None
    if key is None and isinstance(row.get("question"), str) and "answer" in row:
        contexts = _contexts(row.get("contexts", []))
        if contexts is None:
            raise LabelFileError(f"{where}:{line}: 'contexts' must be a list of strings")
        key = content_key(row["question"], contexts, str(row.get("answer") or ""))
    if sample_id in (None, "") and key is None:
        raise LabelFileError(f"{where}:{line}: each row needs an 'id', a 'content_key', or "
                             "the sample's question, contexts and answer")
    return LabelRow(line=line, id=None if sample_id in (None, "") else str(sample_id),
                    key=None if key is None else str(key), labels=labels,
                    annotator=str(row.get("annotator") or ""), note=str(row.get("note") or ""),
                    strategy=str(row.get("strategy") or ""))


def _csv_rows(path: Path) -> Iterator[tuple[int, Any]]:
    """A label CSV's rows as dicts (a UTF-8 BOM, as Excel writes one, is skipped; cells as
    large as the file may be; a cell `labels export` defused for spreadsheets is read as
    it was); a column named twice is a LabelFileError, never last-one-wins."""
    if csv.field_size_limit() < MAX_BYTES:
        csv.field_size_limit(MAX_BYTES)
    with path.open(newline="", encoding="utf-8-sig") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header is None:
            return
        seen: set[str] = set()
        for name in header:
            if name in seen:
                raise LabelFileError(f"{path.name}:1: column {name!r} is named twice; keep "
                                     "one")
            seen.add(name)
        index = header[0] if header[0] in PANDAS_INDEX else None  # df.to_csv's row numbers
        while True:
            line = reader.line_num + 1  # where the row starts (a cell may span lines)
            cells = next(reader, None)
            if cells is None:
                return
            if not cells:
                continue  # a blank line
            if any(c.strip() for c in cells[len(header):]):
                raise LabelFileError(f"{path.name}:{line}: {len(cells)} cells but the header "
                                     f"has {len(header)}")
            yield line, {k: restore_cell(v) for k, v in zip(header, cells, strict=False)
                         if k != index}


def _lines(path: Path) -> Iterator[tuple[int, Any]]:
    where = path.name
    if path.suffix == ".csv":
        yield from _csv_rows(path)
        return
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".json":
            rows = loads(text)
            if not isinstance(rows, list):
                raise LabelFileError(f"{where}: expected a JSON list of rows")
            yield from enumerate(rows, 1)
            return
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                yield i, loads(line)
    except json.JSONDecodeError as exc:
        raise LabelFileError(f"{where}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    except ValueProblem as exc:
        raise LabelFileError(f"{where}: {exc}") from None


def read_label_file(path: Path) -> list[LabelRow]:
    """Every row of a label file (.jsonl, .json or .csv), or a one-line LabelFileError."""
    where = path.name
    if not path.is_file():
        raise LabelFileError(f"{path}: no such file" if not path.exists()
                             else f"{path}: not a regular file")
    if path.stat().st_size > MAX_BYTES:
        raise LabelFileError(f"{path}: larger than {MAX_BYTES // 2**20} MB")
    if path.suffix not in (".jsonl", ".json", ".csv"):
        raise LabelFileError(f"{path}: a label file is .jsonl, .json or .csv")
    try:
        rows = [_row(where, line, row) for line, row in _lines(path)]
    except UnicodeDecodeError as exc:
        raise LabelFileError(f"{path}: not valid UTF-8 (byte {exc.start + 1})") from None
    except csv.Error as exc:
        raise LabelFileError(f"{where}: invalid CSV ({exc})") from None
    if not rows:
        raise LabelFileError(f"{path}: no rows")
    return rows
