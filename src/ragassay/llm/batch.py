"""Provider batch APIs: what a provider's batch client offers, and splitting a run's calls
into batches that respect the provider's limits.

A `BatchProvider` turns a judge request into one line of a batch input file (the body a
direct call sends), uploads the file, creates the batch, reads its status, cancels it,
downloads its output and error files and reads their lines back (`LineOutcome`); a
reply is turned into the same `JudgeReply` a direct call gives (`reply`). The runner's
batch engine (`ragassay.runner.batch_engine`) decides what to submit and stores it
before it waits. `llm.registry.get_batch_provider` builds the client for a judge spec.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ragassay.llm.wire import JudgeReply, JudgeRequest

MAX_LINE_BYTES = 8_000_000
"""An output line longer than this is not read (a reply is a few kB; with token
probabilities some tens of kB): its call is recorded failed."""


@dataclass(frozen=True)
class Limits:
    """What one batch may hold: requests and bytes of its input file."""

    requests: int
    bytes: int


@dataclass(frozen=True)
class BatchState:
    """A batch as the provider reports it (statuses as OpenAI names them: validating,
    in_progress, finalizing, completed, expired, failed, cancelling, cancelled)."""

    batch_id: str
    status: str
    total: int = 0
    completed: int = 0
    failed: int = 0
    input_file: str | None = None
    output_file: str | None = None
    error_file: str | None = None
    error: str | None = None  # why it failed (validation errors), one line


@dataclass(frozen=True)
class LineOutcome:
    """One line of a batch's output or error file: the call's reply body (decoded JSON),
    or why it failed (one line, HTTP status first when the provider gave one)."""

    custom_id: str
    body: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class BatchProvider(Protocol):
    """A provider's batch API for one model (OpenAI's; others behind the same calls)."""

    name: str
    limits: Limits

    def line(self, custom_id: str, request: JudgeRequest) -> bytes:
        """The request as one line of the batch input file (with its newline)."""
        ...

    async def upload(self, path: Path, name: str) -> str | None:
        """Upload an input file; its file id (None: the provider takes the requests with
        the create call itself)."""
        ...

    async def create(self, file_id: str | None, path: Path,
                     metadata: dict[str, str]) -> BatchState: ...

    async def find(self, file_id: str) -> BatchState | None:
        """The batch created from this input file, if one was (a create whose answer was
        lost to a crash or a timeout): adopted instead of creating another."""
        ...

    async def get(self, batch_id: str) -> BatchState: ...

    async def cancel(self, batch_id: str) -> BatchState: ...

    async def download(self, file_id: str, dest: Path) -> None:
        """Write an output or error file to `dest`."""
        ...

    def outcomes(self, path: Path) -> Iterator[LineOutcome]:
        """The lines of a downloaded output or error file."""
        ...

    def reply(self, body: Any, request: JudgeRequest) -> JudgeReply:
        """A reply body as the `JudgeReply` a direct call gives (checked as strictly);
        BackendError when it is unusable."""
        ...

    def usage(self, body: Any) -> tuple[int, int, int]:
        """(input, output, prompt-cached) tokens a reply body reports (0 when absent)."""
        ...

    async def aclose(self) -> None: ...


class Chunker:
    """Cuts a stream of lines into batches of at most `limits.requests` lines and
    `limits.bytes` bytes: `add(size)` says whether the line starts a new batch."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.requests = 0
        self.bytes = 0

    def add(self, size: int) -> bool:
        if size > self.limits.bytes:
            raise ValueError(f"one request is {size:,} bytes, over the batch limit of "
                             f"{self.limits.bytes:,}")
        new = self.requests > 0 and (self.requests + 1 > self.limits.requests
                                     or self.bytes + size > self.limits.bytes)
        if new:
            self.requests = self.bytes = 0
        self.requests += 1
        self.bytes += size
        return new


def split_sizes(sizes: list[int], limits: Limits) -> list[int]:
    """How many of the lines (of these sizes, in order) go in each batch."""
    counts: list[int] = []
    chunker = Chunker(limits)
    for size in sizes:
        if chunker.add(size) or not counts:
            counts.append(0)
        counts[-1] += 1
    return counts


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """Each line of a JSONL file that is a JSON object; other lines (not JSON, not an
    object, over MAX_LINE_BYTES) are left out: they name no call, whose call then counts
    as unanswered."""
    with path.open("rb") as fh:
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # the rest of it, unread
                    raw = fh.readline(MAX_LINE_BYTES)
                continue
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if isinstance(obj, dict):
                yield obj
