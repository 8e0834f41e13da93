"""Scale-out: the local engine vs `--engine ray` with 1 and 2 workers, offline and LLM.

Two workloads, each engine in a fresh child process (its own store, its own local Ray
instance), so that the driver's peak RSS is its own; the workers' peak RSS comes from
the run's meta (`ray_peak_rss_mib`, reported with every batch):

* offline: N samples (default 20,000; 5 contexts of ~100 words) from a JSONL file
  through the same loader as the CLI, every suite, the offline judge (CPU-bound);
* LLM: N samples (default 5,000) of the judge suite (one call each) against
  `benches/scripted_judge_server.py` with a fixed latency (default 200 ms), at each
  --concurrency (in flight across all workers); the ideal is concurrency / latency.

samples/s is samples over the run's own seconds (after the judge and the workers are
built: `RunStats.seconds`); "start s" is the rest of the child's wall time (imports,
Ray start, workers). Repeats are interleaved; tables quote medians and the raw values.

    .venv/bin/python benches/scale_ray.py                     # both workloads, 2 repeats
    .venv/bin/python benches/scale_ray.py --only offline --repeats 1
    .venv/bin/python benches/scale_ray.py --quick             # 2,000 / 500 samples, smoke
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PY, REPO, machine, md_table, median, scripted_server, synthetic_rows  # noqa: E402

ENGINES = (("local", 0), ("ray", 1), ("ray", 2))


def write_data(path: Path, n: int, contexts: int, words: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for row in synthetic_rows(n, n_contexts=contexts, words=words):
            fh.write(json.dumps(row) + "\n")
    return path


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One run in this process; what the parent tabulates."""
    import time

    from ragassay.dataset import iter_samples
    from ragassay.runner import RayOptions, evaluate
    from ragassay.runner.ray_worker import peak_rss_mib
    from ragassay.store import Store
    from ragassay.types import BackendOptions, RunConfig

    began, cpu = time.perf_counter(), time.process_time()
    store = Store(spec["db"])
    llm = spec["kind"] == "llm"
    config = RunConfig(dataset=spec["data"], judge="openai:scripted" if llm else "offline",
                       base_url=spec.get("url"), metrics=("judge",) if llm else
                       ("judge", "trace", "ragas"), concurrency=spec.get("concurrency", 8),
                       backend=BackendOptions(timeout_s=60.0, max_retries=2))
    samples = iter_samples(spec["data"])
    if spec["engine"] == "local":
        stats = evaluate(samples, config, store=store)
    else:
        stats = evaluate(samples, config, store=store, ray=RayOptions(workers=spec["workers"]))
    wall, cpu = time.perf_counter() - began, time.process_time() - cpu
    meta = store.get_run(stats.run_id).meta
    db_bytes = sum(f.stat().st_size for f in Path(spec["db"]).parent.glob(
        Path(spec["db"]).name + "*"))
    return {"samples": stats.samples, "calls": stats.usage.calls, "seconds": stats.seconds,
            "wall": wall, "driver_cpu_s": cpu, "driver_mib": peak_rss_mib(),
            "db_bytes": db_bytes, "worker_mib": sorted(meta.ray_peak_rss_mib.values())}


def run_child(spec: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run([PY, __file__, "--child", json.dumps(spec)], capture_output=True,
                          text=True, cwd=REPO, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"{spec['engine']} x{spec.get('workers')} failed: "
                           f"{done.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def label(engine: str, workers: int) -> str:
    return "local" if engine == "local" else f"ray x{workers}"


def measure(kind: str, data: Path, tmp: Path, repeats: int, n: int,
            extra: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for rep in range(repeats):
        for engine, workers in ENGINES:
            name = label(engine, workers)
            db = tmp / f"{kind}-{extra.get('concurrency', 0)}-{name}-{rep}.db".replace(" ", "")
            got = run_child({"kind": kind, "engine": engine, "workers": workers,
                             "data": str(data), "db": str(db), **extra})
            if got["samples"] != n or (kind == "llm" and got["calls"] != n):
                raise RuntimeError(f"{name}: {got['samples']} samples, {got['calls']} calls")
            out[name].append(got)
            print(f"{kind} {extra} repeat {rep + 1}/{repeats} {name}: "
                  f"{n / got['seconds']:.1f} samples/s (wall {got['wall']:.1f}s, driver "
                  f"{got['driver_mib']:.0f} MiB, workers {got['worker_mib']})",
                  file=sys.stderr)
    return out


def _rss(runs: list[dict[str, Any]]) -> tuple[str, str]:
    driver = max(r["driver_mib"] for r in runs)
    workers = [w for r in runs for w in r["worker_mib"]]
    return f"{driver:.0f}", (f"{max(workers):.0f}" if workers else "-")


def offline_table(figures: dict[str, list[dict[str, Any]]], n: int) -> str:
    base = median([n / r["seconds"] for r in figures["local"]])
    rows = []
    for engine, workers in ENGINES:
        runs = figures[label(engine, workers)]
        rates = [n / r["seconds"] for r in runs]
        start = median([r["wall"] - r["seconds"] for r in runs])
        cpu_ms = median([1000 * r["driver_cpu_s"] / n for r in runs])
        rows.append([label(engine, workers), f"{median(rates):.1f}",
                     ", ".join(f"{v:.1f}" for v in rates), f"{median(rates) / base:.2f}x",
                     f"{start:.1f}", f"{cpu_ms:.2f}", *_rss(runs),
                     f"{median([r['db_bytes'] / n for r in runs]) / 1024:.1f}"])
    return md_table(["engine", "median samples/s", "raw", "vs local", "start s",
                     "driver CPU ms/sample", "driver peak RSS MiB",
                     "worker peak RSS MiB (max)", "store KiB/sample"], rows)


def llm_table(by_c: dict[int, dict[str, list[dict[str, Any]]]], n: int,
              latency: float) -> str:
    rows = []
    for c, figures in by_c.items():
        ideal = c / latency
        for engine, workers in ENGINES:
            runs = figures[label(engine, workers)]
            rates = [n / r["seconds"] for r in runs]
            cpu_ms = median([1000 * r["driver_cpu_s"] / n for r in runs])
            rows.append([c, f"{ideal:.0f}", label(engine, workers), f"{median(rates):.1f}",
                         f"{median(rates) / ideal:.0%}", ", ".join(f"{v:.1f}" for v in rates),
                         f"{cpu_ms:.2f}", *_rss(runs)])
    return md_table(["concurrency", "ideal /s", "engine", "median samples/s", "of ideal",
                     "raw", "driver CPU ms/sample", "driver peak RSS MiB",
                     "worker peak RSS MiB (max)"], rows)


def ceiling(data: Path, tmp: Path, n: int) -> str:
    """What the driver alone can do per second, each step timed on its own in this
    process: read and validate (the CLI's loader), store input batches, and write
    judged batches (every suite's prepared results, as workers return them)."""
    import dataclasses
    import time

    from ragassay.dataset import iter_samples
    from ragassay.judge.offline_judge import OfflineJudge
    from ragassay.metrics import SuiteOptions, get_suites
    from ragassay.store import Store, prepare_result
    from ragassay.text import key_sample
    from ragassay.types import RunConfig, Sample

    cpu: dict[str, float] = defaultdict(float)
    wall: dict[str, float] = defaultdict(float)

    def timed(step: str, work: Any) -> Any:
        t, w = time.process_time(), time.perf_counter()
        out = work()
        cpu[step] += time.process_time() - t
        wall[step] += time.perf_counter() - w
        return out

    samples = timed("read", lambda: [s for s in iter_samples(data) if isinstance(s, Sample)])
    suites, judge = get_suites(("judge", "trace", "ragas")), OfflineJudge()
    keyed = [key_sample(s, 6000) for s in samples[:128]]
    model = [prepare_result(su.evaluate_offline(k, e, SuiteOptions()).result)
             for k, e in zip(keyed, judge.analyze(keyed), strict=True) for su in suites]
    store = Store(tmp / "ceiling.db")
    run_id = store.create_run(RunConfig(dataset=str(data)), package_version="bench",
                              dataset_hash=None, judge_model="offline")
    for i in range(0, n, 128):
        batch = samples[i:i + 128]
        timed("add", lambda batch=batch: store.add_samples(run_id, batch))
        prepared = [dataclasses.replace(model[j % len(model)], sample_id=s.id)
                    for j, s in enumerate(x for x in batch for _ in suites)]
        timed("write", lambda prepared=prepared: store.save_results(run_id, prepared))
    cpu["all"], wall["all"] = sum(cpu.values()), sum(wall.values())
    names = {"read": "read + validate (the CLI's loader)",
             "add": "store input batches (add_samples, 128 a transaction)",
             "write": "write judged batches (3 suites, 128 samples a transaction)",
             "all": "all three"}
    rows = [[names[k], f"{1000 * cpu[k] / n:.3f}", f"{n / cpu[k]:,.0f}", f"{n / wall[k]:,.0f}"]
            for k in names]
    return md_table(["driver step", "CPU ms/sample", "samples per CPU-second",
                     "samples/s wall (shared machine)"], rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--offline-n", type=int, default=20_000)
    ap.add_argument("--llm-n", type=int, default=5_000)
    ap.add_argument("--contexts", type=int, default=5)
    ap.add_argument("--words", type=int, default=100, help="words per context")
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--concurrency", default="16,64")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", choices=["offline", "llm", "ceiling"], default=None)
    ap.add_argument("--quick", action="store_true", help="2,000 / 500 samples, 1 repeat")
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return 0
    if args.quick:
        args.offline_n, args.llm_n, args.repeats = 2_000, 500, 1
    out = [f"Machine: {machine()}\n"]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = write_data(tmp / "offline.jsonl", args.offline_n, args.contexts, args.words)
        if args.only in (None, "ceiling"):
            out.append(f"Driver ceiling, {args.offline_n:,} samples\n\n"
                       f"{ceiling(data, tmp, args.offline_n)}\n")
        if args.only in (None, "offline"):
            figures = measure("offline", data, tmp, args.repeats, args.offline_n, {})
            out.append(f"Offline judge, every suite, {args.offline_n:,} samples ({args.contexts}"
                       f" contexts of ~{args.words} words), medians of {args.repeats}\n\n"
                       f"{offline_table(figures, args.offline_n)}\n")
        if args.only in (None, "llm"):
            data = write_data(tmp / "llm.jsonl", args.llm_n, 3, 30)
            by_c = {}
            with scripted_server(args.latency) as url:
                for c in (int(x) for x in args.concurrency.split(",")):
                    by_c[c] = measure("llm", data, tmp, args.repeats, args.llm_n,
                                      {"url": url, "concurrency": c})
            out.append(f"Judge suite against the scripted server, {args.latency * 1000:.0f} ms "
                       f"per call, {args.llm_n:,} samples, medians of {args.repeats}\n\n"
                       f"{llm_table(by_c, args.llm_n, args.latency)}\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
