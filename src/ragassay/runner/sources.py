"""A run's data, read and checked one way whatever the front end: a file is checked in
full first (`dataset.check_dataset`: the first bad row, or no answer / no evidence in any
row, stops it in one line before any judge call is paid for) and streamed into the run
afterwards; data given in memory is loaded and checked the same way
(`dataset.check_items`, with the unknown columns of its rows)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ragassay.dataset import (
    DatasetCheck,
    DatasetError,
    check_dataset,
    check_items,
    dataset_fingerprint,
    iter_samples,
    load_samples,
)
from ragassay.dataset.check import unknown_columns
from ragassay.dataset.traces.trace import trace_problem
from ragassay.runner.request import FileSource, OptionNames, RowsSource
from ragassay.types import InvalidRow, ReadAs, Sample

Item = Sample | InvalidRow


@dataclass(frozen=True)
class Reading:
    """How a source's rows are read: the column map, the trace map, bad rows skipped, and
    a file read as rows or as traces (`read_as`, "auto": by its first object's keys)."""

    field_map: Mapping[str, str]
    trace_map: Mapping[str, Sequence[str]]
    skip_invalid: bool
    read_as: ReadAs = "auto"

    def traces(self) -> dict[str, list[str]]:
        return {role: list(attrs) for role, attrs in self.trace_map.items()}


@dataclass
class Loaded:
    """A source read and checked: the run's dataset name, the data's fingerprint (a file's
    sha256, taken when a run first asks for it, so that a dry run reads the file only
    once; or of the rows' content when no file is named), the first pass's counts (None:
    not checked), and the rows when they are in memory (a file is streamed again by
    `items`; rows read from a file are kept, and fingerprinted as the file)."""

    name: str
    digest: str | None  # of rows in memory; a file's is `fingerprint`, read when asked
    check: DatasetCheck | None
    rows: list[Item] | None
    path: Path | None = None
    reading: Reading | None = None

    @property
    def fingerprint(self) -> str | None:
        if self.digest is None and self.path is not None:
            self.digest = dataset_fingerprint(self.path)
        return self.digest

    @property
    def total(self) -> int | None:
        if self.check is not None:
            return self.check.total
        return None if self.rows is None else len(self.rows)

    def items(self) -> Iterable[Item]:
        """The rows of the run, in input order (a file is read again, a row at a time)."""
        if self.rows is not None:
            return self.rows
        assert self.path is not None and self.reading is not None
        return iter_samples(self.path, skip_invalid=self.reading.skip_invalid,
                            field_map=dict(self.reading.field_map),
                            trace_map=self.reading.traces(), read_as=self.reading.read_as)


def load_file(source: FileSource, reading: Reading, names: OptionNames) -> Loaded:
    """Check a dataset file in full (DatasetError for its first bad row, or a file whose
    columns supply no answer, or neither contexts nor a reference)."""
    check = check_dataset(source.path, skip_invalid=reading.skip_invalid,
                          field_map=dict(reading.field_map), trace_map=reading.traces(),
                          read_as=reading.read_as)
    problem = check.problem()
    if problem:
        raise DatasetError(_named(problem, names))
    return Loaded(name=source.name or str(source.path),
                  digest=None, check=check, rows=None,
                  path=source.path, reading=reading)


def load_rows(source: RowsSource, names: OptionNames) -> Loaded:
    """Load data given in memory and check it as a file is checked (unless the source
    says its rows were made by a tool: the bench's)."""
    data = source.data
    field_map = dict(source.field_map or {})
    kind = ("dataframe" if type(data).__name__ == "DataFrame" else
            "dataset" if _is_frame(data) else "rows")
    if isinstance(data, Mapping):
        data = [data]
    rows = list(data) if isinstance(data, Iterable) and not _is_frame(data) else data
    if isinstance(rows, list) and rows and all(isinstance(r, Sample | InvalidRow)
                                               for r in rows):
        items, kind = list(rows), "samples"
        for i, item in enumerate(items, 1):  # as `parse_row` holds rows to it
            if isinstance(item, Sample) and (problem := trace_problem(item.metadata)):
                raise DatasetError(problem, where=f"{source.name or kind}:row {i}")
    else:
        items = load_samples(rows, skip_invalid=source.skip_invalid,
                             name=source.name or kind, field_map=field_map)
    # rows read from a file are fingerprinted as that file (`Loaded.fingerprint`)
    digest = None if source.path is not None else content_digest(items)
    name = source.name or (str(source.path) if digest is None else f"{kind}:{digest[:8]}")
    check = None
    if source.check:
        check = check_items(items, name)
        check.unknown_columns = unknown_columns(rows, field_map)  # a misnamed answer column?
        problem = check.problem()
        if problem:
            raise DatasetError(_named(problem, names))
    return Loaded(name=name, digest=digest, check=check, rows=items, path=source.path)


def content_digest(items: Sequence[Item]) -> str:
    """sha256 of the loaded rows' content: in-memory data gets a run name that tells one
    data set from another ("dataframe:3f2a9c1e"), and a fingerprint a resume checks."""
    digest = hashlib.sha256()
    for item in items:
        digest.update(item.model_dump_json().encode())
    return digest.hexdigest()


def _is_frame(data: object) -> bool:
    module = type(data).__module__ or ""
    return module.startswith(("pandas", "datasets"))


def _named(problem: str, names: OptionNames) -> str:
    """A check's line with the front end's name of the column map."""
    return problem.replace("--map ", f"{names.field_map} ")

