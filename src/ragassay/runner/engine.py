"""The one place that wires dataset, judge, suites and store together.

Samples stream in batches through a sliding window (the next batch is queued while
the last judgments of the previous one are in flight); each (sample, suite) judgment
is committed to the store the moment it completes, so a killed run loses at most the
judgments in flight, and `resume` skips everything that already has a row.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from ragassay import __version__
from ragassay.judge import Judge, make_judge
from ragassay.metrics import Outcome, Suite, SuiteOptions, get_suites
from ragassay.store import CallRecord, Store
from ragassay.types import InvalidRow, RunConfig, Sample, Usage


class Progress(Protocol):
    """Receives progress; the CLI draws a bar, tests and the UI collect it."""

    def start(self, total: int | None) -> None: ...

    def advance(self, samples: int, usage: Usage) -> None: ...

    def finish(self) -> None: ...


@dataclass
class RunStats:
    """What a run did, returned to the caller (the report reads the store)."""

    run_id: str
    samples: int = 0
    invalid: int = 0
    skipped: int = 0  # judgments already done before a resume
    usage: Usage = Usage()
    seconds: float = 0.0
    per_suite: dict[str, Usage] = field(default_factory=dict)


@dataclass
class _Batch:
    """One batch read from the input: released when `left` judgments hit 0.

    `waiting` counts, per sample (by object id), the suites not yet saved: the progress
    bar advances by one sample when its last suite is saved.
    """

    size: int
    valid: list[Sample]
    left: int
    waiting: dict[int, int] = field(default_factory=dict)


def _batches(items: Iterable[Sample | InvalidRow], size: int
             ) -> Iterator[list[Sample | InvalidRow]]:
    batch: list[Sample | InvalidRow] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _call_records(sample: Sample, suite: str, outcome: Outcome) -> list[CallRecord]:
    return [
        CallRecord(sample_id=sample.id, suite=suite, prompt=c.prompt, cache_key=c.cache_key,
                   model=c.model, input_tokens=c.usage.input_tokens,
                   output_tokens=c.usage.output_tokens, latency_s=c.usage.latency_s,
                   cached_tokens=c.usage.cached_tokens,
                   cached=c.cached, status=c.status, error=c.error)
        for c in outcome.calls
    ]


def build_judge(config: RunConfig, store: Store) -> Judge:
    from ragassay.llm import BackendOptions

    options = BackendOptions(base_url=config.base_url, concurrency=config.concurrency,
                             **config.extra.get("backend", {}))
    return make_judge(config.judge, cache=store, use_cache=config.use_cache,
                      backend_options=options,
                      ratings=config.extra.get("judge", {}).get("ratings", "expected"))


def suite_options(config: RunConfig) -> SuiteOptions:
    return SuiteOptions(max_context_tokens=config.max_context_tokens,
                        n_questions=int(config.extra.get("n_questions", 3)))


async def run_async(
    samples: Iterable[Sample | InvalidRow],
    config: RunConfig,
    *,
    store: Store,
    resume: str | None = None,
    judge: Judge | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    dataset_hash: str | None = None,
) -> RunStats:
    """Evaluate samples into the store; returns the run's id and counters."""
    suites: list[Suite] = get_suites(config.metrics)
    versions = {k: v for s in suites for k, v in s.prompt_versions().items()}
    config = config.model_copy(update={"prompt_versions": versions})
    own_judge = judge is None
    judge = judge or build_judge(config, store)
    if resume:
        run_id = store.get_run(resume).id
        done = store.done_keys(run_id)
        store.finish_run(run_id, "running")
    else:
        run_id = store.create_run(config, package_version=__version__,
                                  dataset_hash=dataset_hash, judge_model=judge.model)
        done = set()
    stats = RunStats(run_id=run_id)
    options = suite_options(config)
    gate = asyncio.Semaphore(max(1, config.concurrency))
    started = time.perf_counter()
    if progress:
        progress.start(total)

    batch_size = max(32, 4 * config.concurrency)
    window = batch_size * max(1, len(suites))  # judgments queued before reading more
    running: set[asyncio.Task[None]] = set()

    def finish(batch: _Batch) -> None:
        judge.release(batch.valid)
        stats.samples += len(batch.valid)

    async def one(sample: Sample, suite: Suite, batch: _Batch) -> None:
        async with gate:
            outcome = await suite.evaluate(sample, judge, options)
            # Saved (and the batch finished) before the slot is handed on: a Ctrl-C raised
            # by a progress sink stops the run before the next judgment is sent.
            store.save_result(run_id, outcome.result,
                              _call_records(sample, suite.name, outcome))
            stats.usage = stats.usage + outcome.result.usage
            stats.per_suite[suite.name] = stats.per_suite.get(suite.name, Usage()) + \
                outcome.result.usage
            batch.waiting[id(sample)] -= 1
            if progress and batch.waiting[id(sample)] == 0:
                progress.advance(1, stats.usage)
            batch.left -= 1
            if batch.left == 0:
                finish(batch)

    async def settle(limit: int) -> None:
        """Wait until fewer than `limit` judgments are running; re-raise their errors."""
        nonlocal running
        while len(running) >= max(limit, 1):
            finished, running = await asyncio.wait(running,
                                                   return_when=asyncio.FIRST_COMPLETED)
            for task in finished:  # retrieve every failure, not only the one raised below
                if not task.cancelled():
                    task.exception()
            for task in finished:
                task.result()

    status = "failed"
    try:
        # A sliding window, not batch by batch: the next batch is read (stored, prepared,
        # queued) while the previous one's last judgments are still in flight, so the
        # judge is never idle at a batch boundary; memory stays bounded by two batches.
        for items in _batches(samples, batch_size):
            await settle(window)
            store.add_samples(run_id, items)
            valid = [s for s in items if isinstance(s, Sample)]
            stats.invalid += len(items) - len(valid)
            todo = [(s, suite) for s in valid for suite in suites
                    if (s.id, suite.name) not in done]
            stats.skipped += len(valid) * len(suites) - len(todo)
            batch = _Batch(size=len(items), valid=valid, left=len(todo))
            for s, _ in todo:
                batch.waiting[id(s)] = batch.waiting.get(id(s), 0) + 1
            if progress and len(items) > len(batch.waiting):  # invalid or already done
                progress.advance(len(items) - len(batch.waiting), stats.usage)
            if not todo:
                finish(batch)
                continue
            await judge.prepare(list({id(s): s for s, _ in todo}.values()))
            running.update(asyncio.create_task(one(s, suite, batch)) for s, suite in todo)
        await settle(1)
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    finally:
        pending = [t for t in running if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for task in running:  # mark failures seen: the first one is already raising
            if task.done() and not task.cancelled():
                task.exception()
        stats.seconds = time.perf_counter() - started
        if progress:
            progress.finish()
        store.finish_run(run_id, status, {
            "samples": stats.samples, "invalid": stats.invalid, "seconds": stats.seconds,
        })
        if own_judge:
            await judge.aclose()
    return stats


def evaluate(
    samples: Iterable[Sample | InvalidRow],
    config: RunConfig,
    *,
    store: Store,
    resume: str | None = None,
    judge: Judge | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    dataset_hash: str | None = None,
) -> RunStats:
    """The one synchronous entry point: evaluate samples and record them in the store."""
    return asyncio.run(run_async(samples, config, store=store, resume=resume, judge=judge,
                                 progress=progress, total=total, dataset_hash=dataset_hash))
