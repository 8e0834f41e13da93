"""Helpers shared by the benchmark scripts: machine facts, child servers, tables, samples."""

from __future__ import annotations

import contextlib
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCHES = Path(__file__).resolve().parent
REPO = BENCHES.parent
PY = sys.executable


# Prefix for a child's `python -c` code: at exit it writes its own peak RSS (VmHWM of its
# address space) to stderr. rusage's ru_maxrss is no good for a child: it also counts
# the parent's pages it shared before exec, so a large parent inflates it.
HWM_PRELUDE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nVMHWM_KB ' + [x for x in "
    "open('/proc/self/status') if x.startswith('VmHWM:')][0].split()[1] + '\\n'))\n"
)


def hwm_mib(stderr: str) -> float:
    """The peak RSS (MiB) a child started with HWM_PRELUDE reported."""
    kb = [int(x.split()[1]) for x in stderr.splitlines() if x.startswith("VMHWM_KB ")]
    return kb[-1] / 1024 if kb else float("nan")


def machine() -> str:
    """One line: date, cores, CPU model, Python; for the RESULTS.md header of a figure."""
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 2**20:.0f} GiB RAM"
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{now}; nproc={os.cpu_count()} ({model}{mem}); load average {load} "
            f"(machine shared); Python {platform.python_version()}")


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub markdown table."""
    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"
        return str(v)

    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(out)


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


@contextlib.contextmanager
def scripted_server(latency_s: float = 0.0, jitter: float = 0.0) -> Iterator[str]:
    """Start benches/scripted_judge_server.py in a child process; yield its base URL."""
    proc = subprocess.Popen(
        [PY, str(BENCHES / "scripted_judge_server.py"), "--latency", str(latency_s),
         "--jitter", str(jitter)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        if not url.startswith("http://127.0.0.1:"):
            raise RuntimeError(f"scripted server did not start (said {url!r})")
        yield url
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def synthetic_rows(n: int, *, seed: int = 0, n_contexts: int = 3,
                   words: int = 30) -> Iterator[dict[str, Any]]:
    """Distinct, deterministic sample rows (distinct questions -> distinct cache keys)."""
    vocab = ["policy", "rate", "limit", "plan", "request", "retry", "header", "window", "token",
             "key", "account", "region", "backup", "restore", "latency", "quota", "invoice",
             "refund", "tier", "support", "channel", "audit"]
    for i in range(n):
        k = (i * 7919 + seed) % len(vocab)

        def text(j: int, length: int, k: int = k) -> str:
            return " ".join(vocab[(k + j + t) % len(vocab)] for t in range(length))

        yield {
            "id": f"s{i:07d}",
            "question": f"Question {i}: what is the {vocab[k]} for case {i}?",
            "contexts": [f"Chunk {j} of {i}. " + text(j, words) + "." for j in range(n_contexts)],
            "answer": f"The {vocab[k]} for case {i} is " + text(1, words // 2) + ".",
            "reference": f"The {vocab[k]} is " + text(2, words // 3) + ".",
        }


def warm_up(base_url: str, tmp: Path) -> None:
    """One tiny run first, so that imports and first-use costs are not timed."""
    _, _, store = run_engine(base_url, list(synthetic_rows(4, seed=99)), 2, tmp / "warm.db")
    store.close()


def load_engine(path: str | None) -> Any:
    """The runner's `evaluate`, or that of another engine.py (e.g. an older revision:
    `git show REV:src/ragassay/runner/engine.py > /tmp/engine_old.py`)."""
    if not path:
        from ragassay.runner import evaluate

        return evaluate
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"engine_{abs(hash(path))}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load an engine from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module.evaluate


def run_engine(base_url: str, rows: Sequence[dict[str, Any]], concurrency: int, db: Path,
               *, suite: str = "judge", engine: Any = None) -> tuple[float, Any, Any]:
    """One runner pass over `rows` into the store at `db`: (wall seconds, RunStats, Store)."""
    import time

    evaluate = engine or load_engine(None)
    from ragassay.store import Store
    from ragassay.types import RunConfig, Sample

    samples = [Sample(**r) for r in rows]
    tuning = {"timeout_s": 60.0, "max_retries": 2}
    try:  # typed backend options; older trees (compared side by side) took `extra`
        config = RunConfig(dataset="bench", judge="openai:scripted", base_url=base_url,
                           metrics=(suite,), concurrency=concurrency, backend=tuning)
    except ValueError:
        config = RunConfig(dataset="bench", judge="openai:scripted", base_url=base_url,
                           metrics=(suite,), concurrency=concurrency,
                           extra={"backend": tuning})
    store = Store(db)
    started = time.perf_counter()
    stats = evaluate(samples, config, store=store, total=len(samples))
    seconds = time.perf_counter() - started
    return seconds, stats, store
