"""Reading a Parquet file within bounds: the rows of a dataset or of Phoenix's spans.

Parquet compresses, and its dictionary encoding stores a repeated value once: a 3 KB
file of 80 rows sharing one 50 MB string decodes to 4 GB. Two bounds hold, as for a
`.gz` (`limits.inflation_bound`: `MAX_INFLATION` times the file's size, at least
`MIN_INFLATED_BYTES`):

- before any row is read, the footer's figures: the row groups' uncompressed sizes plus
  `ROW_COST` bytes a row must stay within the bound (a file claiming a billion rows, or
  gigabytes of pages, is refused at once);
- while reading, what the rows really decode to: every text and binary column is read
  dictionary-encoded (`read_dictionary`: a shared value held once), each row's decoded
  size is computed from the dictionaries' value lengths before a single value becomes a
  Python object, and the running total must stay within the bound. A row over
  `MAX_LINE_BYTES` is a row problem (skipped with `--skip-invalid`), never decoded.

Rows are turned into Python objects a slice of at most `SLICE_BYTES` at a time, so
memory stays flat whatever the file holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragassay.dataset.errors import DatasetError
from ragassay.dataset.limits import (
    MAX_INFLATION,
    MAX_LINE_BYTES,
    MIN_INFLATED_BYTES,
    inflation_bound,
    mb,
)

ROW_COST = 64
"""Bytes a row is counted for beyond its values (a row of nulls is not free)."""
SLICE_BYTES = 16 * 1024 * 1024
"""At most this many decoded bytes become Python objects at once."""
BATCH_ROWS = 1024


class TooLong:
    """A row whose decoded size is over MAX_LINE_BYTES (its values are not read)."""

    reason = f"row over {mb(MAX_LINE_BYTES)} decoded (not read)"


def _bomb(name: str, limit: int, what: str) -> DatasetError:
    return DatasetError(f"{what} more than {mb(limit)} ({MAX_INFLATION} times its size, at "
                        f"least {mb(MIN_INFLATED_BYTES)}): a decompression bomb? Write the "
                        "rows as JSONL instead", where=name)


def _open(path: Path, name: str) -> Any:
    """The ParquetFile, its text and binary columns to be read dictionary-encoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        plain = pq.ParquetFile(path)
        schema = plain.schema
        texts = [schema.column(i).path for i in range(len(schema))
                 if schema.column(i).physical_type == "BYTE_ARRAY"]
        return plain if not texts else pq.ParquetFile(path, read_dictionary=texts)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise DatasetError(f"not a readable Parquet file ({exc})", where=name) from None


def _check_footer(pf: Any, name: str, limit: int) -> None:
    """Refuse a file whose footer claims more than the bound (rows and page sizes)."""
    meta = pf.metadata
    claimed = meta.num_rows * ROW_COST
    for i in range(meta.num_row_groups):
        group = meta.row_group(i)
        claimed += sum(max(0, group.column(j).total_uncompressed_size)
                       for j in range(group.num_columns))
        if claimed > limit:
            raise _bomb(name, limit, f"its footer says its {meta.num_rows:,} rows decode to")


def row_sizes(array: Any) -> Any:
    """The decoded bytes of each element of an Arrow array (numpy int64), computed from
    value lengths, offsets and dictionaries: nothing is decoded into Python objects."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(array)
    kind = array.type
    if pa.types.is_dictionary(kind):
        values = row_sizes(array.dictionary)
        indices = array.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        out = values[indices] if len(values) else np.zeros(n, dtype=np.int64)
        return np.where(array.is_null().to_numpy(zero_copy_only=False), 0, out)
    if (pa.types.is_string(kind) or pa.types.is_binary(kind) or pa.types.is_large_string(kind)
            or pa.types.is_large_binary(kind)):
        return pc.binary_length(array).fill_null(0).to_numpy(zero_copy_only=False).astype(
            np.int64)
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_map(kind):
        offsets = array.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
        ends = np.concatenate([[0], np.cumsum(row_sizes(array.values) + 8)])
        out = ends[offsets[1:]] - ends[offsets[:-1]]
        return np.where(array.is_null().to_numpy(zero_copy_only=False), 0, out)
    if pa.types.is_fixed_size_list(kind):
        parents = pc.list_parent_indices(array).to_numpy(zero_copy_only=False)
        sizes = row_sizes(array.flatten()).astype(np.float64) + 8
        return np.bincount(parents, weights=sizes, minlength=n).astype(np.int64)
    if pa.types.is_struct(kind):
        total = np.zeros(n, dtype=np.int64)
        for field in array.flatten():
            total += row_sizes(field)
        return total
    try:
        width = max(8, kind.bit_width // 8)
    except (AttributeError, ValueError):  # a null column, or another without a width
        width = 8
    return np.full(n, width, dtype=np.int64)


def parquet_rows(path: Path, name: str) -> Iterator[tuple[int, dict[str, Any] | TooLong]]:
    """(row number from 1, the row as a dict, or TooLong) for every row, within the
    bounds above; DatasetError for an unreadable file or one past the bound."""
    import numpy as np
    import pyarrow as pa

    limit = inflation_bound(path)
    pf = _open(path, name)
    _check_footer(pf, name, limit)
    batches = pf.iter_batches(batch_size=BATCH_ROWS)
    n = total = 0
    while True:
        try:
            batch = next(batches)
        except StopIteration:
            return
        except (pa.ArrowException, OSError, ValueError) as exc:
            raise DatasetError(f"cannot read Parquet rows ({exc})",
                               where=f"{name}:row {n + 1}") from None
        sizes = ROW_COST + sum((row_sizes(col) for col in batch.columns),
                               start=np.zeros(batch.num_rows, dtype=np.int64))
        total += int(sizes.sum())
        if total > limit:
            raise _bomb(name, limit, "decodes to")
        start = 0
        while start < batch.num_rows:  # slices of at most SLICE_BYTES (or one row)
            end, held = start + 1, int(sizes[start])
            while end < batch.num_rows and held + sizes[end] <= SLICE_BYTES:
                held += int(sizes[end])
                end += 1
            if end - start == 1 and held - ROW_COST > MAX_LINE_BYTES:
                n += 1
                yield n, TooLong()  # never decoded
            else:
                for row in batch.slice(start, end - start).to_pylist():
                    n += 1
                    yield n, row
            start = end
