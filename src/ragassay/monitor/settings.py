"""What a monitor is (stored with its run, kept across restarts) and how this process
runs it (may change from one start to the next)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ragassay.stats.sequential import StreamInterval

Watch = Literal["worse", "both"]


class MonitorSettings(BaseModel):
    """The settings that define a monitor run: a restart must keep them (else the
    traces scored before and after would be two different things)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "monitor"
    sample: float = Field(default=1.0, gt=0.0, le=1.0)  # share of traces scored
    metrics: tuple[str, ...] = ("judge", "trace")
    judge: str = "offline"
    alarm_metrics: tuple[str, ...] = ()  # (): the run's headline metrics
    baseline_run: str | None = None
    baseline_traces: int = Field(default=200, ge=20)
    alpha: float = Field(default=0.01, gt=0.0, lt=1.0)
    window: int = Field(default=200, ge=10)
    horizon: int = Field(default=10, ge=1)  # windows a sequence follows the stream
    watch: Watch = "worse"
    trace_map: dict[str, list[str]] = Field(default_factory=dict)

    def changed(self, stored: MonitorSettings) -> list[str]:
        """The settings that differ from the stored ones (besides the name)."""
        mine, theirs = self.model_dump(), stored.model_dump()
        return [k for k in mine if k != "name" and mine[k] != theirs[k]]


class FollowState(BaseModel):
    """Where reading a followed file stopped: its identity and the byte after the last
    complete line stored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    path: str
    inode: int
    offset: int


class BaselineRecord(BaseModel):
    """A metric's baseline as established (on the metric's 0-1 scale), so that a restart
    (or retention having deleted the first traces) keeps it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    metric: str
    interval: StreamInterval
    source: str  # "run ID" or "first N traces"
    alpha: float  # the metric's share of the false-alarm budget


class MonitorState(BaseModel):
    """What a monitor run remembers between starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    baselines: dict[str, BaselineRecord] = Field(default_factory=dict)
    skipped: dict[str, str] = Field(default_factory=dict)  # metric -> why it is not tested
    follow: FollowState | None = None
    pruned: dict[str, int] = Field(default_factory=dict)  # traces deleted by retention
    # each metric's newest window so far (metric scale), as of the last stats event
    current: dict[str, dict[str, float | int | None]] = Field(default_factory=dict)


class StateBox:
    """The monitor's state, shared by its parts: `update` changes and saves it."""

    def __init__(self, state: MonitorState, save: Callable[[str], None]) -> None:
        self.state = state
        self._save = save

    def update(self, **changes: Any) -> None:
        self.state = self.state.model_copy(update=changes)
        self._save(self.state.model_dump_json())


@dataclass(frozen=True)
class MonitorOptions:
    """How this process runs the monitor: where it listens or what it follows, its
    limits and timers. None of it changes what the run is."""

    listen: tuple[str, int] | None = None
    follow: Path | None = None
    db: Path = Path(".ragassay/ragassay.db")
    webhook: str | None = None
    keep_days: float | None = None
    max_queue: int = 10_000  # traces held (open or waiting to be scored)
    max_spans: int = 200_000  # spans held of open traces
    max_body: int = 16 << 20  # bytes of a request body, once inflated
    settle_s: float = 1.0  # after a root span, how long late child spans may still come
    trace_timeout_s: float = 60.0  # a trace whose root never comes is taken as it is
    drain_s: float = 30.0  # on SIGTERM, how long queued traces are still scored
    stats_s: float = 30.0  # how often a stats event is written (0: never)
    batch: int = 64  # traces scored at a time
    headers: tuple[tuple[str, str], ...] = ()  # for the judge's backend
    base_urls: tuple[str, ...] = ()
    retry_after_s: int = 2


def sampled(trace_id: str, rate: float) -> bool:
    """Whether a trace is scored: the first 8 bytes of sha256(trace id) read as a
    fraction below `rate`. The same trace id always gets the same answer (in any
    process, on any machine), and the choice cannot depend on the trace's quality."""
    if rate >= 1.0:
        return True
    digest = hashlib.sha256(trace_id.lower().encode("ascii", "replace")).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64 < rate
