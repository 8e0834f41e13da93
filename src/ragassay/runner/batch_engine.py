"""The batch engine (`ragassay eval --batch`): the run's judge calls through the judge
provider's batch API, at its batch price; the same calls, cache keys and store rows as
the local engine.

A run is a few passes over its samples. Each pass judges every (sample, suite) judgment
not yet saved, exactly as the local engine does, with a judge whose backend answers each
call from its batch reply (`batch_calls.BatchBackend`): a judgment whose calls all have
replies (or cache entries) is validated, scored and saved; one that lacks a reply waits,
and the calls no batch holds are written to the next batches' input files. Between
passes the new batches are submitted and stored before the run waits for them
(`batch_submit.Batches`); the next pass reads the replies. The first pass stores the
samples as it reads them; later passes read them back from the store, so a resume days
later needs only the store (and the same data file, which the CLI checks). Usually two
passes: requests, then scores; a reply that needs a repair, and the calls of a batch that
expired or failed, take one more batch each (once), then fail as a direct call fails, or
with `fallback="direct"` are sent directly in a last pass.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import SecretStr

from ragassay.aio import run_sync
from ragassay.judge import JudgeAborted
from ragassay.judge.llm_judge import LLMJudge
from ragassay.judge.reliability import reliability_meta
from ragassay.llm import BackendError, Policy
from ragassay.llm.batch import BatchProvider
from ragassay.llm.pricing import batch_price, resolve_price
from ragassay.llm.registry import get_batch_provider
from ragassay.metrics import Outcome, Suite, get_suites
from ragassay.runner.batch_calls import BatchBackend, JudgmentCache, Spool, Tracked
from ragassay.runner.batch_options import BatchOptions
from ragassay.runner.batch_submit import Batches, BatchProgress, Prices
from ragassay.runner.judging import (
    HopScorer,
    RunInputs,
    RunStats,
    batches,
    build_judge,
    call_records,
    embedders_used,
    judge_notes,
    judge_one,
    open_run,
    run_meta,
    suite_options,
    with_prompt_versions,
)
from ragassay.store import BatchRecord, Store, cache_row, prepare_result
from ragassay.text import KeyedSample, key_sample
from ragassay.types import BackendOptions, InvalidRow, RunConfig, RunMeta, Sample, Usage

INPUT_BATCH = 128  # samples read, judged and saved (one transaction) at a time


class BatchSetupError(ValueError):
    """A batch run that cannot start (a judge without a batch API, several endpoints)."""


@dataclass
class _Pass:
    """What one pass left: judgments waiting, and their samples."""

    waiting: int = 0
    samples: int = 0


def failure_text(exc: BackendError) -> str:
    """A batch API failure in one line: the stop, else the reason with the server's
    message (the policy layer's final failures already carry it)."""
    if exc.stop:
        return exc.stop
    if exc.detail and exc.detail not in exc.reason:
        return f"{exc.reason}: {exc.detail}"
    return exc.reason


def backend_options(config: RunConfig, headers: Mapping[str, str] | None) -> BackendOptions:
    """The run's backend options with the request headers (never stored)."""
    options = config.backend_options()
    if headers:
        options = options.model_copy(update={
            "headers": {k: SecretStr(v) for k, v in headers.items()}})
    return options


class _BatchRun:
    """One batch run's state: its judge over the batch backend and its batches."""

    def __init__(self, config: RunConfig, inputs: RunInputs, options: BatchOptions,
                 progress: BatchProgress | None) -> None:
        if len(config.endpoints()) > 1:
            raise BatchSetupError("--batch takes one --base-url (a batch goes to one "
                                  "provider endpoint)")
        self.suites: list[Suite] = get_suites(config.metrics)
        self.config = with_prompt_versions(config, self.suites)
        self.inputs, self.store, self.options = inputs, inputs.store, options
        try:
            provider: BatchProvider = get_batch_provider(
                config.judge, backend_options(config, inputs.headers))
        except BackendError as exc:
            raise BatchSetupError(exc.reason) from None
        direct = inputs.judge or build_judge(self.config, self.store, inputs.headers)
        if not isinstance(direct, LLMJudge) or not isinstance(direct.backend, Policy):
            raise BatchSetupError(f"--batch needs an LLM judge with one endpoint, not "
                                  f"{config.judge}")
        self.direct_judge = direct
        names = [spec.name for s in self.suites for spec in s.chosen_specs]
        self.run_id, self.done = open_run(self.config, self.suites, direct.model, inputs,
                                          RunMeta(reliability=reliability_meta(direct, names)))
        self.store.set_batch_options(self.run_id, options.stored())
        given = config.backend.price
        prices = Prices(batch=batch_price(config.judge, given)[0],
                        direct=resolve_price(config.judge, given)[0])
        self.backend = BatchBackend(direct.backend, provider, self.store, self.run_id,
                                    prices.batch, options.fallback)
        self.judge = LLMJudge(cast(Any, self.backend), cache=self.store,
                              use_cache=config.use_cache, spec=config.judge,
                              ratings=config.ratings)
        self.provider, self.limits = provider, options.limits(provider.limits)
        self.batches = Batches(self.store, self.run_id, provider, prices, options.poll_s,
                               progress)
        self.stats = RunStats(run_id=self.run_id)
        self.suite_options = suite_options(self.config, self.suites, self.judge)
        self.hops = HopScorer(None)

    # -- a pass ---------------------------------------------------------------------------

    async def judge_pass(self, source: Iterable[Sample | InvalidRow], *, first: bool,
                         total: int | None, concurrency: int = 1) -> _Pass:
        """Judge every judgment not saved yet; store the input on the first pass."""
        progress, left = self.inputs.progress, _Pass()
        if progress:
            progress.start(total)
        try:
            for items in batches(source, INPUT_BATCH):
                if first:
                    items = await asyncio.to_thread(self.hops, items)
                    self.store.add_samples(self.run_id, items)
                await self._page(items, first, concurrency, left)
        finally:
            if progress:
                progress.finish()
        return left

    async def _page(self, items: list[Sample | InvalidRow], first: bool, concurrency: int,
                    left: _Pass) -> None:
        stats = self.stats
        valid = [s for s in items if isinstance(s, Sample)]
        todo = [(s, suite) for s in valid for suite in self.suites
                if (s.id, suite.name) not in self.done]
        if first:
            stats.invalid += len(items) - len(valid)
            stats.samples += len(valid)
            stats.skipped += len(valid) * len(self.suites) - len(todo)
        keyed = {s.id: key_sample(s, self.config.max_context_tokens)
                 for s in {s.id: s for s, _ in todo}.values()}
        gate = asyncio.Semaphore(concurrency)
        kept: dict[str, dict[str, Any]] = {}
        saved: list[tuple[Any, list[tuple[str, str]]]] = []

        async def one(sample: Sample, suite: Suite) -> bool:
            """Judge one; whether it was saved (else it waits)."""
            async with gate:
                done = await self._judge(keyed[sample.id], suite, kept)
                if done is None:
                    return False
                outcome, cache = done
                kept.update(cache.puts)
                prepared = prepare_result(outcome.result,
                                          call_records(sample, suite.name, outcome))
                rows = [cache_row(k, v) for k, v in cache.puts.items()]
                if concurrency > 1:  # the direct pass: each paid judgment saved at once
                    self.store.save_results(self.run_id, [prepared], cache=rows)
                else:
                    saved.append((prepared, rows))
                self._count(sample, suite, outcome)
                return True

        ended = await asyncio.gather(*(one(s, suite) for s, suite in todo),
                                     return_exceptions=True)
        if saved:  # a page's judgments and their cache entries in one transaction
            self.store.save_results(self.run_id, [p for p, _ in saved],
                                    cache=[r for _, rows in saved for r in rows])
        for end in ended:
            if isinstance(end, BaseException):
                raise end
        waiting = {s.id for (s, _), end in zip(todo, ended, strict=True) if end is False}
        left.waiting += sum(1 for end in ended if end is False)
        left.samples += len(waiting)
        if self.inputs.progress:
            shown = len(items) if first else len({s.id for s, _ in todo})
            self.inputs.progress.advance(shown - len(waiting), stats.usage)

    async def _judge(self, item: KeyedSample, suite: Suite, kept: dict[str, dict[str, Any]]
                     ) -> tuple[Outcome, JudgmentCache] | None:
        """One judgment with its own cache; None when a call of it waits."""
        cache = JudgmentCache(self.store, kept)
        asker = Tracked(self.judge, cache)
        outcome = await judge_one(suite, item, None, asker, self.suite_options)
        if asker.pending:
            return None
        return outcome, cache

    def _count(self, sample: Sample, suite: Suite, outcome: Outcome) -> None:
        self.done.add((sample.id, suite.name))
        usage = outcome.result.usage
        self.stats.usage = self.stats.usage + usage
        self.stats.per_suite[suite.name] = self.stats.per_suite.get(suite.name, Usage()) + usage

    # -- the batches ----------------------------------------------------------------------

    async def submit(self, spool: Spool) -> None:
        """Submit the spooled calls, a batch per input file, each stored first."""
        spool.close()
        for chunk in spool.chunks:
            await self.batches.submit(chunk.path, chunk.ids, chunk.size)
        if spool.chunks and self.batches.progress is not None:
            self.batches.progress.submitted(len(spool), len(spool.chunks))

    async def guarded(self, step: Any) -> Any:
        """A step against the batch API; its final failure stops the run in one line."""
        try:
            return await step
        except BackendError as exc:
            raise JudgeAborted(f"the batch API of {self.config.judge} failed: "
                               f"{failure_text(exc)}") from None

    async def close(self, status: str, started: float) -> None:
        self.stats.seconds = time.perf_counter() - started
        self.store.finish_run(self.run_id, status, run_meta(
            self.stats, embedders_used(self.judge, self.suite_options),
            judge_notes(self.direct_judge), engine="batch"))
        if self.inputs.judge is None:
            await self.backend.aclose()
        else:
            await self.provider.aclose()


async def run_batch(samples: Iterable[Sample | InvalidRow], config: RunConfig,
                    inputs: RunInputs, options: BatchOptions,
                    progress: BatchProgress | None = None) -> RunStats:
    """Evaluate samples through the provider's batch API into the store (see the module);
    with `options.detach`, return once the batches are submitted (`stats.waiting`)."""
    run = _BatchRun(config, inputs, options, progress)
    started = time.perf_counter()
    status = "failed"
    try:
        await run.guarded(run.batches.recover())
        source: Iterable[Sample | InvalidRow] = samples
        first, total = True, inputs.total
        while True:
            run.backend.spool = spool = Spool(run.provider, run.limits)
            try:
                left = await run.judge_pass(source, first=first, total=total)
                await run.guarded(run.submit(spool))
            finally:
                spool.remove()
            source, first, total = run.store.iter_samples(run.run_id), False, left.samples
            if not run.batches.live():
                break
            if options.detach:
                run.stats.waiting = len(run.batches.live())
                status = "interrupted"
                return run.stats
            await run.guarded(run.batches.wait())
            if run.batches.cancelled:  # someone gave up on them: stop, keep what came
                status = "interrupted"
                raise JudgeAborted(f"batch {', '.join(run.batches.cancelled)} was cancelled; "
                                   "what it answered is kept, and a resume submits the calls "
                                   "it left again")
        if left.waiting:  # only calls out of batch attempts wait: sent directly
            run.backend.direct, run.backend.spool = True, None
            await run.judge_pass(source, first=False, total=left.samples,
                                 concurrency=max(1, config.concurrency))
        status = "complete"
    except (KeyboardInterrupt, asyncio.CancelledError):
        status = "interrupted"
        raise
    finally:
        await run.close(status, started)
    return run.stats


def manage_batches(store: Store, run_id: str, action: Literal["status", "cancel"], *,
                   headers: Mapping[str, str] | None = None,
                   base_url: str | None = None) -> list[BatchRecord]:
    """`ragassay batches status|cancel RUN`: the run's batches as its provider reports
    them now (status), or after asking it to cancel every live one (cancel)."""
    run = store.get_run(run_id)
    if store.batch_options(run.id) is None:
        raise BatchSetupError(f"run {run.id} submitted no batch (it was not run with --batch)")
    config = run.config.with_endpoints(base_url) if base_url else run.config
    try:
        provider = get_batch_provider(config.judge, backend_options(config, headers))
    except BackendError as exc:
        raise BatchSetupError(exc.reason) from None
    batches = Batches(store, run.id, provider, Prices(None, None), poll_s=1.0)

    async def go() -> list[BatchRecord]:
        try:
            return await (batches.cancel() if action == "cancel" else batches.refresh())
        except BackendError as exc:
            raise BatchSetupError(f"the batch API of {config.judge} failed: "
                                  f"{failure_text(exc)}") from None
        finally:
            await provider.aclose()

    return run_sync(go())
