"""The local engine's worker processes: the offline judge on every core of one machine.

The offline judge is CPU-bound Python: in threads of one process it runs under one GIL
(an offline run used under one core of a 2-core machine). With `workers` > 1 the local
engine sends each input batch to a pool of worker processes instead: each builds the
run's suites and judge ONCE (the same `JudgeWorker` a Ray actor is, without Ray) and
returns the batch's judgments already serialised for the store (`store.prepare_result`);
this process keeps the store, the input order and the progress bar, and writes a judged
batch in one transaction. The hops of samples read from traces are scored in a worker
too (`JudgePool.score_hops`, before the batch is stored), not in this process. The
judgments and hop scores are the ones one worker makes: the same batches, the same code,
per (sample, suite) (`tests/runner/test_processes.py`).

Memory: a worker holds the judge's tables (~0.6-0.8 GiB measured, benches/RESULTS.md), and
at most two batches per worker are in flight. The default count (`default_workers`) is the
CPUs this process may use, lowered so that the workers fit in the memory available.

Workers are forked from a clean server process (`forkserver`, with the judge's modules
imported once) where the platform has it, else spawned; they ignore Ctrl-C (the engine
stops them), and exit within a second of this process dying (`kill -9`: a watch thread
in each; the forkserver then exits too).
"""

from __future__ import annotations

import ast
import asyncio
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import FrameType, ModuleType

from ragassay.runner.ray_worker import BatchIn, BatchOut, JudgeWorker, WorkerSetup
from ragassay.types import InvalidRow, RunConfig, Sample

WATCH_S = 1.0  # how often a worker checks that the engine is alive
WORKER_MIB = 900  # a worker's peak RSS with the offline judge, rounded up (RESULTS.md)

_WORKER: JudgeWorker | None = None  # this worker process's judge (built by `_start`)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def available_mib() -> float | None:
    """MemAvailable from /proc/meminfo, in MiB; None where it cannot be read."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_workers() -> int:
    """One worker per usable CPU, as many as fit in the available memory (at least 1)."""
    cpus = usable_cpus()
    free = available_mib()
    if free is not None:
        cpus = min(cpus, max(1, int(free // WORKER_MIB)))
    return cpus


_GUARD = "'if __name__ == \"__main__\":'"


def one_process_why(workers: int) -> tuple[str, int, str] | None:
    """(file, line, warning) when worker processes cannot start from this call, so the
    run judges in one process: the main script is no file they can re-run
    (`unrerunnable_main`), or the call is at its top level outside the guard
    (`unguarded_call`). None when `workers` may start."""
    if (where := unrerunnable_main()) is not None:
        path, line = where
        said = "this one was read from stdin" if Path(path).name == "<stdin>" else \
            f"{path} is not a file they can read"
        return path, line, (
            f"judging in one process: worker processes re-run the main script from its "
            f"file, and {said}; save it to a file, with this call under {_GUARD}, to "
            f"judge on {workers} cores")
    if (where := unguarded_call()) is not None:
        script, line = where
        return script, line, (
            f"judging in one process: this call is outside an {_GUARD} block, which "
            f"worker processes need (they re-run {Path(script).name}); put it under one "
            f"to judge on {workers} cores")
    return None


def unrerunnable_main() -> tuple[str, int] | None:
    """(main script, line of this call in it) when worker processes could not re-run the
    main script, else None. They run it from its `__file__` when it was not imported by
    name (`multiprocessing.spawn`, relative to the directory this process started in):
    '<stdin>' (`python - <<EOF`), '/dev/fd/63' (`python <(...)`, a pipe already read)
    or an embedded interpreter's name for its code is no file, and each worker died
    starting (FileNotFoundError, then BrokenProcessPool). A console, a notebook and
    `python -c` have no `__file__`: their workers run nothing of it."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str) or getattr(
            getattr(main, "__spec__", None), "name", None) is not None:
        return None
    start = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or os.getcwd()
    full = os.path.join(start, path)
    if os.path.isfile(full) and os.access(full, os.R_OK):
        return None
    frame = _main_frame(main, top_level=False)
    return (path, 0) if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def unguarded_call() -> tuple[str, int] | None:
    """(script, line) when this call comes from the main script's top level outside an
    `if __name__ == "__main__":` block, else None. Worker processes re-run the main
    script when they start (forkserver and spawn run it as `__mp_main__`, a module run
    with `python -m` by its name): a top-level `ragassay.evaluate` outside the guard would
    run again in each worker, which then dies starting (a BrokenProcessPool traceback for
    a plain 'evaluate these rows' script). A console, a notebook and a package's
    `__main__` are never re-run."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    spec = getattr(main, "__spec__", None)
    if main is None or path is None or (spec is not None and (
            spec.name == "__main__" or spec.name.endswith(".__main__"))):
        return None
    frame = _main_frame(main, top_level=True)
    if frame is None:
        return None  # not called while the script's top level runs (a callback)
    line = frame.f_lineno
    try:
        tree = ast.parse(Path(frame.f_code.co_filename).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.IfExp) and _is_guard(node.test) and \
                node.lineno <= line <= (node.end_lineno or node.lineno):
            return None
    return frame.f_code.co_filename, line


def _main_frame(main: ModuleType, *, top_level: bool) -> FrameType | None:
    """The innermost frame running the main script's code (its top level alone when
    `top_level`): where the call is, in the script's terms. On this thread's stack, else
    on the main thread's (`evaluate` inside a running loop judges in a helper thread
    while the script waits at its call)."""
    main_thread = sys._current_frames().get(threading.main_thread().ident or 0)
    for frame in (sys._getframe(1), main_thread):
        while frame is not None and not (frame.f_globals is vars(main) and (
                not top_level or frame.f_code.co_name == "<module>")):
            frame = frame.f_back
        if frame is not None:
            return frame
    return None


def _is_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either side, either quote)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, *test.comparators]
    return any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides) and any(
        isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)


def _started(pid: int) -> str | None:
    """When process `pid` started (Linux: clock ticks since boot), to tell a reused PID."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    return fields[19] if len(fields) > 19 else None


def _watch(engine: int, started: str | None) -> None:
    """Exit this worker once the engine is gone (killed: nothing else would tell it; its
    queue's pipe stays open in the worker itself, and the forkserver lives while any of
    its workers does)."""
    while True:
        time.sleep(WATCH_S)
        try:
            os.kill(engine, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass
        if started is not None and _started(engine) not in (started, None):
            os._exit(0)  # the PID now names another process


def _one_thread_each() -> None:
    """Run this worker's native pools (BLAS, OpenMP, the tokenizer's) on one thread.

    The workers are the parallelism: with each process's OpenBLAS starting a thread per
    core, two workers on 2 cores ran 4+ busy threads and judged slower than one process
    (0.77x, 27.5 vs 20.2 CPU ms per sample); one thread each is 1.73x
    (benches/RESULTS.md, "All cores on one machine"). The embedder's onnxruntime
    session is made in the worker after this, reading RAGASSAY_EMBED_THREADS."""
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    os.environ["RAGASSAY_EMBED_THREADS"] = "1"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a core dependency; an old install lacks it
        return
    threadpool_limits(1)


def _start(setup: WorkerSetup, engine: int, started: str | None) -> None:
    """A worker process's initialiser: Ctrl-C is the engine's to handle; exit with the
    engine; build the judge."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _one_thread_each()
    threading.Thread(target=_watch, args=(engine, started), daemon=True,
                     name="engine-watch").start()
    _WORKER = JudgeWorker(setup)  # a judge that cannot be built: its batches raise why


def _judge(batch: BatchIn) -> BatchOut:
    """Judge one batch in this worker process."""
    assert _WORKER is not None
    return asyncio.run(_WORKER.judge_batch(batch))


def _score_hops(items: list[Sample | InvalidRow]) -> list[Sample | InvalidRow]:
    """Score the hops of a batch's trace samples in this worker process."""
    assert _WORKER is not None
    return asyncio.run(_WORKER.score_hops(items))


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__, "ragassay.judge.offline", "ragassay.metrics"])
        return ctx
    return multiprocessing.get_context("spawn")


class JudgePool:
    """`workers` processes judging batches of one run (see the module)."""

    def __init__(self, config: RunConfig, workers: int) -> None:
        self.workers = workers
        self.executor = ProcessPoolExecutor(
            workers, mp_context=_context(), initializer=_start,
            initargs=(WorkerSetup(config=config), os.getpid(), _started(os.getpid())))

    async def judge(self, batch: BatchIn) -> BatchOut:
        """The batch's judgments, made in a worker process."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _judge, batch)

    async def score_hops(self, items: list[Sample | InvalidRow]) -> list[Sample | InvalidRow]:
        """The items with their trace samples' hops scored, in a worker process (the
        analysis is the offline judge's: CPU-bound, as judging is)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, _score_hops, items)

    def close(self) -> None:
        """Stop the workers: batches not started are dropped, those running finish."""
        self.executor.shutdown(wait=True, cancel_futures=True)
