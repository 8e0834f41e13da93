"""`--engine ray`: the same run, judged by a pool of Ray actors.

The driver (this process) does what needs the store and the input order: it reads and
validates the samples with the same `dataset` code as the local runner (same ids, same
one-line reasons), has a worker score the hops of samples read from traces, stores each
input batch, leaves out the (sample, suite) judgments
already done (resume), and sends the rest in tasks to `JudgeWorker` actors (each
builds the judge once): 128 samples a task for the offline judge; for an LLM judge an
eighth of a worker's share of `--concurrency` (one sample up to a share of 15), so that
a paid judgment reaches the store soon after it is made (a Ray task costs the driver
about 1.5 ms of CPU: one per sample would cap a driver near 500 calls/s). Judged tasks
come back already serialised for the store; whatever has come back is written in one
transaction, with the progress bar on the driver.

Ray does the distributed work: placing the actors on the cluster's nodes, restarting a
worker that dies and retrying its task (`max_restarts`, `max_task_retries`). A task
retried after a worker died is judged again from the start and saved once: saves are
idempotent per (sample, suite). The driver only bounds the tasks in flight (`depth`
per worker, to the least busy one). `--concurrency` is split across the workers, each
with its own policy layer (AIMD per endpoint, Retry-After).

Who saves (`RayOptions.writes`): the driver (default; any store), or, with a PostgreSQL
store, each worker over its own connection (a task then names the run and comes back
as counts only). Either way a task's judgments are one transaction, idempotent per
(sample, suite), and a task comes back only once they are saved.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from ragassay.metrics import Suite, get_suites
from ragassay.runner.judging import (
    RunInputs,
    RunStats,
    batches,
    failure_of,
    has_traces,
    open_run,
    run_meta,
    with_prompt_versions,
)
from ragassay.runner.ray_session import RayEngineError, RayOptions, ray_session
from ragassay.types import InvalidRow, RunConfig, RunMeta, RunReliability, Sample, Usage, is_offline
from ragassay.version import __version__

TASK_RETRIES = 3  # a task is tried this many more times when its worker dies
INPUT_BATCH = 128  # samples read, validated and stored in one transaction


class RunStopped(Exception):
    """The caller set `RunInputs.stop` (a cancelled `aevaluate`): the run is interrupted."""


# One Ray run at a time per process: a second would share (and shut down) the first's
# connection to Ray.
_ONE_RUN = threading.Lock()


@dataclass
class _Sent:
    """A task in flight: its worker and what to count when it returns."""

    worker: int
    samples: int


@dataclass
class _Workers:
    """The actor pool and what its first worker said about the judge."""

    handles: list[Any]
    shares: list[int]
    model: str
    embedders: list[str]
    reliability: RunReliability
    notes: list[str] = field(default_factory=list)
    reader: Any = None
    peak_rss_mib: dict[int, float] = field(default_factory=dict)  # worker PID -> MiB


def split(total: int, parts: int) -> list[int]:
    """`total` as `parts` near-equal shares: 10 over 3 -> [4, 3, 3]."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def _worker_env(config: RunConfig) -> tuple[RunConfig, dict[str, SecretStr]]:
    """The workers' config and the driver's credentials for them: the key (from its
    variable or `api_key_file`, read here) and OPENAI_BASE_URL, as the local runner
    would see them. They travel as actor arguments, never in a runtime_env (which
    Ray's dashboard shows)."""
    opts = config.backend
    env: dict[str, SecretStr] = {}
    key = os.environ.get(opts.api_key_env, "").strip()
    if opts.api_key_file:
        with suppress(OSError):
            key = Path(opts.api_key_file).expanduser().read_text(encoding="utf-8").strip()
        config = config.model_copy(update={"backend": opts.model_copy(
            update={"api_key_file": None})})
    if key:
        env[opts.api_key_env] = SecretStr(key)
    if os.environ.get("OPENAI_BASE_URL"):
        env["OPENAI_BASE_URL"] = SecretStr(os.environ["OPENAI_BASE_URL"])
    return config, env


PG_VARIABLES = ("PGUSER", "PGPASSWORD", "PGHOST", "PGPORT", "PGDATABASE", "PGSSLMODE",
                "PGSSLROOTCERT", "PGSSLCERT", "PGSSLKEY", "PGOPTIONS", "PGCONNECT_TIMEOUT")


def _pg_env() -> dict[str, SecretStr]:
    """The driver's libpq variables for workers that connect to the store themselves: a
    URL without a password works on the nodes as it does here (~/.pgpass does not
    travel: a node needs its own)."""
    return {name: SecretStr(os.environ[name]) for name in PG_VARIABLES
            if os.environ.get(name)}


def _unwrap(exc: BaseException) -> BaseException:
    """What a worker raised (a JudgeAborted, a BackendError), or one line for a worker
    that died or could not start."""
    import ray.exceptions as rex

    if isinstance(exc, rex.RayTaskError) and exc.cause is not None \
            and not isinstance(exc.cause, rex.RayError):
        return exc.cause
    text = " ".join(str(exc).split())
    if "No module named 'ragassay" in text:
        return RayEngineError("the Ray workers cannot import ragassay: install it on the "
                              "cluster's nodes (the same version as here)")
    if isinstance(exc, rex.RayActorError | rex.RayTaskError):
        return RayEngineError(f"a Ray worker died {TASK_RETRIES + 1} times on one batch "
                              f"(last: {text[:300]})")
    return exc


class _RayRun:
    """One run on Ray: the workers, the batches in flight, the store."""

    def __init__(self, ray: Any, config: RunConfig, inputs: RunInputs,
                 options: RayOptions) -> None:
        self.ray, self.inputs, self.options = ray, inputs, options
        self.suites: list[Suite] = get_suites(config.metrics)
        self.config = with_prompt_versions(config, self.suites)
        self.store = inputs.store
        self.offline = is_offline(self.config.judge)
        self.pool = self._start_workers()
        self.run_id, self.done = open_run(self.config, self.suites, self.pool.model, inputs,
                                          RunMeta(reliability=self.pool.reliability))
        self.store.update_meta(self.run_id, RunMeta(engine="ray",
                                                    ray_workers=len(self.pool.handles)))
        self.stats = RunStats(run_id=self.run_id)
        self.failure: str | None = None  # why the run failed, when it does
        share = max(self.pool.shares)
        self.task_size = options.batch_size or (128 if self.offline else max(1, share // 8))
        self.depth = options.depth or (2 if self.offline
                                       else max(2, -(-2 * share // self.task_size)))
        self.pending: dict[Any, _Sent] = {}
        self.busy = [0] * len(self.pool.handles)

    def _worker_count(self, notes: list[str]) -> int:
        """--workers, or as many as the cluster's CPUs hold; never more than fit (a
        cluster without free CPUs yet gets one, which waits for an autoscaled node), and
        for an LLM judge never more than --concurrency (one call each at least)."""
        cpus = float(self.ray.cluster_resources().get("CPU", 0.0))
        fit = int(cpus // self.options.cpus_per_worker)
        workers = self.options.workers or max(1, fit)
        if fit >= 1 and workers > fit:
            notes.append(f"{workers} Ray workers asked for, the cluster has CPUs for {fit}: "
                         f"using {fit}")
            workers = fit
        if not self.offline and workers > self.config.concurrency:
            notes.append(f"{workers} Ray workers for --concurrency "
                         f"{self.config.concurrency}: using {self.config.concurrency}")
            workers = self.config.concurrency
        return max(1, workers)

    def _start_workers(self) -> _Workers:
        from ragassay.runner.ray_worker import CacheReader, JudgeWorker, WorkerSetup

        notes: list[str] = []
        n = self._worker_count(notes)
        shares = split(self.config.concurrency, n) if not self.offline else [1] * n
        worker_config, env = (self.config, {}) if self.offline else _worker_env(self.config)
        store_url = None
        if self.options.writes == "workers":
            url = self.store.connect_url
            assert url is not None  # run_on_ray refused another store
            store_url, env = SecretStr(url), {**env, **_pg_env()}
        path, node = self._cache_paths()
        reader, reader_name = self._cache_reader(CacheReader, path, node)
        actor = self.ray.remote(JudgeWorker).options(
            num_cpus=self.options.cpus_per_worker, max_restarts=-1,
            max_task_retries=TASK_RETRIES)
        headers = {k: SecretStr(v) for k, v in (self.inputs.headers or {}).items()}
        handles = [actor.remote(WorkerSetup(
            config=worker_config.model_copy(update={"concurrency": max(1, share)}),
            headers=headers, env=env, store_path=path, driver_node=node,
            reader=reader_name, store_url=store_url)) for share in shares]
        try:  # every worker built (and any failure to build said) before the run starts
            described = self.ray.get([h.describe.remote() for h in handles])
            info = described[0]
            versions = sorted({d["version"] for d in described} - {__version__})
            if versions:
                notes.append(f"the Ray workers run ragassay {', '.join(versions)}, this "
                             f"driver {__version__}: install the same version everywhere")
            if reader is not None and not self.ray.get(reader.available.remote()):
                notes.append("the Ray workers cannot read the judge-call cache (the store "
                             "is not on the driver's Ray node: Ray Client); new entries "
                             "are still written")
        except Exception as exc:
            raise _unwrap(exc) from None
        return _Workers(handles=handles, shares=shares, model=info["model"],
                        embedders=info["embedders"],
                        reliability=RunReliability.model_validate(info["reliability"]),
                        notes=notes, reader=reader)

    def _cache_paths(self) -> tuple[str | None, str | None]:
        """(the store file, this node) when the workers' LLM calls may hit its cache."""
        if self.offline or not self.config.use_cache or self.store.label == ":memory:" \
                or self.store.is_postgres:  # the workers' cache reads are of a file
            return None, None
        return str(Path(self.store.label).resolve()), self.ray.get_runtime_context().get_node_id()

    def _cache_reader(self, reader_class: type, path: str | None, node: str | None
                      ) -> tuple[Any, str | None]:
        """A CacheReader on this node, and its name, for workers on other nodes: when a
        cluster was joined, or the caller's instance has several nodes (a local instance
        started here has one: its workers read the file themselves). Workers look it up
        by name: an actor handle in their constructor arguments would live in the
        object store, and Ray warns that a restart may then fail."""
        if path is None or node is None or (self.options.address is None
                                            and len(self.ray.nodes()) < 2):
            return None, None
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        name = f"ragassay-cache-{secrets.token_hex(6)}"
        return self.ray.remote(reader_class).options(
            name=name, num_cpus=0, max_concurrency=16, max_restarts=-1,
            max_task_retries=TASK_RETRIES,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
        ).remote(path), name

    # -- feeding ----------------------------------------------------------------------

    def feed(self, items: list[Sample | InvalidRow]) -> None:
        """Store one input batch, leave out what is done, send the rest to the workers."""
        stats, progress = self.stats, self.inputs.progress
        if has_traces(items):  # CPU-bound (the offline analyzer): on a worker, not here
            try:
                with _interruptible():
                    items = self.ray.get(self.pool.handles[self._least_busy()]
                                         .score_hops.remote(items))
            except Exception as exc:
                raise _unwrap(exc) from None
        self.store.add_samples(self.run_id, items)
        valid = [s for s in items if isinstance(s, Sample)]
        stats.invalid += len(items) - len(valid)
        todo: list[tuple[Sample, list[str]]] = []
        for s in valid:
            names = [su.name for su in self.suites if (s.id, su.name) not in self.done]
            if names:
                todo.append((s, names))
        stats.skipped += len(valid) * len(self.suites) - sum(len(n) for _, n in todo)
        stats.samples += len(valid) - len(todo)
        if progress and len(items) > len(todo):  # invalid or already done
            progress.advance(len(items) - len(todo), stats.usage)
        for start in range(0, len(todo), self.task_size):
            self._send(todo[start:start + self.task_size])

    def _send(self, task: list[tuple[Sample, list[str]]]) -> None:
        """One task to the least busy worker, once fewer than `depth` each are in flight."""
        from ragassay.runner.ray_worker import BatchIn

        while len(self.pending) >= self.depth * len(self.pool.handles):
            self.collect()
        samples = [s for s, _ in task]
        todo = [(i, name) for i, (_, names) in enumerate(task) for name in names]
        worker = self._least_busy()
        save_in = self.run_id if self.options.writes == "workers" else None
        ref = self.pool.handles[worker].judge_batch.remote(BatchIn(samples, todo, save_in))
        self.pending[ref] = _Sent(worker, len(samples))
        self.busy[worker] += 1

    def _least_busy(self) -> int:
        return min(range(len(self.busy)), key=lambda i: self.busy[i])

    def collect(self) -> None:
        """Wait for a task, then take every task that has come back: write their
        judgments in one transaction, advance the progress bar. A task that failed
        stops the run after the others are saved."""
        ready: list[Any] = []
        while not ready:
            if self.inputs.stop is not None and self.inputs.stop.is_set():
                raise RunStopped
            with _interruptible():
                ready, rest = self.ray.wait(list(self.pending), num_returns=1, timeout=1.0)
        if rest:
            with _interruptible():
                more, _ = self.ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        sent = [self.pending.pop(ref) for ref in ready]
        for one in sent:
            self.busy[one.worker] -= 1
        outs, failure = self._get(ready, sent)
        results = [r for _, o in outs for r in o.results]
        cache = [c for _, o in outs for c in o.cache]
        if results or cache:  # nothing when the workers saved their own
            self.store.save_results(self.run_id, results, cache)
        for one, out in outs:
            self._count(one, out)
        if failure is not None:
            raise failure from None

    def _get(self, refs: list[Any], sent: list[_Sent]
             ) -> tuple[list[tuple[_Sent, Any]], BaseException | None]:
        """The tasks' outputs (one `ray.get` for all: a call per task costs the driver
        more than the rest of the task) and the first failure among them, if any."""
        try:
            with _interruptible():
                return list(zip(sent, self.ray.get(refs), strict=True)), None
        except Exception:  # which one failed: each on its own
            pass
        outs, failure = [], None
        for ref, one in zip(refs, sent, strict=True):
            try:
                with _interruptible():
                    outs.append((one, self.ray.get(ref)))
            except Exception as exc:
                failure = failure or _unwrap(exc)
        return outs, failure

    def _count(self, sent: _Sent, out: Any) -> None:
        stats = self.stats
        for suite, usage in out.usage.items():
            stats.usage = stats.usage + usage
            stats.per_suite[suite] = stats.per_suite.get(suite, Usage()) + usage
        stats.samples += sent.samples
        stats.worker_saved += out.saved
        self.pool.peak_rss_mib[out.pid] = out.peak_rss_mib
        self.pool.notes += [n for n in out.notes if n not in self.pool.notes]
        if self.inputs.progress:
            self.inputs.progress.advance(sent.samples, stats.usage)

    def drain(self) -> None:
        while self.pending:
            self.collect()

    def close(self, status: str, started: float) -> None:
        """Stop the workers, record the run's status."""
        for handle in [*self.pool.handles, self.pool.reader]:
            if handle is not None:
                with suppress(Exception):
                    self.ray.kill(handle)
        self.stats.seconds = time.perf_counter() - started
        if self.inputs.progress:
            self.inputs.progress.finish()
        meta = run_meta(self.stats, self.pool.embedders, self.pool.notes, engine="ray")
        peak = {str(k): round(v, 1) for k, v in sorted(self.pool.peak_rss_mib.items())}
        self.store.finish_run(self.run_id, status, meta.merged(RunMeta(ray_peak_rss_mib=peak)),
                              failure=self.failure)


@contextmanager
def _interruptible() -> Iterator[None]:
    """Ctrl-C (or the CLI's SIGTERM, handed to the SIGINT handler) that lands inside
    Ray's compiled `wait`/`get` comes out as "SystemError: ... returned a result with
    an exception set", the KeyboardInterrupt as its cause: raise it as the interrupt it
    is, so the run is recorded interrupted and the CLI exits 130/143."""
    try:
        yield
    except SystemError as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


def run_on_ray(samples: Iterable[Sample | InvalidRow], config: RunConfig, inputs: RunInputs,
               options: RayOptions) -> RunStats:
    """`runner.evaluate(..., ray=options)`: the same run in the store, judged by Ray
    actors; connected to Ray (or a local instance started) for the run only. Blocking;
    one Ray run at a time per process (a second one is refused in one line)."""
    if options.writes == "workers" and not inputs.store.is_postgres:
        raise RayEngineError("--ray-writes workers needs a PostgreSQL store (--db "
                             "postgresql://...): Ray workers on other machines cannot write "
                             f"to the SQLite file {inputs.store.label}; leave it at driver")
    if not _ONE_RUN.acquire(blocking=False):
        raise RayEngineError("another Ray run is in progress in this process; run them one "
                             "after another (each run already uses every worker)")
    try:
        with ray_session(options) as ray:
            return _drive(_RayRun(ray, config, inputs, options), samples, inputs)
    finally:
        _ONE_RUN.release()


def _drive(run: _RayRun, samples: Iterable[Sample | InvalidRow], inputs: RunInputs
           ) -> RunStats:
    started = time.perf_counter()
    if inputs.progress:
        inputs.progress.start(inputs.total)
    status = "failed"
    try:
        for items in batches(samples, INPUT_BATCH):
            if inputs.stop is not None and inputs.stop.is_set():
                raise RunStopped
            run.feed(items)
        run.drain()
        status = "complete"
    except (KeyboardInterrupt, RunStopped):
        status = "interrupted"
        raise
    except Exception as exc:
        run.failure = failure_of(exc)
        raise
    finally:
        run.close(status, started)
    return run.stats
