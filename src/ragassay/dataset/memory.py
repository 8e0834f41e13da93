"""Records from in-memory data: a pandas DataFrame, a Hugging Face dataset, or rows.

pandas and datasets are never imported here: their objects are recognised by type
module and used through their public methods, so `import ragassay.dataset` stays light.
Positions are 1-based `name:row N`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ragassay.dataset.errors import DatasetError, show
from ragassay.dataset.readers import Record

_CHUNK = 512  # DataFrame rows converted at a time


def records_from_object(data: Any, name: str) -> Iterator[Record]:
    """Dispatch on the object's kind; TypeError for things that are not rows."""
    module = type(data).__module__ or ""
    if module.startswith("pandas") and hasattr(data, "columns") and hasattr(data, "iloc"):
        return _dataframe(data, name)
    if isinstance(data, Mapping):
        hint = " (for a datasets.DatasetDict pick a split, e.g. data['test'])"
        raise TypeError(
            f"expected rows, got a mapping {type(data).__name__}"
            f"{hint if module.startswith('datasets') else ''}"
        )
    if isinstance(data, (str, bytes, bytearray)) or not isinstance(data, Iterable):
        raise TypeError(
            "data must be a path, a pandas DataFrame, a datasets.Dataset or an iterable of "
            f"mappings, got {type(data).__name__}"
        )
    return _rows(data, name)


def _rows(rows: Iterable[Any], name: str) -> Iterator[Record]:
    for i, row in enumerate(rows, 1):
        yield f"{name}:row {i}", _plain_row(row)


def _dataframe(df: Any, name: str) -> Iterator[Record]:
    columns = [str(c) for c in df.columns]
    if len(set(columns)) != len(columns):
        dup = next(c for c in columns if columns.count(c) > 1)
        raise DatasetError(f"duplicate column {show(dup)}", where=name)
    n = 0
    for start in range(0, len(df), _CHUNK):
        chunk = df.iloc[start : start + _CHUNK]
        for values in chunk.itertuples(index=False, name=None):
            n += 1
            row = {c: _plain_value(v) for c, v in zip(columns, values, strict=True)
                   if not missing(v)}
            yield f"{name}:row {n}", row


def _plain_row(row: Any) -> Any:
    if isinstance(row, Mapping):
        return {k: _plain_value(v) for k, v in row.items() if not missing(v)}
    return row


def _plain_value(value: Any) -> Any:
    """`plain(value)`, or the value as given when it is nested too deeply to convert (the
    row is then rejected by the depth check, with its place)."""
    try:
        return plain(value)
    except RecursionError:
        return value


def missing(value: Any) -> bool:
    """None, NaN, pandas NA and NaT: an absent cell."""
    if value is None:
        return True
    if isinstance(value, float):
        return value != value
    if type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0:
        return bool(value != value)  # e.g. np.float32('nan')
    return type(value).__name__ in ("NAType", "NaTType")


def plain(value: Any) -> Any:
    """numpy scalars/arrays (as pandas and Arrow hand them out) to Python values."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
