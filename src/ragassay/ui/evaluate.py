"""The Evaluate page's logic: take an uploaded dataset, validate it, run the offline judge.

An upload is only ever *read as data* by `ragassay.dataset` (JSONL, JSON, CSV,
Parquet): it is written under a sanitised name with its original extension into a
private temporary folder and streamed with `iter_samples`; nothing is unpickled or
executed. Errors are the dataset loader's one-line messages, naming the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ragassay.dataset import DatasetCheck, DatasetError, dataset_fingerprint, iter_samples
from ragassay.dataset import check_dataset as _check
from ragassay.store import Store
from ragassay.types import RunConfig, Usage
from ragassay.ui import MAX_UPLOAD_MB

UPLOAD_TYPES = ("jsonl", "ndjson", "json", "csv", "parquet", "pq", "gz")
"""Extensions the uploader offers (the loader decides what a .gz may hold)."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(name: str) -> str:
    """The upload's base name with anything but letters, digits, `._-` replaced by `_`."""
    base = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).lstrip(".")
    return base[-120:] or "dataset"


def save_upload(content: bytes, name: str, folder: Path,
                max_bytes: int = MAX_UPLOAD_MB * 1024 * 1024) -> Path:
    """Write the upload into `folder` under its sanitised name; refuse oversized files."""
    if len(content) > max_bytes:
        raise DatasetError(
            f"file is {len(content) / 1e6:.1f} MB; the dashboard accepts up to "
            f"{max_bytes // (1024 * 1024)} MB (use `ragassay eval` for larger files)",
            where=safe_name(name))
    path = folder / safe_name(name)
    path.write_bytes(content)
    return path


def check_dataset(path: Path, *, skip_invalid: bool) -> DatasetCheck:
    """The loader's first pass (`ragassay.dataset.check_dataset`), as `ragassay eval` makes
    it: DatasetError for the first bad row, or for a file whose columns supply no answer,
    or neither contexts nor a reference."""
    checked = _check(path, skip_invalid=skip_invalid)
    problem = checked.problem()
    if problem:
        raise DatasetError(problem)
    return checked


class Bar(Protocol):
    def progress(self, value: float, text: str | None = None) -> object: ...


class StreamlitProgress:
    """ragassay.runner.Progress drawn on a Streamlit progress bar (`st.progress`)."""

    def __init__(self, bar: Bar) -> None:
        self.bar = bar
        self.total: int | None = None
        self.done = 0

    def start(self, total: int | None) -> None:
        self.total, self.done = total, 0
        self.bar.progress(0.0, text="starting the offline judge...")

    def advance(self, samples: int, usage: Usage) -> None:
        self.done += samples
        of = f" of {self.total}" if self.total else ""
        fraction = min(1.0, self.done / self.total) if self.total else 0.0
        self.bar.progress(fraction, text=f"{self.done}{of} samples judged")

    def finish(self) -> None:
        self.bar.progress(1.0, text=f"{self.done} samples judged")


def run_offline(path: Path, dataset_name: str, suites: Sequence[str], db: str, *,
                skip_invalid: bool, progress: StreamlitProgress, total: int) -> str:
    """Evaluate the file with the offline judge into the store; return the new run id."""
    from ragassay.runner import evaluate

    config = RunConfig.build(dataset_name, judge="offline", metrics=tuple(suites),
                             skip_invalid=skip_invalid)
    with Store(db) as store:
        stats = evaluate(iter_samples(path, skip_invalid=skip_invalid), config, store=store,
                         progress=progress, total=total,
                         dataset_hash=dataset_fingerprint(path))
    return stats.run_id
