"""All cores on one machine: the local engine with 1 vs 2 worker processes, offline judge.

The same run (N synthetic samples, 5 contexts of ~100 words, every suite, the offline
judge) with `workers=1` (judged in this process: the analysis in a thread, the suites on
the event loop) and `workers=2` (two worker processes judge batches, this process reads,
stores and writes; `runner/processes.py`), each in a fresh child process with its own
store, repeats interleaved. samples/s is over the run's own seconds (`RunStats.seconds`:
the workers' start included, the imports not); the results of the two are checked equal.
CPU ms/sample: this process's CPU time (imports included) and the workers' (each
worker's `time.process_time()` with its last batch), per sample: on a shared machine
the wall rates move with the load, the CPU per sample much less.

    nice -n 10 .venv/bin/python benches/local_workers.py               # 4,000 samples, 3 repeats
    nice -n 10 .venv/bin/python benches/local_workers.py --n 1000 --repeats 1   # smoke
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PY, REPO, machine, md_table, median, synthetic_rows  # noqa: E402

WORKERS = (1, 2)


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One run in this process; what the parent tabulates."""
    import hashlib
    import time

    from ragassay.dataset import iter_samples
    from ragassay.runner import evaluate
    from ragassay.runner.ray_worker import peak_rss_mib
    from ragassay.store import Store
    from ragassay.types import RunConfig

    began, cpu = time.perf_counter(), time.process_time()
    store = Store(spec["db"])
    config = RunConfig(dataset=spec["data"], metrics=("judge", "trace", "ragas"))
    stats = evaluate(iter_samples(spec["data"]), config, store=store,
                     workers=spec["workers"])
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    meta = store.get_run(stats.run_id).meta
    digest = hashlib.sha256()
    for r in sorted(store.iter_results(stats.run_id), key=lambda r: (r.sample_id, r.suite)):
        digest.update(json.dumps([r.sample_id, r.suite, [m.model_dump(mode="json")
                                                         for m in r.results]]).encode())
    load = os.getloadavg()
    return {"samples": stats.samples, "seconds": stats.seconds, "wall": wall,
            "main_cpu_s": cpu, "worker_cpu_s": sum(stats.worker_cpu_s.values()),
            "main_mib": peak_rss_mib(), "results": digest.hexdigest(),
            "worker_mib": sorted(meta.worker_peak_rss_mib.values()), "load": load[0]}


def run_child(spec: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run([PY, __file__, "--child", json.dumps(spec)], capture_output=True,
                          text=True, cwd=REPO, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"x{spec['workers']} failed: {done.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    print(machine())
    figures: dict[int, list[dict[str, Any]]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="ragassay-workers-") as tmp:
        data = Path(tmp) / "data.jsonl"
        with data.open("w", encoding="utf-8") as fh:
            for row in synthetic_rows(args.n, n_contexts=5, words=100):
                fh.write(json.dumps(row) + "\n")
        for rep in range(args.repeats):
            for workers in WORKERS:
                got = run_child({"workers": workers, "data": str(data),
                                 "db": str(Path(tmp) / f"x{workers}-{rep}.db")})
                if got["samples"] != args.n:
                    raise RuntimeError(f"x{workers}: {got['samples']} samples")
                figures[workers].append(got)
                print(f"repeat {rep + 1}/{args.repeats} x{workers}: "
                      f"{args.n / got['seconds']:.1f} samples/s (load {got['load']:.1f}, "
                      f"main {got['main_mib']:.0f} MiB, workers {got['worker_mib']})",
                      file=sys.stderr, flush=True)
    digests = {r["results"] for runs in figures.values() for r in runs}
    base = median([args.n / r["seconds"] for r in figures[1]])
    rows = []
    for workers in WORKERS:
        runs = figures[workers]
        rates = [args.n / r["seconds"] for r in runs]
        worker_mib = [w for r in runs for w in r["worker_mib"]]
        main_ms = median([1000 * r["main_cpu_s"] / args.n for r in runs])
        worker_ms = median([1000 * r["worker_cpu_s"] / args.n for r in runs])
        rows.append([workers, f"{median(rates):.1f}", ", ".join(f"{v:.1f}" for v in rates),
                     f"{median(rates) / base:.2f}x", f"{main_ms:.2f}",
                     f"{worker_ms:.2f}" if worker_ms else "-",
                     ", ".join(f"{r['load']:.1f}" for r in runs),
                     f"{max(r['main_mib'] for r in runs):.0f}",
                     f"{max(worker_mib):.0f}" if worker_mib else "-"])
    print(f"\nOffline judge, every suite, {args.n:,} samples (5 contexts of ~100 words), "
          f"medians of {args.repeats}; results identical across all runs: "
          f"{'yes' if len(digests) == 1 else 'NO'}\n")
    print(md_table(["workers", "median samples/s", "raw", "vs 1 worker",
                    "main CPU ms/sample", "workers' CPU ms/sample",
                    "load (1 min) at end", "main peak RSS MiB",
                    "worker peak RSS MiB (max)"], rows))
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
