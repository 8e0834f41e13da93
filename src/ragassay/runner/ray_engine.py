"""`--engine ray`: the same run, judged by a pool of Ray actors.

The driver (this process) does what needs the store and the input order: it reads and
validates the samples with the same `dataset` code as the local runner (same ids, same
one-line reasons), stores each input batch, leaves out the (sample, suite) judgments
already done (resume), and sends the rest in batches to `JudgeWorker` actors (each
builds the judge once). Judged batches come back already serialised for the store and
are written one transaction per batch, with the progress bar on the driver.

Ray does the distributed work: placing the actors on the cluster's nodes, restarting a
worker that dies and retrying its batch (`max_restarts`, `max_task_retries`). A batch
retried after a worker died is judged again from the start and saved once: saves are
idempotent per (sample, suite). The driver only bounds the batches in flight (`depth`
per worker, to the least busy one). `--concurrency` is split across the workers, each
with its own policy layer (AIMD per endpoint, Retry-After).
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import socket
import tempfile
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
    HopScorer,
    RunInputs,
    RunStats,
    batches,
    open_run,
    run_meta,
    with_prompt_versions,
)
from ragassay.types import InvalidRow, RunConfig, Sample, Usage, is_offline
from ragassay.version import __version__

TASK_RETRIES = 3  # a batch is tried this many more times when its worker dies


class RayEngineError(Exception):
    """Ray is missing, unreachable, or a worker cannot run: one line for the user."""


class RunStopped(Exception):
    """The caller set `RunInputs.stop` (a cancelled `aevaluate`): the run is interrupted."""


# One Ray run at a time per process: a second would share (and shut down) the first's
# connection to Ray.
_ONE_RUN = threading.Lock()


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide `--engine ray` runs.

    `address` None starts a private local Ray instance (loopback only, no dashboard,
    stopped at the end); otherwise it is joined: "auto", "HOST:PORT" or "ray://HOST:PORT".
    An instance this process already started (`ray.init` in a notebook or a test) is
    used as it is. `workers` defaults to the cluster's CPUs over `cpus_per_worker`;
    `batch_size` to 128 samples for the offline judge, else twice a worker's share of
    the concurrency (at least 16).
    """

    address: str | None = None
    workers: int | None = None
    batch_size: int | None = None
    depth: int = 2  # batches in flight per worker
    cpus_per_worker: float = 1.0
    temp_dir: str | None = None  # a local instance's session folder


@dataclass
class _Sent:
    """A batch in flight: its worker and what to count when it returns."""

    worker: int
    samples: int


@dataclass
class _Workers:
    """The actor pool and what its first worker said about the judge."""

    handles: list[Any]
    shares: list[int]
    model: str
    embedders: list[str]
    reliability: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    reader: Any = None
    peak_rss_mib: dict[int, float] = field(default_factory=dict)  # worker PID -> MiB


def _ray() -> Any:
    """The ray module, or the one-line MissingExtra for the `ray` extra."""
    from ragassay.extras import require

    return require("ray", "ray", "the Ray engine (--engine ray)")


@contextmanager
def _loopback() -> Iterator[None]:
    """While a local instance starts, bind it to 127.0.0.1: Ray resolves "127.0.0.1" to
    the host's address and listens on every interface unless told that this is not a
    cluster (its switch for Windows and macOS). Restored afterwards, so that a later
    `ray.init` of this process can join a real cluster."""
    name = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
    before = os.environ.get(name)
    os.environ[name] = "0"
    constants: Any = None
    with suppress(ImportError):
        from ray._private import ray_constants as constants
    flag = getattr(constants, "ENABLE_RAY_CLUSTER", None)
    if flag is not None:
        constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before
        if flag is not None:
            constants.ENABLE_RAY_CLUSTER = flag


@contextmanager
def ray_session(options: RayOptions) -> Iterator[Any]:
    """Connected to Ray for the body: a local instance started (and stopped) here, a
    cluster joined (and left), or the caller's own connection left alone. A local
    instance's session folder is removed afterwards unless the body failed (its logs
    then say why) or `temp_dir` was given."""
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    own_temp = None
    if options.address is None and options.temp_dir is None:
        own_temp = tempfile.mkdtemp(prefix="ragassay-ray-")
    _init(ray, options, own_temp or options.temp_dir)
    try:
        yield ray
    except BaseException:
        own_temp = None  # keep the logs
        raise
    finally:
        ray.shutdown()
        if own_temp is not None:
            shutil.rmtree(own_temp, ignore_errors=True)


def _reachable(address: str) -> None:
    """Fail in one line, at once, for a HOST:PORT (or ray://HOST:PORT) nothing answers
    on: `ray.init` would retry for minutes."""
    hostport = address.removeprefix("ray://").rsplit("/", 1)[0]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", or a form Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise RayEngineError(f"cannot reach Ray at {address}: "
                             f"{exc.strerror or exc}") from None


def _on_loopback(address: str) -> bool:
    """Whether a HOST:PORT address is this machine's loopback (a local instance started
    by another process): a driver joining it must not advertise the host's address."""
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _init(ray: Any, options: RayOptions, temp: str | None) -> None:
    if options.address is not None:
        _reachable(options.address)
    sigterm = signal.getsignal(signal.SIGTERM)  # ray.init replaces it with sys.exit
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if options.address is None:
            with _loopback():
                ray.init(address="local", num_cpus=options.workers or os.cpu_count() or 1,
                         include_dashboard=False, _temp_dir=temp, **quiet)
        elif _on_loopback(options.address):  # this driver on loopback too, like the node
            with _loopback():
                ray.init(address=options.address, **quiet)
        else:
            ray.init(address=options.address, **quiet)
    except (AssertionError, ConnectionError, RuntimeError, ValueError) as exc:
        where = options.address or "a local instance"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "Could not find any running Ray instance" in first:
            first = ("no running Ray cluster found from here (start one with `ray start "
                     "--head`, or give --ray-address HOST:PORT, ray_address= in Python)")
        raise RayEngineError(f"cannot start or reach Ray ({where}): {first}") from None
    finally:
        with suppress(ValueError):  # not the main thread
            signal.signal(signal.SIGTERM, sigterm)


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
        self.hops = HopScorer()
        self.pool = self._start_workers()
        self.run_id, self.done = open_run(self.store, self.config, self.suites, self.pool.model,
                                          inputs.resume, inputs.dataset_hash,
                                          {"reliability": self.pool.reliability},
                                          inputs.retry)
        self.store.update_meta(self.run_id, {"engine": "ray",
                                             "ray_workers": len(self.pool.handles)})
        self.stats = RunStats(run_id=self.run_id)
        share = max(self.pool.shares)
        self.batch_size = options.batch_size or (128 if self.offline else max(16, 2 * share))
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
        path, node = self._cache_paths()
        reader, reader_name = self._cache_reader(CacheReader, path, node)
        actor = self.ray.remote(JudgeWorker).options(
            num_cpus=self.options.cpus_per_worker, max_restarts=-1,
            max_task_retries=TASK_RETRIES)
        headers = {k: SecretStr(v) for k, v in (self.inputs.headers or {}).items()}
        handles = [actor.remote(WorkerSetup(
            config=worker_config.model_copy(update={"concurrency": max(1, share)}),
            headers=headers, env=env, store_path=path, driver_node=node,
            reader=reader_name)) for share in shares]
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
                        embedders=info["embedders"], reliability=info["reliability"],
                        notes=notes, reader=reader)

    def _cache_paths(self) -> tuple[str | None, str | None]:
        """(the store file, this node) when the workers' LLM calls may hit its cache."""
        if self.offline or not self.config.use_cache or self.store.label == ":memory:":
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
        """Store one input batch, leave out what is done, send the rest to a worker."""
        from ragassay.runner.ray_worker import BatchIn

        stats, progress = self.stats, self.inputs.progress
        items = self.hops(items)
        self.store.add_samples(self.run_id, items)
        valid = [s for s in items if isinstance(s, Sample)]
        stats.invalid += len(items) - len(valid)
        todo: list[tuple[int, str]] = []
        samples: list[Sample] = []
        for s in valid:
            names = [su.name for su in self.suites if (s.id, su.name) not in self.done]
            if names:
                todo += [(len(samples), name) for name in names]
                samples.append(s)
        stats.skipped += len(valid) * len(self.suites) - len(todo)
        stats.samples += len(valid) - len(samples)
        if progress and len(items) > len(samples):  # invalid or already done
            progress.advance(len(items) - len(samples), stats.usage)
        if not samples:
            return
        while len(self.pending) >= self.options.depth * len(self.pool.handles):
            self.collect()
        worker = min(range(len(self.busy)), key=lambda i: self.busy[i])
        ref = self.pool.handles[worker].judge_batch.remote(BatchIn(samples, todo))
        self.pending[ref] = _Sent(worker, len(samples))
        self.busy[worker] += 1

    def collect(self) -> None:
        """Wait for one batch, write it in one transaction, advance the progress bar."""
        ready: list[Any] = []
        while not ready:
            if self.inputs.stop is not None and self.inputs.stop.is_set():
                raise RunStopped
            with _interruptible():
                ready, _ = self.ray.wait(list(self.pending), num_returns=1, timeout=1.0)
        ref = ready[0]
        sent = self.pending.pop(ref)
        self.busy[sent.worker] -= 1
        try:
            with _interruptible():
                out = self.ray.get(ref)
        except Exception as exc:
            raise _unwrap(exc) from None
        self.store.save_results(self.run_id, out.results, out.cache)
        stats = self.stats
        for suite, usage in out.usage.items():
            stats.usage = stats.usage + usage
            stats.per_suite[suite] = stats.per_suite.get(suite, Usage()) + usage
        stats.samples += sent.samples
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
        meta["ray_peak_rss_mib"] = {str(k): round(v, 1)
                                    for k, v in sorted(self.pool.peak_rss_mib.items())}
        self.store.finish_run(self.run_id, status, meta)


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
        for items in batches(samples, run.batch_size):
            if inputs.stop is not None and inputs.stop.is_set():
                raise RunStopped
            run.feed(items)
        run.drain()
        status = "complete"
    except (KeyboardInterrupt, RunStopped):
        status = "interrupted"
        raise
    finally:
        run.close(status, started)
    return run.stats
