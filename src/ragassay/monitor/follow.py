"""`--follow FILE`: the OpenTelemetry collector's file exporter output read as it grows
(one OTLP/JSON export request per line), like `tail -F`.

Only complete lines are read; where reading stopped (the file's inode and the offset
after the last line stored) is saved with the spans of that line in one transaction,
so a restart goes on from there, neither losing nor repeating a line. A file replaced
(rotated: another inode) or truncated is read again from its start.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from ragassay.dataset.traces import Span
from ragassay.dataset.traces.otlp import OtlpProblem, spans_from_json
from ragassay.monitor.settings import FollowState

POLL_S = 0.2
MAX_LINE = 64 << 20  # a longer line is skipped (said once), never held whole

Deliver = Callable[[list[Span], FollowState], Awaitable[bool]]
"""Stores one line's spans with where reading stopped; False: not now (back-pressure),
the same line is offered again later."""


class Follower:
    """Reads the file's new lines and hands each one's spans to `deliver`."""

    def __init__(self, path: Path, state: FollowState | None, deliver: Deliver,
                 on_problem: Callable[[str], None]) -> None:
        self.path = path
        self.deliver = deliver
        self.on_problem = on_problem
        self.inode = state.inode if state is not None else None
        self.offset = state.offset if state is not None else 0
        self.lines = 0
        self.bad = 0

    async def run(self, stop: asyncio.Event) -> None:
        """Follow until `stop` is set (the line being stored is finished first)."""
        while not stop.is_set():
            progressed = await self._step()
            if not progressed:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(stop.wait(), POLL_S)

    async def _step(self) -> bool:
        """Read what the file has beyond the offset; whether anything was taken."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False  # not there (yet, or between rotations)
        if self.inode != st.st_ino or st.st_size < self.offset:
            self.inode, self.offset = st.st_ino, 0  # a new file, or truncated
        if st.st_size <= self.offset:
            return False
        with open(self.path, "rb") as fh:
            fh.seek(self.offset)
            chunk = fh.read(min(st.st_size - self.offset, 4 << 20))
        end = chunk.rfind(b"\n")
        if end < 0:
            if len(chunk) >= MAX_LINE:
                self._skip(f"{self.path}: a line longer than {MAX_LINE >> 20} MiB skipped")
                self.offset += len(chunk)
                return True
            return False
        offset = self.offset
        for line in chunk[:end + 1].splitlines(keepends=True):
            offset += len(line)
            text = line.strip()
            if not text:
                continue
            try:
                spans = spans_from_json(text)
            except OtlpProblem as exc:
                self._skip(f"{self.path}: a line is not an OTLP export: {exc}")
                spans = []
            state = FollowState(path=str(self.path), inode=self.inode or 0, offset=offset)
            if not await self.deliver(spans, state):
                return False  # back-pressure: this line again later
            self.offset = offset
            self.lines += 1
        return True

    def _skip(self, message: str) -> None:
        self.bad += 1
        self.on_problem(message)
