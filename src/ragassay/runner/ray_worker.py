"""What runs on the Ray cluster for `--engine ray`: the judge worker and the cache reader.

A `JudgeWorker` (one Ray actor per worker) builds the run's suites and judge ONCE (the
offline judge's tables, an HTTP client with its policy layer) and judges batches of
samples sent by the driver: each sample keyed once, the offline judge's evidence for
the batch in one go, every (sample, suite) judgment bounded by the worker's share of
`--concurrency`. It returns the batch's judgments already serialised for the store
(`store.prepare_result`), so the driver only writes rows, plus the judge-call cache
entries made since its last batch (the driver writes them too). A worker on the driver's
node reads cache hits from the store file itself (read-only, SQLite WAL lets it read while
the driver writes); one on another node asks a `CacheReader` actor on the driver's node.
With a PostgreSQL store and `RayOptions(writes="workers")` a worker connects to the store
itself: it reads cache hits there and saves each task's judgments and cache entries in
one transaction of its own (the task names the run), returning only the counts.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from pydantic import SecretStr

from ragassay.judge import Asker
from ragassay.judge.offline import Evidence
from ragassay.judge.offline_judge import OfflineJudge
from ragassay.judge.reliability import reliability_meta
from ragassay.metrics import Outcome, Suite, get_suites
from ragassay.runner.judging import (
    HopScorer,
    batch_evidence,
    build_judge,
    call_records,
    embedders_used,
    judge_notes,
    judge_one,
    suite_options,
)
from ragassay.store import PreparedResult, Store, cache_row, prepare_result
from ragassay.text import KeyedSample, key_sample
from ragassay.types import InvalidRow, RunConfig, Sample, Usage
from ragassay.version import __version__

RECENT_ENTRIES = 4096  # cache entries a worker remembers itself (repeats within a run)


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker is built from. `config` carries this worker's share of the run's
    concurrency; `env` the driver's judge credentials (its key variable, OPENAI_BASE_URL),
    set in the worker's own environment: a cluster's nodes do not have the driver's."""

    config: RunConfig
    headers: Mapping[str, SecretStr] = field(default_factory=dict, repr=False)
    env: Mapping[str, SecretStr] = field(default_factory=dict, repr=False)
    store_path: str | None = None  # the driver's store, for cache reads (None: no reads)
    driver_node: str | None = None  # the Ray node it is on
    reader: str | None = None  # the name of a CacheReader there, for workers elsewhere
    store_url: SecretStr | None = field(default=None, repr=False)  # a PostgreSQL store to save to


@dataclass(frozen=True)
class BatchIn:
    """A batch to judge: samples, and the (sample index, suite) judgments to make."""

    samples: list[Sample]
    todo: list[tuple[int, str]]
    run_id: str | None = None  # the worker saves the judgments into this run itself


@dataclass
class BatchOut:
    """A judged batch, ready for one store transaction."""

    results: list[PreparedResult]
    cache: list[tuple[str, str]]
    usage: dict[str, Usage]  # per suite
    notes: list[str]
    pid: int
    peak_rss_mib: float
    cpu_s: float = 0.0  # this worker process's CPU time so far
    saved: int = 0  # judgments the worker saved itself (`BatchIn.run_id`)


class WorkerCache:
    """A worker's view of the judge-call cache: hits from the entries this worker made,
    then from the driver's store file (`local`, on the driver's node) or its
    `CacheReader` (`cache_fetch`, which the LLM judge prefers); new entries are kept
    until the next batch returns them to the driver."""

    def __init__(self, reader: Any = None, local: Store | None = None) -> None:
        self.reader = reader
        self.local = local
        self.recent: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.new: dict[str, dict[str, Any]] = {}

    async def cache_fetch(self, key: str) -> dict[str, Any] | None:
        hit = self.cache_get(key)
        if hit is None and self.local is None and self.reader is not None:
            hit = await self.reader.get.remote(key)
        return hit

    def cache_get(self, key: str) -> dict[str, Any] | None:
        hit = self.recent.get(key)
        if hit is None and self.local is not None:
            hit = self.local.cache_get(key)
        return hit

    def cache_put(self, key: str, value: dict[str, Any]) -> None:
        self.new[key] = value
        self.recent[key] = value
        self.recent.move_to_end(key)
        while len(self.recent) > RECENT_ENTRIES:
            self.recent.popitem(last=False)

    def drain(self) -> list[tuple[str, str]]:
        """The entries made since the last call, as store rows."""
        rows = [cache_row(k, v) for k, v in self.new.items()]
        self.new = {}
        return rows


def _on_node(node: str | None) -> bool:
    """Whether this process runs on the Ray node `node`."""
    if node is None:
        return False
    try:
        import ray

        return bool(ray.get_runtime_context().get_node_id() == node)
    except Exception:  # not in a Ray worker
        return False


def peak_rss_mib() -> float:
    """This process's peak resident memory (VmHWM), in MiB; 0 where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class JudgeWorker:
    """One Ray actor: the run's suites and judge, built once, judging batches.

    A failure while building (no key, an unknown backend) is kept and raised by
    `describe`, so the driver reports it in one line instead of a dead actor."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.failure: BaseException | None = None
        try:
            self._build(setup)
        except Exception as exc:  # re-raised by describe(), where the driver sees it
            self.failure = exc

    def _build(self, setup: WorkerSetup) -> None:
        for name, value in setup.env.items():
            os.environ[name] = value.get_secret_value()
        self.config = setup.config
        self.suites = {s.name: s for s in get_suites(self.config.metrics)}
        local, reader = None, None
        self.store: Store | None = None
        if setup.store_url is not None:  # it saves its judgments: one connection, kept
            self.store = local = Store(setup.store_url.get_secret_value())
        elif setup.store_path and _on_node(setup.driver_node) and Path(setup.store_path).is_file():
            local = Store(setup.store_path, readonly=True)
        elif setup.reader is not None:
            import ray

            reader = ray.get_actor(setup.reader)
        self.cache = WorkerCache(reader, local)
        headers = {k: v.get_secret_value() for k, v in setup.headers.items()}
        self.judge = build_judge(self.config, self.cache, headers)
        self.offline = self.judge if isinstance(self.judge, OfflineJudge) else None
        self.asker = None if self.offline is not None else cast(Asker, self.judge)
        self.options = suite_options(self.config, list(self.suites.values()), self.judge)
        self.gate = asyncio.Semaphore(max(1, self.config.concurrency))
        self.analyzing = asyncio.Lock()  # the analyzer's caches are not thread-safe
        self.hops: HopScorer | None = None  # built on the first trace sample

    def describe(self) -> dict[str, Any]:
        """The judge's model, embedders and reliability table, this worker's PID and
        package version."""
        if self.failure is not None:
            raise self.failure
        names = [spec.name for s in self.suites.values() for spec in s.chosen_specs]
        return {"model": self.judge.model, "pid": os.getpid(), "version": __version__,
                "embedders": embedders_used(self.judge, self.options),
                "reliability": reliability_meta(self.judge, names).model_dump(mode="json")}

    async def judge_batch(self, batch: BatchIn) -> BatchOut:
        if self.failure is not None:
            raise self.failure
        limit = self.config.max_context_tokens
        keyed = {i: key_sample(batch.samples[i], limit) for i in {i for i, _ in batch.todo}}
        evidence = await batch_evidence(keyed, self.offline, self.analyzing)
        pairs = [(keyed[i], self.suites[name], evidence.get(i)) for i, name in batch.todo]
        outcomes = await asyncio.gather(*(self._one(item, suite, ev)
                                          for item, suite, ev in pairs))
        usage: dict[str, Usage] = {}
        for outcome in outcomes:
            suite_name = outcome.result.suite
            usage[suite_name] = usage.get(suite_name, Usage()) + outcome.result.usage
        results = [prepare_result(o.result, call_records(item.sample, o.result.suite, o))
                   for o, (item, _, _) in zip(outcomes, pairs, strict=True)]
        cache, saved = self.cache.drain(), 0
        if batch.run_id is not None:  # saved here, in one transaction: only counts go back
            if self.store is None:
                raise RuntimeError("a task to save was sent to a worker without a store")
            await asyncio.to_thread(self.store.save_results, batch.run_id, results, cache)
            results, cache, saved = [], [], len(results)
        return BatchOut(results=results, cache=cache, usage=usage,
                        notes=judge_notes(self.judge), pid=os.getpid(),
                        peak_rss_mib=peak_rss_mib(), cpu_s=time.process_time(), saved=saved)

    async def score_hops(self, items: list[Sample | InvalidRow]) -> list[Sample | InvalidRow]:
        """The items with their trace samples' hops scored (`HopScorer`: with this
        worker's offline analyzer, as the engine's process would with its own)."""
        if self.failure is not None:
            raise self.failure
        if self.hops is None:
            self.hops = HopScorer(self.offline)
        async with self.analyzing:
            return await asyncio.to_thread(self.hops, items)

    async def _one(self, item: KeyedSample, suite: Suite, evidence: Evidence | None
                   ) -> Outcome:
        async with self.gate:
            return await judge_one(suite, item, evidence, self.asker, self.options)


class CacheReader:
    """Reads the judge-call cache from the driver's store file; runs as an actor on the
    driver's node (the file is there). Without the file (Ray Client: the store is on the
    client machine) it answers every lookup with a miss."""

    def __init__(self, path: str) -> None:
        self.store = Store(path, readonly=True) if Path(path).is_file() else None

    def available(self) -> bool:
        return self.store is not None

    def get(self, key: str) -> dict[str, Any] | None:
        return self.store.cache_get(key) if self.store is not None else None
