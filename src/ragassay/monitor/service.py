"""One monitor run, live: traces in (the OTLP endpoint, a followed file), assembled,
sampled, scored in the background through the run session (`runner.open_feed`), tested for
drift, and every outcome written to the event stream; a drain on stop.

`Monitor.open` creates the run or resumes the one of the same name (its stored settings
kept; a setting given that differs is refused), reloading what the last process left:
open traces with their spans, traces queued for scoring, the drift tests' live windows.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import deque
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO

from ragassay.dataset.traces import DEFAULT_TRACE_MAP, Span
from ragassay.monitor.assembly import Assembler, build_sample, span_from_json, span_json
from ragassay.monitor.drift import DriftWatch
from ragassay.monitor.events import EventSink, Webhook
from ragassay.monitor.follow import Follower
from ragassay.monitor.http import HttpServer
from ragassay.monitor.receiver import OtlpEndpoint
from ragassay.monitor.settings import (
    FollowState,
    MonitorOptions,
    MonitorSettings,
    MonitorState,
    StateBox,
    sampled,
)
from ragassay.runner import (
    PYTHON_NAMES,
    LiveSource,
    RunFeed,
    RunPlan,
    RunRefused,
    RunRequest,
    open_feed,
    plan_run,
)
from ragassay.store import TRACE_STATES, Accepted, Store
from ragassay.types import Sample

TICK_S = 0.1
RETENTION_EVERY_S = 3600.0
RETRY_SCORING_S = 15.0


class MonitorProblem(Exception):
    """A monitor that cannot start as asked (one line)."""


def monitor_plan(store: Store, settings: MonitorSettings, options: MonitorOptions,
                 resume: str | None = None) -> RunPlan:
    """The monitor run's plan (the run session's checks): a `monitor` run named after the
    monitor, fed its traces as they complete; a resume reuses the run's own judge and
    metrics (`resolve_settings` made sure they are the settings given) with any new
    endpoints. A plan that cannot be made is a `MonitorProblem` (one line)."""
    request = RunRequest(
        LiveSource(f"monitor:{settings.name}", trace_map=settings.trace_map or None), store,
        metrics=None if resume else settings.metrics,
        judge=None if resume else settings.judge, endpoints=tuple(options.base_urls),
        headers=dict(options.headers), kind="monitor", resume=resume, names=PYTHON_NAMES)
    try:
        return plan_run(request)
    except RunRefused as exc:
        raise MonitorProblem(str(exc)) from None


def resolve_settings(store: Store, name: str, given: dict[str, Any], new: bool
                     ) -> tuple[MonitorSettings, str | None]:
    """The settings to run with and the run to resume (None: a new run). A stored
    monitor of this name is resumed with its settings; one given that differs is
    refused (a new run takes `new`)."""
    record = None if new else store.find_monitor(name)
    if record is None:
        return MonitorSettings(name=name, **given), None
    stored = MonitorSettings.model_validate_json(record.settings)
    wanted = stored.model_copy(update=given)
    changed = wanted.changed(stored)
    if changed:
        raise MonitorProblem(
            f"monitor {name!r} (run {record.run_id}) was started with other settings "
            f"({', '.join(changed)}): restart it without them (its own are reused), or "
            "start a new run with --new or another --name")
    return stored, record.run_id


class Monitor:
    """A monitor run served by this process (see the module)."""

    def __init__(self, store: Store, settings: MonitorSettings, options: MonitorOptions,
                 resume: str | None = None, out: TextIO | None = None,
                 err: TextIO | None = None) -> None:
        self.store, self.settings, self.options = store, settings, options
        self.resume_id = resume
        self.out = out
        self.err = err if err is not None else sys.stderr
        self.rules = DEFAULT_TRACE_MAP.with_overrides(settings.trace_map)
        self.assembler = Assembler(options.settle_s, options.trace_timeout_s, self.rules)
        self.queue: deque[Sample] = deque()
        self.counts: dict[str, int] = dict.fromkeys(TRACE_STATES, 0)
        self.draining = False
        self.retry_after_s = options.retry_after_s
        self.max_body = options.max_body
        self.max_spans = options.max_spans
        self.endpoint = OtlpEndpoint(self)
        self.follower: Follower | None = None
        self.bound: tuple[str, int] | None = None
        self.server: HttpServer | None = None
        self.started = time.monotonic()
        self.scored_here = 0

    # -- opening ----------------------------------------------------------------------

    def open(self) -> None:
        """Create or resume the run, and reload what a previous process left."""
        plan = monitor_plan(self.store, self.settings, self.options, self.resume_id)
        for note in plan.notes:
            if note.kind == "endpoints":
                print(f"monitor: {note.text}", file=self.err, flush=True)
        self.feed: RunFeed | None = open_feed(plan)
        self.run_id = self.feed.run_id
        if self.resume_id is None:
            self.store.create_monitor(self.run_id, self.settings.name,
                                      self.settings.model_dump_json())
            state = MonitorState()
        else:
            record = self.store.get_monitor(self.run_id)
            state = MonitorState.model_validate_json(record.state if record else "{}")
        self.box = StateBox(state, lambda text: self.store.save_monitor(self.run_id,
                                                                        state=text))
        webhook = (Webhook(self.options.webhook, self.problem)
                   if self.options.webhook else None)
        self.sink = EventSink(self.store, self.run_id, self.out, webhook)
        self.drift = DriftWatch(self.store, self.run_id, self.settings,
                                self.store.get_run(self.run_id).spec_map(), self.box,
                                self.sink, self.say)
        self.counts = self.store.trace_counts(self.run_id)
        self._reload()

    def _reload(self) -> None:
        """Open traces back into the assembler, queued ones back into the queue."""
        queued: list[tuple[str, list[Span]]] = []
        for pending in self.store.pending_traces(self.run_id):
            spans = [span_from_json(s) for s in pending.spans]
            if pending.state == "open":
                self.assembler.add(spans)
            else:
                queued.append((pending.trace_id, spans))
        done: list[tuple[str, str, str | None]] = []
        for trace_id, spans in queued:
            sample = build_sample(trace_id, spans, self.rules)
            if isinstance(sample, str):
                done.append((trace_id, "invalid", sample))
            else:
                self.queue.append(sample)
        self._completed(done)

    # -- intake -----------------------------------------------------------------------

    def full(self, more_spans: int = 0) -> bool:
        held = self.assembler.held + len(self.queue)
        return (held >= self.options.max_queue
                or self.assembler.spans + more_spans > self.options.max_spans)

    def accept(self, spans: list[Span], state: FollowState | None = None) -> Accepted:
        """Store spans (the ledger first: nothing acknowledged is lost), then hold those
        of open traces. Synchronous on the loop, so no trace completes in between."""
        rows = [(s.trace_id, s.span_id, span_json(s)) for s in spans]
        saved = None
        if state is not None:
            saved = self.box.state.model_copy(update={"follow": state})
        got = self.store.accept_spans(self.run_id, rows,
                                      saved.model_dump_json() if saved else None)
        if saved is not None:
            self.box.state = saved
        self.counts["open"] += len(got.new_traces)
        new = set(got.new_traces)
        self.assembler.add([s for s in spans
                            if s.trace_id in new or self.assembler.is_open(s.trace_id)])
        return got

    async def _deliver(self, spans: list[Span], state: FollowState) -> bool:
        """A followed file's line: stored, unless the monitor is full or draining."""
        if self.draining or self.full(len(spans)):
            return False
        self.accept(spans, state)
        return True

    def health(self) -> dict[str, Any]:
        return {"status": "draining" if self.draining else "ok", "run": self.run_id,
                "name": self.settings.name, "traces": self.totals(),
                "queue": len(self.queue), "open": self.assembler.held,
                "spans_held": self.assembler.spans,
                "uptime_s": round(time.monotonic() - self.started, 1)}

    def totals(self) -> dict[str, int]:
        """Traces accepted by the run, by state (those retention deleted included), and
        in all."""
        out = {k: v + self.box.state.pruned.get(k, 0) for k, v in self.counts.items()}
        return {**out, "accepted": sum(out.values())}

    # -- completion and scoring -------------------------------------------------------

    def _complete_due(self, everything: bool = False) -> None:
        done: list[tuple[str, str, str | None]] = []
        for trace_id in self.assembler.due(everything=everything):
            spans = self.assembler.take(trace_id)
            sample = build_sample(trace_id, spans, self.rules)
            if isinstance(sample, str):
                done.append((trace_id, "invalid", sample))
            elif sampled(trace_id, self.settings.sample):
                done.append((trace_id, "queued", None))
                self.queue.append(sample)
            else:
                done.append((trace_id, "unsampled", None))
        self._completed(done)

    def _completed(self, done: list[tuple[str, str, str | None]]) -> None:
        if not done:
            return
        self.store.complete_traces(self.run_id, done)
        for _, state, _ in done:
            self.counts["open"] -= 1
            self.counts[state] += 1

    async def _score_once(self) -> int:
        """Score up to a batch of queued traces; how many."""
        batch = [self.queue[i] for i in range(min(self.options.batch, len(self.queue)))]
        if not batch:
            return 0
        assert self.feed is not None
        await self.feed.score(list(batch))
        for _ in batch:
            self.queue.popleft()
        first = self.store.mark_scored(self.run_id, [s.id for s in batch])
        self.counts["queued"] -= len(batch)
        self.counts["scored"] += len(batch)
        self.scored_here += len(batch)
        self.drift.observe(first, len(batch))
        return len(batch)

    async def flush(self) -> None:
        """Complete every held trace now and score the whole queue (in-process callers:
        the benchmark, tests; the served monitor does it as time passes)."""
        self._complete_due(everything=True)
        while self.queue:
            await self._score_once()

    async def _scorer(self, stop: asyncio.Event) -> None:
        """Score queued traces until stopped. A failing judge is said, the run's feed
        closed and opened again after a pause; queued traces wait (and, once the queue
        is full, requests get 429)."""
        while not stop.is_set():
            try:
                if self.feed is None:
                    self.feed = open_feed(monitor_plan(self.store, self.settings,
                                                       self.options, self.run_id))
                if not await self._score_once():
                    await _sleep(stop, TICK_S)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the judge failed: keep receiving, retry later
                self.problem(f"scoring stopped ({type(exc).__name__}: {exc}); queued "
                              f"traces are kept, retrying in {RETRY_SCORING_S:.0f}s")
                if self.feed is not None:
                    with contextlib.suppress(Exception):
                        await self.feed.close("interrupted")
                    self.feed = None
                await _sleep(stop, RETRY_SCORING_S)

    def say(self, message: str) -> None:
        """A line for the person, on stderr."""
        print(f"monitor: {message}", file=self.err, flush=True)

    def problem(self, message: str) -> None:
        """Say a problem: an `error` event and a line on stderr."""
        self.sink.emit({"event": "error", "message": message})
        print(f"monitor: {message}", file=self.err, flush=True)

    # -- running ----------------------------------------------------------------------

    async def bind(self) -> None:
        """Take the listening address before anything is created (a taken port stops the
        command before a run exists): OSError when it cannot."""
        if self.options.listen is not None:
            self.server = HttpServer(self.endpoint.early, self.endpoint.handle,
                                     max_body=self.options.max_body)
            self.bound = await self.server.bind(*self.options.listen)

    async def run(self, stop: asyncio.Event) -> None:
        """Serve until `stop` is set, then drain (`open` first; `bind` too to listen)."""
        server = self.server
        if server is not None:
            await server.serve()
        tasks = [asyncio.create_task(self._ticker(stop))]
        if self.options.follow is not None:
            self.follower = Follower(self.options.follow, self.box.state.follow, self._deliver,
                                     self.problem)
            tasks.append(asyncio.create_task(self.follower.run(stop)))
        self.sink.emit({"event": "start", "name": self.settings.name,
                        "listen": f"{self.bound[0]}:{self.bound[1]}" if self.bound else None,
                        "follow": str(self.options.follow) if self.options.follow else None,
                        "resumed": self.resume_id is not None, "traces": self.totals()})
        self.drift.resume()
        scorer = asyncio.create_task(self._scorer(stop))
        await stop.wait()
        await self._drain(server, tasks, scorer)

    async def _ticker(self, stop: asyncio.Event) -> None:
        last_stats = last_prune = time.monotonic()
        self._prune()
        while not stop.is_set():
            self._complete_due()
            now = time.monotonic()
            if self.options.stats_s and now - last_stats >= self.options.stats_s:
                last_stats = now
                self.stats_event()
            if self.options.keep_days and now - last_prune >= RETENTION_EVERY_S:
                last_prune = now
                self._prune()
            await _sleep(stop, TICK_S)

    def stats_event(self) -> None:
        """A `stats` event; each metric's newest window is kept in the state too (what
        `runs show` and the dashboard show as "now")."""
        current = self.drift.current()
        self.box.update(current=current)
        self.sink.emit({"event": "stats", "traces": self.totals(), "queue": len(self.queue),
                        "open": self.assembler.held, "requests": self.endpoint.tally.as_dict(),
                        "current": current})

    def _prune(self) -> None:
        if not self.options.keep_days:
            return
        before = (datetime.now(UTC) - timedelta(days=self.options.keep_days)).isoformat()
        counts = self.store.trace_counts(self.run_id)
        gone = self.store.prune_monitor(self.run_id, before)
        if gone:
            after = self.store.trace_counts(self.run_id)
            pruned = dict(self.box.state.pruned)
            for k in TRACE_STATES:
                pruned[k] = pruned.get(k, 0) + counts[k] - after[k]
            self.box.update(pruned=pruned)
            self.counts = after
            self.sink.emit({"event": "retention", "deleted": gone, "before": before})

    async def _drain(self, server: HttpServer | None, tasks: list[asyncio.Task[Any]],
                     scorer: asyncio.Task[None]) -> None:
        """Stop taking traces (new connections refused, requests on open ones answered
        503), let the requests in flight be stored, score what is queued for at most
        `drain_s`, and close the run `interrupted` (a restart resumes it)."""
        self.draining = True
        if server is not None:
            server.stop_listening()
            await server.finish(10.0)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._complete_due()
        with contextlib.suppress(Exception):
            await scorer
        deadline = time.monotonic() + self.options.drain_s
        try:
            while self.queue and time.monotonic() < deadline:
                await asyncio.wait_for(self._score_once(),
                                       max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            pass  # what is left stays queued: the next start scores it
        except Exception as exc:  # a failing judge: said; the run is still closed
            self.problem(f"scoring during the drain stopped: {exc}")
        if server is not None:
            await server.close()
        if self.feed is not None:
            await self.feed.close("interrupted")
        if self.sink.webhook is not None:
            await self.sink.webhook.close()
        self.sink.emit({"event": "stopped", "traces": self.totals(),
                        "queue": len(self.queue), "open": self.assembler.held,
                        "scored_here": self.scored_here})


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
