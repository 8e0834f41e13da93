"""The one place that wires dataset, judge, suites and store together.

Samples stream in batches; each (sample, suite) judgment is committed to the store
the moment it completes, so a killed run loses at most the judgments in flight,
and `resume` skips everything that already has a row.
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
                   cached=c.cached, status=c.status, error=c.error)
        for c in outcome.calls
    ]


def build_judge(config: RunConfig, store: Store) -> Judge:
    from ragassay.llm import BackendOptions

    options = BackendOptions(base_url=config.base_url, concurrency=config.concurrency,
                             **config.extra.get("backend", {}))
    return make_judge(config.judge, cache=store, use_cache=config.use_cache,
                      backend_options=options)


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

    async def one(sample: Sample, suite: Suite) -> None:
        async with gate:
            outcome = await suite.evaluate(sample, judge, options)
        store.save_result(run_id, outcome.result, _call_records(sample, suite.name, outcome))
        stats.usage = stats.usage + outcome.result.usage
        stats.per_suite[suite.name] = stats.per_suite.get(suite.name, Usage()) + \
            outcome.result.usage

    status = "failed"
    try:
        for batch in _batches(samples, max(32, 4 * config.concurrency)):
            store.add_samples(run_id, batch)
            valid = [s for s in batch if isinstance(s, Sample)]
            stats.invalid += len(batch) - len(valid)
            todo = [(s, suite) for s in valid for suite in suites
                    if (s.id, suite.name) not in done]
            stats.skipped += len(valid) * len(suites) - len(todo)
            if todo:
                await judge.prepare(list({id(s): s for s, _ in todo}.values()))
            await asyncio.gather(*(one(s, suite) for s, suite in todo))
            judge.release(valid)
            stats.samples += len(valid)
            if progress:
                progress.advance(len(batch), stats.usage)
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    finally:
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
