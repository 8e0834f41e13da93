"""The Evaluate page's logic: take an uploaded dataset, and run it with the offline judge
through the run session (`ragassay.runner`: the same checks and end-of-run rules as
`ragassay eval`).

An upload is only ever *read as data* by `ragassay.dataset` (JSONL, JSON, CSV,
Parquet): it is written under a sanitised name with its original extension into a
private temporary folder and streamed with `iter_samples`; nothing is unpickled or
executed. Errors are the dataset loader's one-line messages, naming the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ragassay.dataset import DatasetError
from ragassay.store import Store
from ragassay.types import Usage
from ragassay.ui import MAX_UPLOAD_MB

if TYPE_CHECKING:
    from ragassay.runner import RunPlan

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


def plan_upload(path: Path, suites: Sequence[str] | None, db: str, *,
                skip_invalid: bool) -> RunPlan:
    """The run of an upload with the offline judge, checked as `ragassay eval` checks it
    (`runner.plan_run`): DatasetError for the first bad row, or for a file whose columns
    supply no answer, or neither contexts nor a reference. The store is opened when the
    run starts; `RunPlan.check` holds the counts to show first."""
    from ragassay.runner import FileSource, RunRequest, plan_run

    return plan_run(RunRequest(
        FileSource(path, skip_invalid=skip_invalid, name=f"upload:{path.name}"),
        lambda: Store(db), metrics=tuple(suites) if suites else None, judge="offline"))


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


def run_offline(plan: RunPlan, progress: StreamlitProgress) -> str:
    """Run a planned upload into the store; return the new run id."""
    from ragassay.runner import execute

    try:
        return execute(plan, progress).run_id
    finally:
        plan.close()
