"""The store's write rate: judged results per second into SQLite and PostgreSQL.

What a run's writer does for each judged batch (`Store.save_results`: one transaction
with the results, their metric values and ledger rows), measured alone: real offline
judgments (every suite, synthetic samples of 5 contexts of ~100 words; judged once,
then written again under new sample ids) written in transactions of `--batch` results
by 1, 2 or 4 writer processes at once into one run. PostgreSQL is a private server
started here (Debian's binaries, 127.0.0.1, fsync ON, as a server runs by default; its
data on this machine's disk); SQLite a file in a temp folder (WAL, synchronous=NORMAL,
the store's settings).

Per row: results/s (all writers together, over the slowest writer's wall time), the
writers' CPU ms per result, and the PostgreSQL server's CPU ms per result (its backends'
CPU, from /proc). Every store takes one writer at a time (SQLite's lock; on PostgreSQL
the store's advisory write lock), so writers add connections, not parallel writes.

    nice -n 10 .venv/bin/python benches/store_writes.py                  # 6,000 results
    nice -n 10 .venv/bin/python benches/store_writes.py --results 1500 --batches 384  # smoke
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import machine, md_table, median, synthetic_rows  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def judged(n_samples: int, folder: Path) -> list[Any]:
    """`n_samples` samples judged by the offline judge, every suite, as PreparedResults."""
    from ragassay.runner import evaluate
    from ragassay.store import Store, prepare_result
    from ragassay.types import RunConfig, Sample

    rows = list(synthetic_rows(n_samples, n_contexts=5, words=100))
    store = Store(folder / "judged.db")
    stats = evaluate([Sample(**r) for r in rows], RunConfig(
        dataset="bench", metrics=("judge", "trace", "ragas")), store=store)
    return [prepare_result(r) for r in store.iter_results(stats.run_id)]


def _writer(location: str, run_id: str, results: list[Any], batch: int,
            out: Any) -> None:
    """One writer process: its share of the results in transactions of `batch`."""
    from ragassay.store import Store

    store = Store(location)
    began, cpu = time.perf_counter(), time.process_time()
    for start in range(0, len(results), batch):
        store.save_results(run_id, results[start:start + batch])
    out.put((time.perf_counter() - began, time.process_time() - cpu))
    store.close()


def _pg_cpu_s(postmaster: int) -> float:
    """CPU seconds of a process tree's top (the PostgreSQL server's postmaster, a Ray
    raylet): its own, its live children's, and the children it has reaped (cutime,
    cstime)."""
    def stat(pid: int) -> list[str]:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()

    total = sum(int(x) for x in stat(postmaster)[11:15])  # utime stime cutime cstime
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = stat(int(entry.name))
            except (OSError, IndexError):
                continue
            if int(fields[1]) == postmaster:
                total += int(fields[11]) + int(fields[12])
    return total / TICKS


def measure(location: str, pool: list[Any], n: int, batch: int, writers: int,
            postmaster: int | None) -> dict[str, float]:
    """Write `n` results (the pool under new sample ids) with `writers` processes."""
    from ragassay.store import Store
    from ragassay.types import RunConfig

    store = Store(location)
    run_id = store.create_run(RunConfig(dataset="writes"), package_version="bench",
                              dataset_hash=None, judge_model="offline")
    store.close()
    results = [dataclasses.replace(pool[i % len(pool)],
                                   sample_id=f"{pool[i % len(pool)].sample_id}-{i}")
               for i in range(n)]
    shares = [results[k::writers] for k in range(writers)]
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    pg_before = _pg_cpu_s(postmaster) if postmaster else 0.0
    procs = [ctx.Process(target=_writer, args=(location, run_id, share, batch, out))
             for share in shares]
    for p in procs:
        p.start()
    got = [out.get() for _ in procs]
    for p in procs:
        p.join()
    pg_cpu = (_pg_cpu_s(postmaster) - pg_before) if postmaster else 0.0
    wall = max(w for w, _ in got)
    with Store(location) as check:
        stored = check.conn.execute("SELECT COUNT(*) FROM results WHERE run_id = ?",
                                    (run_id,)).fetchone()[0]
    if stored != n:
        raise RuntimeError(f"{stored} of {n} results stored")
    return {"rate": n / wall, "writer_ms": 1000 * sum(c for _, c in got) / n,
            "server_ms": 1000 * pg_cpu / n, "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=6000, help="results per measurement")
    parser.add_argument("--batches", default="1,32,384",
                        help="results per transaction (384 = a Ray task of 128 samples "
                             "x 3 suites; 96 = a local batch of 32 x 3)")
    parser.add_argument("--writers", default="1,2,4")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--samples", type=int, default=200,
                        help="samples judged once for the pool of results")
    args = parser.parse_args(argv)
    from tests.support.postgres import missing, start_cluster

    print(machine())
    batches = [int(x) for x in args.batches.split(",")]
    writer_counts = [int(x) for x in args.writers.split(",")]
    why = missing() if "postgresql" in args.stores.split(",") else "not asked for"
    if why:
        print(f"PostgreSQL not measured: {why}", file=sys.stderr)
    figures: dict[tuple[str, int, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="ragassay-writes-") as tmp:
        pool = judged(args.samples, Path(tmp))
        print(f"pool: {len(pool)} judged results from {args.samples} samples; "
              f"{sum(len(r.results_json) for r in pool) / len(pool):,.0f} bytes of "
              "results JSON each", file=sys.stderr)
        clusters = start_cluster(fsync=True) if why is None else None
        cluster = next(clusters) if clusters is not None else None
        try:
            for rep in range(args.repeats):
                for batch in batches:
                    for writers in writer_counts:
                        stores = [("sqlite", str(Path(tmp) / f"w{rep}-{batch}-{writers}.db"),
                                   None)] if "sqlite" in args.stores.split(",") else []
                        if cluster is not None:
                            name = f"w{rep}_{batch}_{writers}"
                            stores.append(("postgresql", cluster.new_database(name),
                                           cluster.pid))
                        for kind, location, postmaster in stores:
                            got = measure(location, pool, args.results, batch, writers,
                                          postmaster)
                            figures.setdefault((kind, batch, writers), []).append(got)
                            print(f"repeat {rep + 1} {kind} batch {batch} x{writers}: "
                                  f"{got['rate']:,.0f} results/s (load {got['load']:.1f})",
                                  file=sys.stderr, flush=True)
        finally:
            if clusters is not None:
                clusters.close()  # stops the server (by its PID) and removes its folder
    rows = []
    for (kind, batch, writers), runs in sorted(figures.items()):
        rates = [r["rate"] for r in runs]
        rows.append([kind, batch, writers, f"{median(rates):,.0f}",
                     ", ".join(f"{v:,.0f}" for v in rates),
                     f"{median([r['writer_ms'] for r in runs]):.3f}",
                     f"{median([r['server_ms'] for r in runs]):.3f}" if kind != "sqlite"
                     else "-", ", ".join(f"{r['load']:.1f}" for r in runs)])
    print(f"\n{args.results:,} results a measurement (offline judge, every suite; 3 results "
          f"a sample), medians of {args.repeats}\n")
    print(md_table(["store", "results a transaction", "writers", "median results/s", "raw",
                    "writers' CPU ms/result", "server CPU ms/result", "load (1 min)"], rows))
    print(json.dumps({f"{k}/{b}/{w}": median([r["rate"] for r in v])
                      for (k, b, w), v in figures.items()}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
