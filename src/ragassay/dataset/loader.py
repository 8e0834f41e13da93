"""Turn records from any source into Samples (or InvalidRows), streaming.

Ids: an explicit `id` must be unique under its strategy (a repeat under another strategy
is stored as STRATEGY::ID, since ids are often per question); a generated id (see
`schema.content_id`) that collides with an earlier one gets a `-2`, `-3`, ... suffix in
file order, so the same file always yields the same ids and runs resume by sample id.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragassay.dataset.errors import DatasetError, show
from ragassay.dataset.limits import check_regular
from ragassay.dataset.memory import records_from_object
from ragassay.dataset.readers import Record, RowProblem, detect_format, read_records
from ragassay.dataset.schema import ID_LENGTH, check_field_map, id_value, parse_row
from ragassay.dataset.traces import is_trace_file, read_trace_records
from ragassay.dataset.values import has_surrogate
from ragassay.types import InvalidRow, ReadAs, Sample

if TYPE_CHECKING:
    import datasets
    import pandas as pd

    from ragassay.dataset.census import Census

PathLike = str | os.PathLike[str]
Loaded = Sample | InvalidRow


FieldMap = Mapping[str, str]
TraceOverrides = Mapping[str, list[str]]


def iter_samples(source: PathLike, *, skip_invalid: bool = False,
                 field_map: FieldMap | None = None,
                 trace_map: TraceOverrides | None = None,
                 read_as: ReadAs = "auto") -> Iterator[Loaded]:
    """Stream the samples of a dataset file (.jsonl/.ndjson/.json/.csv/.parquet/.pq, .gz).

    A missing file or an unknown extension raises DatasetError at once; bad rows raise
    DatasetError (`data.jsonl:17: 'contexts' must be a list of strings`) when reached,
    or with `skip_invalid` are yielded as InvalidRow in their place. A file with no rows
    raises DatasetError after reading it. `field_map` ({field: column}, e.g.
    `{"answer": "generated_answer"}`) reads fields from columns of other names. A .json
    or .jsonl file of OpenTelemetry spans is read as traces, one sample per trace
    (`dataset.traces`; `trace_map` {role: [attribute, ...]} reads other attributes first);
    `read_as` "rows" or "traces" says which instead of looking.
    """
    return file_records(source, skip_invalid, field_map, None, trace_map, read_as)


def file_records(source: PathLike, skip_invalid: bool, field_map: FieldMap | None,
                 census: Census | None, trace_map: TraceOverrides | None = None,
                 read_as: ReadAs = "auto") -> Iterator[Loaded]:
    """A file's rows as Samples (or InvalidRows with `skip_invalid`), each record's
    column names shown to `census` first (the first pass, `check.check_dataset`)."""
    path = Path(source)
    if not path.exists():
        raise DatasetError("file not found", where=str(source))
    check_regular(path, str(source))  # a FIFO or /dev/zero would block or grow forever
    fmt, gz = detect_format(path)
    fields = check_field_map(field_map) if field_map else None
    if read_as == "traces" and fmt not in ("json", "jsonl", "parquet"):
        raise DatasetError(f"--format traces: a .{fmt} file holds rows (traces are read "
                           "from .json, .jsonl and .parquet files)", where=path.name)
    if read_as == "traces" or (read_as == "auto" and fmt in ("json", "jsonl", "parquet")
                               and is_trace_file(path, gz, fmt)):
        if fields:
            raise DatasetError("--map applies to rows, not traces: use --trace-map",
                               where=path.name)
        try:
            records = read_trace_records(path, path.name, gz, trace_map, fmt, skip_invalid)
        except ValueError as exc:  # an unknown role in trace_map
            raise DatasetError(str(exc)) from None
        return build(records, skip_invalid=skip_invalid, name=path.name, census=census)
    if trace_map:
        raise DatasetError("--trace-map given, but the file holds rows, not OpenTelemetry "
                           "spans", where=path.name)
    return build(read_records(path, path.name, fields), skip_invalid=skip_invalid,
                 name=path.name, field_map=fields, census=census)


def iter_records(
    data: Any, *, skip_invalid: bool = False, name: str = "<data>",
    field_map: FieldMap | None = None,
) -> Iterator[Loaded]:
    """Stream samples from a path, a DataFrame, a datasets.Dataset or an iterable of rows.

    For in-memory data, positions read `name:row N` (1-based); files use their own name.
    Unsupported objects (a dict, a number) raise TypeError. `field_map` as for
    `iter_samples`.
    """
    if isinstance(data, (str, os.PathLike)):
        return iter_samples(data, skip_invalid=skip_invalid, field_map=field_map)
    fields = check_field_map(field_map) if field_map else None
    return build(records_from_object(data, name), skip_invalid=skip_invalid, name=name,
                 field_map=fields)


def load_samples(
    data: PathLike | pd.DataFrame | datasets.Dataset | Iterable[Mapping[str, Any]],
    *,
    skip_invalid: bool = False,
    name: str = "<data>",
    field_map: FieldMap | None = None,
) -> list[Loaded]:
    """All samples of `data` (see `iter_records`) as a list."""
    return list(iter_records(data, skip_invalid=skip_invalid, name=name,
                             field_map=field_map))


def dataset_fingerprint(path: PathLike) -> str:
    """sha256 hex digest of the file's bytes (read in chunks), for run records."""
    digest = hashlib.sha256()
    if not Path(path).exists():
        raise DatasetError("file not found", where=str(path))
    check_regular(Path(path), str(path))
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError:
        raise DatasetError("file not found", where=str(path)) from None
    except OSError as exc:
        raise DatasetError(f"cannot read file ({exc.strerror or exc})", where=str(path)) from None
    return digest.hexdigest()


class _Ids:
    """The ids handed out so far in one dataset, with where each was first seen."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}
        self.strategy: dict[str, str] = {}  # explicit id -> the strategy it was first under

    def claim_per_strategy(self, sample: Sample, where: str) -> Sample:
        """An explicit id may repeat under another strategy (ids are often per question):
        the later sample is stored as STRATEGY::ID. Under the same strategy it is a
        duplicate (DatasetError)."""
        first = self.strategy.setdefault(sample.id, sample.strategy)
        if first == sample.strategy or sample.id not in self.first:
            self.claim_explicit(sample.id, where)
            return sample
        qualified = f"{sample.strategy}::{sample.id}"
        self.claim_explicit(qualified, where)
        return sample.model_copy(update={"id": qualified})

    def claim_explicit(self, sample_id: str, where: str) -> None:
        if sample_id in self.first:
            raise DatasetError(
                f"duplicate id {show(sample_id)} (first used at {self.first[sample_id]})",
                where=where,
                field="id",
            )
        self.first[sample_id] = where

    def claim_generated(self, base: str, where: str) -> str:
        sample_id, n = base, 1
        while sample_id in self.first:
            n += 1
            sample_id = f"{base}-{n}"
        self.first[sample_id] = where
        return sample_id


def build(records: Iterable[Record], *, skip_invalid: bool, name: str,
          field_map: FieldMap | None = None, census: Census | None = None
          ) -> Iterator[Loaded]:
    """Validate records into Samples, assigning ids; InvalidRow in place of bad rows.

    A `census` sees every record's column names before validation (see `check`).
    """
    ids = _Ids()
    count = 0
    it = iter(records)
    while True:
        try:
            where, item = next(it)
        except StopIteration:
            break
        except (OSError, EOFError, zlib.error) as exc:  # e.g. a corrupt .gz
            raise DatasetError(f"cannot read file ({exc})", where=name) from None
        count += 1
        if census is not None and isinstance(item, Mapping):
            census.columns(item)
        result: Loaded
        try:
            result = _sample(item, where, ids, field_map)
        except DatasetError as exc:
            if not skip_invalid:
                raise
            result = _invalid(item, where, exc.reason, ids)
        yield result
    if count == 0:
        raise DatasetError("no samples (the dataset is empty)", where=name)


def _sample(item: Any, where: str, ids: _Ids, field_map: FieldMap | None) -> Sample:
    if isinstance(item, RowProblem):
        raise DatasetError(item.reason, where=where)
    parsed = parse_row(item, where=where, field_map=field_map)
    sample = parsed.sample
    if parsed.explicit_id:
        return ids.claim_per_strategy(sample, where)
    unique = ids.claim_generated(sample.id, where)
    return sample if unique == sample.id else sample.model_copy(update={"id": unique})


def _invalid(item: Any, where: str, reason: str, ids: _Ids) -> InvalidRow:
    """An InvalidRow with a stable id: the row's own id if usable, else from its content."""
    row = item.row if isinstance(item, RowProblem) else item
    row = row if isinstance(row, Mapping) else {}
    sample_id: str | None
    try:
        sample_id = id_value(row.get("id"), where)
    except DatasetError:
        sample_id = None
    if sample_id is not None and has_surrogate(sample_id):
        sample_id = None  # not storable as text
    if sample_id is not None and sample_id not in ids.first:
        ids.claim_explicit(sample_id, where)
    else:
        raw = item.raw if isinstance(item, RowProblem) else _canonical(item)
        digest = hashlib.sha1(raw.encode("utf-8", "replace")).hexdigest()[:ID_LENGTH]
        sample_id = ids.claim_generated(f"invalid-{digest}", where)
    strategy = row.get("strategy")
    if not isinstance(strategy, str) or not strategy.strip() or "\x00" in strategy \
            or has_surrogate(strategy):
        strategy = "default"
    return InvalidRow(id=sample_id, source=where, reason=reason, strategy=strategy)


def _canonical(item: Any) -> str:
    try:
        return json.dumps(item, sort_keys=True, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # e.g. keys of mixed types, a 5,000-digit integer
        try:
            return repr(item)
        except (ValueError, RecursionError):
            return f"<{type(item).__name__} of {len(item) if hasattr(item, '__len__') else 1}>"
    except RecursionError:  # nested deeper than the encoder can go
        return f"<deeply nested {type(item).__name__}>"
