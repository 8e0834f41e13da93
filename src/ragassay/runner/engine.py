"""The local engine: one asyncio task per (sample, suite), into the store.

Samples stream in batches through a sliding window (the next batch is queued while
the last judgments of the previous one are in flight); each (sample, suite) judgment
is committed to the store the moment it completes, so a killed run loses at most the
judgments in flight, and `resume` skips everything that already has a row. What the Ray
engine shares with it (the run's inputs, the judge, judging a batch) is in `judging`.
"""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from ragassay.judge import Asker
from ragassay.judge.offline import Evidence
from ragassay.judge.offline_judge import OfflineJudge
from ragassay.judge.reliability import reliability_meta
from ragassay.metrics import Suite, get_suites
from ragassay.runner.cascade import run_cascade
from ragassay.runner.judging import (
    HopScorer,
    RunInputs,
    RunStats,
    batch_evidence,
    batches,
    build_judge,
    call_records,
    embedders_used,
    failure_of,
    has_traces,
    judge_notes,
    judge_one,
    open_run,
    run_meta,
    suite_options,
    with_prompt_versions,
)
from ragassay.runner.processes import JudgePool, default_workers, one_process_why
from ragassay.runner.ray_worker import BatchIn
from ragassay.text import KeyedSample, key_sample
from ragassay.types import InvalidRow, RunConfig, RunMeta, Sample, Usage


@dataclass
class _Batch:
    """One batch read from the input: counted as done when `left` judgments hit 0.

    `waiting` counts, per sample (by object id), the suites not yet saved: the progress
    bar advances by one sample when its last suite is saved.
    """

    size: int
    valid: list[Sample]
    left: int
    waiting: dict[int, int] = field(default_factory=dict)


class LocalRun:
    """One run's state: the sliding window of (sample, suite) judgments into the store.

    Made, the run is open (created, or resumed and leased) and its judge built; `feed`
    stores, keys and queues one batch of input, `drain` waits for every judgment queued,
    `close` records the status. `run_async` drives it over an input; a caller that gets its
    input over time (a long-lived run) feeds it batch by batch itself."""

    def __init__(self, config: RunConfig, inputs: RunInputs, with_done: bool = True) -> None:
        self.suites: list[Suite] = get_suites(config.metrics)
        self.config = with_prompt_versions(config, self.suites)
        self.inputs = inputs
        self.store = inputs.store
        self.own_judge = inputs.judge is None
        self.judge = inputs.judge or build_judge(self.config, self.store, inputs.headers)
        self.offline = self.judge if isinstance(self.judge, OfflineJudge) else None
        self.asker = None if self.offline is not None else cast(Asker, self.judge)
        names = [spec.name for s in self.suites for spec in s.chosen_specs]
        self.run_id, self.done = open_run(self.config, self.suites, self.judge.model, inputs,
                                          RunMeta(reliability=reliability_meta(self.judge,
                                                                               names)),
                                          with_done)
        self.stats = RunStats(run_id=self.run_id)
        self.failure: str | None = None  # why the run failed, when it does
        self.options = suite_options(self.config, self.suites, self.judge)
        self.gate = asyncio.Semaphore(max(1, config.concurrency))
        self.batch_size = max(32, 4 * config.concurrency)
        self.window = self.batch_size * max(1, len(self.suites))  # queued before reading more
        self.running: set[asyncio.Task[None]] = set()
        self.pool: JudgePool | None = None
        workers = pool_size(inputs, self.batch_size)
        if self.offline is not None and (workers := startable_workers(
                workers, asked=inputs.workers is not None, total=inputs.total)) > 1:
            # CPU-bound judging in worker processes: a task per batch, two per worker
            self.pool = JudgePool(self.config, workers)
            self.window = 2 * workers
        # hops of trace samples: scored here, or (CPU-bound too) in a worker process
        self.hops = HopScorer(self.offline) if self.pool is None else None

    async def one(self, item: KeyedSample, suite: Suite, batch: _Batch,
                  evidence: Evidence | None) -> None:
        sample, progress, stats = item.sample, self.inputs.progress, self.stats
        async with self.gate:
            outcome = await judge_one(suite, item, evidence, self.asker, self.options)
            # Saved (and the batch finished) before the slot is handed on: a Ctrl-C raised
            # by a progress sink stops the run before the next judgment is sent.
            self.store.save_result(self.run_id, outcome.result,
                                   call_records(sample, suite.name, outcome))
            stats.usage = stats.usage + outcome.result.usage
            stats.per_suite[suite.name] = stats.per_suite.get(suite.name, Usage()) + \
                outcome.result.usage
            batch.waiting[id(sample)] -= 1
            if progress and batch.waiting[id(sample)] == 0:
                progress.advance(1, stats.usage)
            batch.left -= 1
            if batch.left == 0:
                stats.samples += len(batch.valid)

    async def in_worker(self, todo: list[tuple[Sample, Suite]], batch: _Batch) -> None:
        """A batch's judgments made by a worker process, saved in one transaction."""
        assert self.pool is not None
        samples = list({id(s): s for s, _ in todo}.values())
        index = {id(s): i for i, s in enumerate(samples)}
        out = await self.pool.judge(BatchIn(samples=samples,
                                            todo=[(index[id(s)], suite.name)
                                                  for s, suite in todo]))
        self.store.save_results(self.run_id, out.results, out.cache)
        stats = self.stats
        for name, usage in out.usage.items():
            stats.usage = stats.usage + usage
            stats.per_suite[name] = stats.per_suite.get(name, Usage()) + usage
        stats.peak_rss_mib[out.pid] = max(out.peak_rss_mib, stats.peak_rss_mib.get(out.pid, 0))
        stats.worker_cpu_s[out.pid] = max(out.cpu_s, stats.worker_cpu_s.get(out.pid, 0))
        stats.samples += len(batch.valid)
        if self.inputs.progress:
            self.inputs.progress.advance(len(batch.waiting), stats.usage)

    async def settle(self, limit: int) -> None:
        """Wait until fewer than `limit` judgments are running; re-raise their errors."""
        while len(self.running) >= max(limit, 1):
            finished, self.running = await asyncio.wait(self.running,
                                                        return_when=asyncio.FIRST_COMPLETED)
            for task in finished:  # retrieve every failure, not only the one raised below
                if not task.cancelled():
                    task.exception()
            for task in finished:
                task.result()

    async def feed(self, items: list[Sample | InvalidRow]) -> None:
        """Store one batch read from the input, key it, analyse it (offline judge) and
        queue its judgments."""
        await self.settle(self.window)
        stats, progress = self.stats, self.inputs.progress
        if self.hops is not None:
            items = await asyncio.to_thread(self.hops, items)
        elif self.pool is not None and has_traces(items):
            items = await self.pool.score_hops(items)
        self.store.add_samples(self.run_id, items)
        valid = [s for s in items if isinstance(s, Sample)]
        stats.invalid += len(items) - len(valid)
        todo = [(s, suite) for s in valid for suite in self.suites
                if (s.id, suite.name) not in self.done]
        stats.skipped += len(valid) * len(self.suites) - len(todo)
        batch = _Batch(size=len(items), valid=valid, left=len(todo))
        for s, _ in todo:
            batch.waiting[id(s)] = batch.waiting.get(id(s), 0) + 1
        if progress and len(items) > len(batch.waiting):  # invalid or already done
            progress.advance(len(items) - len(batch.waiting), stats.usage)
        if not todo:
            stats.samples += len(valid)
            return
        if self.pool is not None:
            self.running.add(asyncio.create_task(self.in_worker(todo, batch)))
            return
        keyed = {id(s): key_sample(s, self.config.max_context_tokens)
                 for s in {id(s): s for s, _ in todo}.values()}
        evidence = await batch_evidence(keyed, self.offline)
        self.running.update(asyncio.create_task(self.one(keyed[id(s)], suite, batch,
                                                         evidence.get(id(s))))
                            for s, suite in todo)

    async def drain(self) -> None:
        """Wait for every judgment queued (re-raising the first failure)."""
        await self.settle(1)

    async def close(self, status: str, started: float) -> None:
        """Cancel what is in flight, record the run's status, close an own judge."""
        pending = [t for t in self.running if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for task in self.running:  # mark failures seen: the first one is already raising
            if task.done() and not task.cancelled():
                task.exception()
        if self.pool is not None:
            await asyncio.to_thread(self.pool.close)
        self.stats.seconds = time.perf_counter() - started
        if self.inputs.progress:
            self.inputs.progress.finish()
        meta = run_meta(self.stats, embedders_used(self.judge, self.options),
                        judge_notes(self.judge))
        if self.pool is not None:
            meta = meta.merged(RunMeta(workers=self.pool.workers, worker_peak_rss_mib={
                str(pid): mib for pid, mib in self.stats.peak_rss_mib.items()}))
        self.store.finish_run(self.run_id, status, meta, failure=self.failure)
        if self.own_judge:
            await self.judge.aclose()


def pool_size(inputs: RunInputs, batch_size: int) -> int:
    """The worker processes a run gets: `inputs.workers` (None: `default_workers`), no
    more than its input has batches when the total is known (a small input is judged in
    this process: a pool's start costs more than it saves)."""
    workers = inputs.workers if inputs.workers is not None else default_workers()
    if inputs.total is not None:
        workers = min(workers, -(-inputs.total // batch_size))
    return max(1, workers)


QUIET_UP_TO = 1000
"""Samples a run under the default worker count judges in one process without a warning
when its workers cannot start: about 14 s at one process's 72 samples/s, of which two
workers would save ~6 s (benches/RESULTS.md, "All cores on one machine")."""


def startable_workers(workers: int, *, asked: bool, total: int | None) -> int:
    """`workers`, or 1 when worker processes could not start from this call
    (`processes.one_process_why`: they would re-run the main script and die starting),
    with a warning at the script's line that says why and how to use them where one
    process costs the caller: workers `asked` for by name, or an input of more than
    `QUIET_UP_TO` samples (or of unknown size). A smaller input under the default count
    is judged in one process quietly (the README's example, run as a script, warned)."""
    if workers <= 1 or (why := one_process_why(workers)) is None:
        return workers
    if asked or total is None or total > QUIET_UP_TO:
        script, line, message = why
        warnings.warn_explicit(message, RuntimeWarning, script, line)
    return 1


async def run_async(samples: Iterable[Sample | InvalidRow], config: RunConfig,
                    inputs: RunInputs) -> RunStats:
    """Evaluate samples into the store; returns the run's id and counters. The async
    core: `evaluate` (sync), `ragassay.aevaluate` and the bench call it. A config with
    a routing plan (a cascade, a jury) runs through `cascade.run_cascade`."""
    if config.routing is not None:
        return await run_cascade(samples, config, inputs)
    run = LocalRun(config, inputs)
    progress, total = inputs.progress, inputs.total
    started = time.perf_counter()
    if progress:
        progress.start(total)
    status = "failed"
    try:
        # A sliding window, not batch by batch: the next batch is read (stored, keyed,
        # analysed, queued) while the previous one's last judgments are still in flight, so
        # the judge is never idle at a batch boundary; memory stays bounded by two batches.
        for items in batches(samples, run.batch_size):
            await run.feed(items)
        await run.drain()
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    except Exception as exc:
        run.failure = failure_of(exc)
        raise
    finally:
        await run.close(status, started)
    return run.stats


class RunFeed:
    """A long-lived run fed its samples as they arrive (the monitor), through the same
    engine as `run_async`: opened once (a new run, or `inputs.resume`), each batch stored,
    hop-scored, keyed and judged (`score`, which returns once every judgment of the batch
    is saved), closed with a status. It never reads the judgments already done: it is
    given only samples not yet judged."""

    def __init__(self, config: RunConfig, inputs: RunInputs) -> None:
        self._run = LocalRun(config, inputs, with_done=False)
        self._started = time.perf_counter()
        self._closed = False

    @property
    def run_id(self) -> str:
        return self._run.run_id

    @property
    def stats(self) -> RunStats:
        return self._run.stats

    async def score(self, items: list[Sample | InvalidRow]) -> None:
        """Store and judge one batch; raises what a judgment raised (the run is then to
        be closed "failed" or "interrupted" by the caller)."""
        if items:
            await self._run.feed(items)
            await self._run.settle(1)

    async def close(self, status: str) -> None:
        """Cancel what is in flight and record the run's status (idempotent)."""
        if not self._closed:
            self._closed = True
            await self._run.close(status, self._started)
