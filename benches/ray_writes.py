"""Ray on two nodes with a PostgreSQL store: the driver writes vs the workers write.

A Ray cluster of two nodes on this machine (a head and one more raylet, 1 CPU each, all
on 127.0.0.1: `tests/support/ray_cluster.two_nodes`) and a private PostgreSQL server
(Debian's binaries, fsync on). The same offline run (N synthetic samples, 5 contexts of
~100 words, every suite) through the real CLI, `ragassay eval --engine ray --ray-address
ADDR --workers 2 --db postgresql://...`, with `--ray-writes driver` and `--ray-writes
workers`, repeats interleaved, each driver a fresh process. One worker lands on each
node (1 CPU each), so one worker writes from the node that is not the driver's.

Per mode: samples/s over the run's own seconds (its meta; workers' start included), the
driver's CPU ms per sample (the CLI process: reading, validating, storing the inputs,
and in driver mode writing the results; its start-up, measured by a run of `--small`
samples in the same mode, taken out), the judge workers' CPU ms per sample
(`ray::JudgeWorker` processes read from /proc every 0.2 s while the run goes on: a raylet
does not account its children's CPU; a worker's last 0.2 s is missed), the PostgreSQL
server's CPU ms per sample, and whether the stored results are identical across all
runs (sha256).

    nice -n 10 .venv/bin/python benches/ray_writes.py                 # 2,000 samples, 2 repeats
    nice -n 10 .venv/bin/python benches/ray_writes.py --n 300 --repeats 1   # smoke
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _common import PY, REPO, machine, md_table, median, synthetic_rows  # noqa: E402
from store_writes import TICKS, _pg_cpu_s  # noqa: E402

MODES = ("driver", "workers")


def _digest(url: str, run_id: str) -> str:
    from ragassay.store import Store

    digest = hashlib.sha256()
    with Store(url, readonly=True) as store:
        for r in sorted(store.iter_results(run_id), key=lambda r: (r.sample_id, r.suite)):
            digest.update(json.dumps([r.sample_id, r.suite, [m.model_dump(mode="json")
                                                             for m in r.results]]).encode())
    return digest.hexdigest()


class WorkerCpu:
    """The CPU seconds of this run's Ray judge workers: each worker process's last reading
    of utime + stime, polled while the run goes on."""

    def __init__(self, raylets: list[int]) -> None:
        self.raylets = set(raylets)
        self.seen: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        while not self.stop.wait(0.2):
            for entry in Path("/proc").iterdir():
                if not entry.name.isdigit():
                    continue
                try:
                    if not (entry / "cmdline").read_bytes().startswith(b"ray::JudgeWorker"):
                        continue
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) in self.raylets:
                    self.seen[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICKS

    def total(self) -> float:
        self.stop.set()
        self.thread.join()
        return float(sum(self.seen.values()))


def one_run(data: Path, address: str, url: str, writes: str, postmaster: int,
            raylets: list[int]) -> dict[str, Any]:
    from ragassay.store import Store

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    pg_before = _pg_cpu_s(postmaster)
    workers = WorkerCpu(raylets)
    done = subprocess.run(
        [PY, "-m", "ragassay", "eval", str(data), "--engine", "ray", "--ray-address", address,
         "--ray-writes", writes, "--workers", "2", "--metrics", "judge,trace,ragas",
         "--db", url, "-q"], capture_output=True, text=True, cwd=REPO, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"{writes}: exit {done.returncode}: {done.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pg_cpu = _pg_cpu_s(postmaster) - pg_before
    workers_cpu = workers.total()
    with Store(url, readonly=True) as store:
        run = store.latest_run()
        assert run is not None and run.status == "complete", run
        meta = run.meta
    return {"seconds": meta.seconds, "samples": meta.samples,
            "driver_cpu_s": (after.ru_utime + after.ru_stime)
            - (before.ru_utime + before.ru_stime),
            "pg_cpu_s": pg_cpu, "workers_cpu_s": workers_cpu, "results": _digest(url, run.id),
            "workers": meta.ray_workers, "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--small", type=int, default=40,
                        help="samples of the run that measures the driver's start-up")
    args = parser.parse_args(argv)
    from tests.support.postgres import start_cluster
    from tests.support.ray_cluster import processes_using, two_nodes

    print(machine())
    figures: dict[str, list[dict[str, Any]]] = defaultdict(list)
    startup: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="ragassay-raywrites-") as tmp:
        data, small = Path(tmp) / "data.jsonl", Path(tmp) / "small.jsonl"
        for path, n in ((data, args.n), (small, args.small)):
            with path.open("w", encoding="utf-8") as fh:
                for row in synthetic_rows(n, n_contexts=5, words=100, seed=n):
                    fh.write(json.dumps(row) + "\n")
        pg = start_cluster(fsync=True)
        ray = two_nodes()
        try:
            cluster = next(pg)
            address = next(ray)
            folder = Path(os.environ["RAY_TMPDIR"])  # two_nodes' own folder
            raylets = [pid for pid in processes_using(folder)
                       if Path(f"/proc/{pid}/comm").read_text().strip() == "raylet"]
            assert len(raylets) == 2, raylets
            for rep in range(args.repeats):
                for writes in MODES:
                    url = cluster.new_database(f"s{rep}_{writes}")
                    little = one_run(small, address, url, writes, cluster.pid, raylets)
                    startup[writes].append(little["driver_cpu_s"])
                    url = cluster.new_database(f"r{rep}_{writes}")
                    got = one_run(data, address, url, writes, cluster.pid, raylets)
                    if got["samples"] != args.n or got["workers"] != 2:
                        raise RuntimeError(f"{writes}: {got}")
                    figures[writes].append(got)
                    got["steady_s"] = got["driver_cpu_s"] - little["driver_cpu_s"]
                    print(f"repeat {rep + 1}/{args.repeats} {writes}: "
                          f"{args.n / got['seconds']:.1f} samples/s, driver "
                          f"{1000 * got['driver_cpu_s'] / args.n:.2f} ms/sample, start-up "
                          f"{little['driver_cpu_s']:.1f} s (load {got['load']:.1f})",
                          file=sys.stderr, flush=True)
        finally:
            ray.close()  # the cluster's processes stopped (by PID), its folder removed
            pg.close()  # the server stopped by its PID
    digests = {r["results"] for runs in figures.values() for r in runs}
    rows = []
    for writes in MODES:
        runs = figures[writes]
        rates = [args.n / r["seconds"] for r in runs]
        rows.append([writes, 1 + 2 * (writes == "workers"), f"{median(rates):.1f}",
                     ", ".join(f"{v:.1f}" for v in rates),
                     f"{median([1000 * r['driver_cpu_s'] / args.n for r in runs]):.2f}",
                     f"{median(startup[writes]):.1f}",
                     f"{median([1000 * r['steady_s'] / (args.n - args.small) for r in runs]):.2f}",
                     f"{median([1000 * r['workers_cpu_s'] / args.n for r in runs]):.1f}",
                     f"{median([1000 * r['pg_cpu_s'] / args.n for r in runs]):.2f}",
                     ", ".join(f"{r['load']:.1f}" for r in runs)])
    print(f"\nOffline judge, every suite, {args.n:,} samples, 2 Ray workers on 2 nodes, "
          f"medians of {args.repeats}; results identical across all runs: "
          f"{'yes' if len(digests) == 1 else 'NO'}\n")
    print(md_table(["who writes", "store connections", "median samples/s", "raw",
                    "driver CPU ms/sample (all)", "driver start-up CPU s",
                    "driver CPU ms/sample (start-up out)", "workers' CPU ms/sample",
                    "PostgreSQL CPU ms/sample", "load (1 min)"], rows))
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
