"""The one place that wires dataset, judge, suites and store together.

Samples stream in batches through a sliding window (the next batch is queued while
the last judgments of the previous one are in flight); each (sample, suite) judgment
is committed to the store the moment it completes, so a killed run loses at most the
judgments in flight, and `resume` skips everything that already has a row.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from pydantic import SecretStr

from ragassay import __version__
from ragassay.aio import run_sync
from ragassay.judge import Asker, Judge, make_judge
from ragassay.judge.offline import Evidence
from ragassay.judge.offline_judge import OfflineJudge
from ragassay.judge.reliability import reliability_meta
from ragassay.metrics import Outcome, Suite, SuiteOptions, get_suites
from ragassay.store import CallRecord, Store
from ragassay.text import KeyedSample, key_sample
from ragassay.types import InvalidRow, RunConfig, Sample, Usage, is_offline


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
    """One batch read from the input: counted as done when `left` judgments hit 0.

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


def build_judge(config: RunConfig, cache: Any,
                headers: Mapping[str, str] | None = None) -> Judge:
    """The run's judge over `cache` (the store, or a Ray worker's view of it); `headers`
    go to its backend with every request, never stored. Several endpoints
    (`config.base_urls`) are spread by one `llm.Spread` backend."""
    options = config.backend_options()
    if headers:
        options = options.model_copy(update={
            "headers": {k: SecretStr(v) for k, v in headers.items()}})
    urls = config.endpoints()
    if len(urls) > 1 and not is_offline(config.judge):
        from ragassay.judge.llm_judge import LLMJudge
        from ragassay.llm import spread_backend

        return LLMJudge(spread_backend(config.judge, options, urls), cache=cache,
                        use_cache=config.use_cache, spec=config.judge,
                        ratings=config.ratings)
    return make_judge(config.judge, cache=cache, use_cache=config.use_cache,
                      backend_options=options, ratings=config.ratings)


def judge_notes(judge: Judge) -> list[str]:
    """What the judge's backend had to say about the run (endpoints left out)."""
    return list(getattr(getattr(judge, "backend", None), "notes", None) or [])


async def judge_one(suite: Suite, item: KeyedSample, evidence: Evidence | None,
                    asker: Asker | None, options: SuiteOptions) -> Outcome:
    """One (sample, suite) judgment: from the offline judge's evidence, or by asking."""
    if evidence is not None:
        return suite.keep_chosen(suite.evaluate_offline(item, evidence, options))
    assert asker is not None
    return suite.keep_chosen(await suite.evaluate(item, asker, options))


def suite_options(config: RunConfig, suites: Sequence[Suite], judge: Judge) -> SuiteOptions:
    """The suites' options; an embedder the LLM path needs is built here, before the run
    fans out (importing it from worker threads while the SDK imports raced)."""
    embedder = None
    if judge.kind == "llm" and any(s.uses_embedder for s in suites):
        from ragassay.embed import get_embedder, sentence_embedder_spec

        embedder = get_embedder(sentence_embedder_spec())
    return SuiteOptions(n_questions=config.n_questions, embedder=embedder)


def embedders_used(judge: Judge, options: SuiteOptions) -> list[str]:
    """The embedders a run really used, for its report."""
    names = []
    if isinstance(judge, OfflineJudge):
        names.append(f"offline judge: {judge.embedder_name}")
    if options.embedder is not None:
        names.append(f"answer relevancy: {getattr(options.embedder, 'name', 'embedder')}")
    return names


def with_prompt_versions(config: RunConfig, suites: Sequence[Suite]) -> RunConfig:
    """The config as stored with the run: with the versions of the suites' prompts."""
    versions = {k: v for s in suites for k, v in s.prompt_versions().items()}
    return config.model_copy(update={"prompt_versions": versions})


def open_run(store: Store, config: RunConfig, suites: Sequence[Suite], judge_model: str,
             resume: str | None, dataset_hash: str | None,
             meta: dict[str, Any] | None = None) -> tuple[str, set[tuple[str, str]]]:
    """The run's id (created with `meta`, or the one resumed: leased to this process)
    and the (sample, suite) judgments already done."""
    if resume:
        run_id = store.get_run(resume).id
        done = store.done_keys(run_id)
        store.finish_run(run_id, "running")
        return run_id, done
    specs = [spec for s in suites for spec in s.chosen_specs]
    run_id = store.create_run(config, package_version=__version__, dataset_hash=dataset_hash,
                              judge_model=judge_model, specs=specs, meta=meta)
    return run_id, set()


def run_meta(stats: RunStats, embedders: list[str], notes: list[str],
             engine: str = "local") -> dict[str, Any]:
    """What a finished run records in its meta (the engine of its last part)."""
    meta: dict[str, Any] = {"samples": stats.samples, "invalid": stats.invalid,
                            "seconds": stats.seconds, "embedders": embedders,
                            "engine": engine}
    if notes:
        meta["notes"] = notes
    return meta


@dataclass
class RunInputs:
    """What a run is given besides its samples and config; one object instead of many
    keyword arguments (`evaluate`, the sync entry point, takes them by keyword)."""

    store: Store
    resume: str | None = None
    judge: Judge | None = None
    progress: Progress | None = None
    total: int | None = None
    dataset_hash: str | None = None
    headers: Mapping[str, str] | None = None  # for the judge's backend; never stored
    stop: threading.Event | None = None  # set: the Ray driver stops, the run "interrupted"


class _Run:
    """One run's state: the sliding window of (sample, suite) judgments into the store."""

    def __init__(self, config: RunConfig, inputs: RunInputs) -> None:
        self.suites: list[Suite] = get_suites(config.metrics)
        self.config = with_prompt_versions(config, self.suites)
        self.inputs = inputs
        self.store = inputs.store
        self.own_judge = inputs.judge is None
        self.judge = inputs.judge or build_judge(self.config, self.store, inputs.headers)
        self.offline = self.judge if isinstance(self.judge, OfflineJudge) else None
        self.asker = None if self.offline is not None else cast(Asker, self.judge)
        names = [spec.name for s in self.suites for spec in s.chosen_specs]
        self.run_id, self.done = open_run(self.store, self.config, self.suites,
                                          self.judge.model, inputs.resume, inputs.dataset_hash,
                                          {"reliability": reliability_meta(self.judge, names)})
        self.stats = RunStats(run_id=self.run_id)
        self.options = suite_options(self.config, self.suites, self.judge)
        self.gate = asyncio.Semaphore(max(1, config.concurrency))
        self.batch_size = max(32, 4 * config.concurrency)
        self.window = self.batch_size * max(1, len(self.suites))  # queued before reading more
        self.running: set[asyncio.Task[None]] = set()

    async def one(self, item: KeyedSample, suite: Suite, batch: _Batch,
                  evidence: Evidence | None) -> None:
        sample, progress, stats = item.sample, self.inputs.progress, self.stats
        async with self.gate:
            outcome = await judge_one(suite, item, evidence, self.asker, self.options)
            # Saved (and the batch finished) before the slot is handed on: a Ctrl-C raised
            # by a progress sink stops the run before the next judgment is sent.
            self.store.save_result(self.run_id, outcome.result,
                                   _call_records(sample, suite.name, outcome))
            stats.usage = stats.usage + outcome.result.usage
            stats.per_suite[suite.name] = stats.per_suite.get(suite.name, Usage()) + \
                outcome.result.usage
            batch.waiting[id(sample)] -= 1
            if progress and batch.waiting[id(sample)] == 0:
                progress.advance(1, stats.usage)
            batch.left -= 1
            if batch.left == 0:
                stats.samples += len(batch.valid)

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
        keyed = {id(s): key_sample(s, self.config.max_context_tokens)
                 for s in {id(s): s for s, _ in todo}.values()}
        evidence: dict[int, Evidence] = {}
        if self.offline is not None:  # the whole batch's evidence in one go, off the loop
            found = await asyncio.to_thread(self.offline.analyze, list(keyed.values()))
            evidence = dict(zip(keyed, found, strict=True))
        self.running.update(asyncio.create_task(self.one(keyed[id(s)], suite, batch,
                                                         evidence.get(id(s))))
                            for s, suite in todo)

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
        self.stats.seconds = time.perf_counter() - started
        if self.inputs.progress:
            self.inputs.progress.finish()
        self.store.finish_run(self.run_id, status, run_meta(
            self.stats, embedders_used(self.judge, self.options), judge_notes(self.judge)))
        if self.own_judge:
            await self.judge.aclose()


async def run_async(samples: Iterable[Sample | InvalidRow], config: RunConfig,
                    inputs: RunInputs) -> RunStats:
    """Evaluate samples into the store; returns the run's id and counters. The async
    core: `evaluate` (sync), `ragassay.aevaluate` and the bench call it."""
    run = _Run(config, inputs)
    progress, total = inputs.progress, inputs.total
    started = time.perf_counter()
    if progress:
        progress.start(total)
    status = "failed"
    try:
        # A sliding window, not batch by batch: the next batch is read (stored, keyed,
        # analysed, queued) while the previous one's last judgments are still in flight, so
        # the judge is never idle at a batch boundary; memory stays bounded by two batches.
        for items in _batches(samples, run.batch_size):
            await run.feed(items)
        await run.settle(1)
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    finally:
        await run.close(status, started)
    return run.stats


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
    headers: Mapping[str, str] | None = None,
    ray: Any = None,
) -> RunStats:
    """The one synchronous entry point: evaluate samples and record them in the store.
    Works inside a running event loop too (a notebook): the run gets a loop of its own.
    With `ray` (a `RayOptions`), Ray actors judge instead (`runner.ray_engine`: same
    results, same store); the judge is then built from the config on each worker."""
    inputs = RunInputs(store, resume, judge, progress, total, dataset_hash, headers)
    if ray is not None:
        if judge is not None:
            raise ValueError("with ray=, the judge is built on each worker from the config: "
                             "pass no judge object")
        from ragassay.runner.ray_engine import run_on_ray

        return run_on_ray(samples, config, inputs, ray)
    return run_sync(run_async(samples, config, inputs))
