"""A batch run's batches at the provider: submitted durably, polled, read back.

Each step is stored before the next is taken, so that a process killed at any point
(kill -9, a reboot) leaves a run whose resume finds the same batches and submits no call
twice: the batch's row and the calls it holds are written before its file is uploaded
(`Store.add_batch`), the file id before the batch is created, the batch id as soon as
the create answers. A resume (`recover`) abandons a batch whose file never got its id
(nothing was submitted from it), and for one whose create answer was lost looks for the
batch made from its file before it creates one. `wait` polls every live batch with
backoff until each has ended, then reads its output and error files: each line is stored
on its call with its tokens and its cost at batch and at direct price; calls a batch
did not answer are `lost` with the batch's status as the reason.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ragassay.llm.batch import BatchProvider, BatchState, LineOutcome
from ragassay.store import BatchLine, BatchRecord, Store
from ragassay.store.batches import ENDED
from ragassay.types import Price

FIRST_POLL_S = 2.0  # the first wait between polls; it doubles while nothing changes
LINES_PER_TRANSACTION = 2000


@dataclass(frozen=True)
class BatchCounts:
    """What the run's live batches report, summed: for the progress line."""

    batches: int
    total: int
    completed: int
    failed: int
    statuses: dict[str, int] = field(default_factory=dict)

    def describe(self) -> str:
        """`2 batches (in_progress 2): 81,234 of 120,000 done, 12 failed`."""
        states = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))
        noun = "batch" if self.batches == 1 else "batches"
        return (f"{self.batches} {noun} ({states}): {self.completed:,} of {self.total:,} "
                f"done, {self.failed:,} failed")


class BatchProgress(Protocol):
    """Hears what a run submits and the batches' counts while it waits (the CLI draws a
    line)."""

    def submitted(self, requests: int, batches: int) -> None: ...

    def waiting(self, counts: BatchCounts) -> None: ...

    def done(self) -> None: ...


@dataclass
class Prices:
    """A call's price at batch and at direct rates (None: unknown)."""

    batch: Price | None
    direct: Price | None

    def line(self, outcome: LineOutcome, tokens: tuple[int, int, int]) -> BatchLine:
        if not outcome.ok:
            return BatchLine(custom_id=outcome.custom_id, status="error", error=outcome.error)
        tin, tout, cached = tokens
        cost = None if self.batch is None else self.batch.cost(tin, tout, cached)
        direct = None if self.direct is None else self.direct.cost(tin, tout, cached)
        return BatchLine(custom_id=outcome.custom_id, status="ok",
                         reply=json.dumps(outcome.body, ensure_ascii=False),
                         input_tokens=tin, output_tokens=tout, cached_tokens=cached,
                         cost_usd=cost, direct_cost_usd=direct)


class Batches:
    """The run's batches: submit, recover after a crash, wait and read back."""

    def __init__(self, store: Store, run_id: str, provider: BatchProvider, prices: Prices,
                 poll_s: float, progress: BatchProgress | None = None) -> None:
        self.store, self.run_id, self.provider = store, run_id, provider
        self.prices, self.poll_s, self.progress = prices, poll_s, progress
        self.submitted = 0  # batches this process created
        self.cancelled: list[str] = []  # batches cancelled while this process waited
        self._known_cancelled: set[int] = set()  # cancelled before it began to wait

    def live(self) -> list[BatchRecord]:
        return self.store.batches(self.run_id, live=True)

    async def submit(self, path: Path, ids: list[str], size: int) -> None:
        """One batch: stored, uploaded (file id stored), created (batch id stored)."""
        batch = self.store.add_batch(self.run_id, self.provider.name, ids, size)
        file_id = await self.provider.upload(path, f"ragassay-{self.run_id}-{batch}.jsonl")
        if file_id is not None:
            self.store.batch_uploaded(batch, file_id)
        await self._create(batch, file_id, path)

    async def _create(self, batch: int, file_id: str | None, path: Path) -> None:
        state = await self.provider.create(file_id, path, {
            "ragassay_run": self.run_id, "ragassay_batch": str(batch)})
        self._record(batch, state)
        self.submitted += 1

    def _record(self, batch: int, state: BatchState) -> None:
        self.store.batch_update(batch, status=state.status, batch_id=state.batch_id,
                                completed=state.completed, failed=state.failed,
                                output_file=state.output_file, error_file=state.error_file,
                                error=state.error)

    async def recover(self) -> None:
        """Pick up the batches a killed process left: a batch never uploaded is
        abandoned (its calls are free again); one uploaded but without a batch id is
        found at the provider (its create answered too late) or created now."""
        for b in self.live():
            if b.batch_id is not None:
                continue
            if b.input_file is None:
                self.store.abandon_batch(b.id)
                continue
            found = await self.provider.find(b.input_file)
            if found is not None:
                self._record(b.id, found)
            else:
                await self._create(b.id, b.input_file, Path())

    async def wait(self) -> None:
        """Poll the live batches until every one has ended and is read; `cancelled` names
        those cancelled meanwhile (`ragassay batches cancel`, or the provider's console)."""
        self._known_cancelled = {b.id for b in self.live()
                                 if b.status in ("cancelling", "cancelled")}
        delay = min(FIRST_POLL_S, self.poll_s)
        last: BatchCounts | None = None
        try:
            while True:
                counts = await self.poll()
                if counts is None:
                    return
                if self.progress is not None:
                    self.progress.waiting(counts)
                if counts != last:  # something moved: look again soon
                    delay = min(FIRST_POLL_S, self.poll_s)
                else:
                    delay = min(delay * 2, self.poll_s)
                last = counts
                await asyncio.sleep(delay)
        finally:
            if self.progress is not None:
                self.progress.done()

    async def poll(self) -> BatchCounts | None:
        """Poll each live batch once and read the ones that ended; the live batches'
        counts, None when none is left."""
        live = [b for b in self.live() if b.batch_id is not None]
        if not live:
            return None
        states = []
        for b in live:
            state = await self.provider.get(str(b.batch_id))
            self._record(b.id, state)
            if state.status in ENDED:
                await self.read(b.id, state)
            else:
                states.append(state)
        if not states:
            return await self.poll()
        statuses: dict[str, int] = {}
        for s in states:
            statuses[s.status] = statuses.get(s.status, 0) + 1
        return BatchCounts(batches=len(states), total=sum(s.total for s in states),
                           completed=sum(s.completed for s in states),
                           failed=sum(s.failed for s in states), statuses=statuses)

    async def read(self, batch: int, state: BatchState) -> None:
        """Store an ended batch's output and error lines on its calls; the calls it did
        not answer are lost with the batch's status as the reason."""
        folder = Path(tempfile.mkdtemp(prefix="ragassay-batch-out-"))
        try:
            for file_id in (state.output_file, state.error_file):
                if file_id is None:
                    continue
                path = folder / "lines.jsonl"
                await self.provider.download(file_id, path)
                for lines in _pages(self._lines(path)):
                    self.store.save_batch_lines(batch, lines)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if state.status == "cancelled" and batch not in self._known_cancelled:
            self.cancelled.append(state.batch_id)
        reason = f"batch {state.status}"
        if state.error:
            reason += f": {state.error}"
        self.store.settle_batch(batch, reason)

    def _lines(self, path: Path) -> Iterator[BatchLine]:
        for outcome in self.provider.outcomes(path):
            tokens = self.provider.usage(outcome.body) if outcome.ok else (0, 0, 0)
            yield self.prices.line(outcome, tokens)

    async def refresh(self) -> list[BatchRecord]:
        """Record each live batch's status as the provider reports it now (its outputs
        are read by the run itself, on `--resume`); every batch of the run."""
        for b in self.live():
            if b.batch_id is not None:
                self._record(b.id, await self.provider.get(b.batch_id))
        return self.store.batches(self.run_id)

    async def cancel(self) -> list[BatchRecord]:
        """Ask the provider to cancel every live batch; the batches as they are then."""
        for b in self.live():
            if b.batch_id is not None:
                self._record(b.id, await self.provider.cancel(b.batch_id))
        return self.store.batches(self.run_id)


def _pages(lines: Iterator[BatchLine]) -> Iterator[list[BatchLine]]:
    page: list[BatchLine] = []
    for line in lines:
        page.append(line)
        if len(page) >= LINES_PER_TRANSACTION:
            yield page
            page = []
    if page:
        yield page
