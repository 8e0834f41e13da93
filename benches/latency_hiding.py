"""Latency hiding: judge-suite throughput vs concurrency against a 500 ms scripted server.

The ideal is concurrency / latency samples per second (one judge call per sample).
Each concurrency runs `waves` x concurrency samples (so every run spans the same
number of latency periods), into a fresh store; repeats are interleaved and the
table quotes medians. `--jitter 0.5` spreads each reply's latency over
[0.5, 1.5] x latency: with batched scheduling a batch waits for its slowest call,
which a sliding window does not.

    .venv/bin/python benches/latency_hiding.py                    # fixed 500 ms
    .venv/bin/python benches/latency_hiding.py --jitter 0.5       # 250-750 ms
    .venv/bin/python benches/latency_hiding.py --quick
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    machine,
    md_table,
    median,
    run_engine,
    scripted_server,
    synthetic_rows,
    warm_up,
)


def measure(concurrencies: list[int], latency: float, jitter: float, waves: int,
            repeats: int) -> dict[int, list[float]]:
    """samples/s per concurrency, `repeats` values each."""
    import ragassay.llm.openai_backend  # noqa: F401  imported before timing

    out: dict[int, list[float]] = defaultdict(list)
    with scripted_server(latency, jitter) as url, tempfile.TemporaryDirectory() as tmp:
        warm_up(url, Path(tmp))
        for rep in range(repeats):
            for c in concurrencies:
                n = max(waves * c, 2 * waves)
                rows = list(synthetic_rows(n, seed=rep))
                started = time.perf_counter()
                _, stats, store = run_engine(url, rows, c, Path(tmp) / f"r{rep}-c{c}.db")
                seconds = time.perf_counter() - started
                store.close()
                if stats.samples != n or stats.usage.calls != n:
                    raise RuntimeError(f"c={c}: {stats.samples} samples, {stats.usage.calls} "
                                       f"calls, expected {n}")
                out[c].append(n / seconds)
                print(f"repeat {rep + 1}/{repeats} c={c}: {n} samples in {seconds:.1f}s = "
                      f"{n / seconds:.1f}/s (ideal {c / latency:.0f}/s)", file=sys.stderr)
    return out


def report(figures: dict[int, list[float]], latency: float, jitter: float, waves: int,
           repeats: int) -> str:
    rows = []
    for c, values in sorted(figures.items()):
        ideal = c / latency
        med = median(values)
        rows.append([c, max(waves * c, 2 * waves), f"{ideal:.0f}", f"{med:.1f}",
                     f"{med / ideal:.0%}", ", ".join(f"{v:.1f}" for v in values)])
    table = md_table(["concurrency", "samples", "ideal /s", "median /s", "of ideal",
                      "raw /s"], rows)
    spread = f", jitter +/-{jitter:.0%}" if jitter else ""
    return (f"Machine: {machine()}\n\nJudge suite, scripted server latency {latency * 1000:.0f}"
            f" ms{spread}, {waves} waves per run, medians of {repeats}\n\n{table}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.5)
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--concurrency", default="1,8,32,64")
    ap.add_argument("--waves", type=int, default=12, help="samples = waves x concurrency")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="4 waves, 1 repeat")
    args = ap.parse_args(argv)
    if args.quick:
        args.waves, args.repeats = 4, 1
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    figures = measure(concurrencies, args.latency, args.jitter, args.waves, args.repeats)
    print(report(figures, args.latency, args.jitter, args.waves, args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
