"""Latency hiding: judge-suite throughput vs concurrency against a 500 ms scripted server.

The ideal is concurrency / latency samples per second (one judge call per sample).
Each concurrency runs `waves` x concurrency samples (so every run spans the same
number of latency periods), into a fresh store; repeats are interleaved and the
table quotes medians. `--jitter 0.5` spreads each reply's latency over
[0.5, 1.5] x latency: with batch-by-batch scheduling a batch waits for its slowest
call, which a sliding window does not. `--compare FILE` runs another engine.py side
by side (e.g. `git show REV:src/ragassay/runner/engine.py > /tmp/engine_old.py`).

    .venv/bin/python benches/latency_hiding.py                    # fixed 500 ms
    .venv/bin/python benches/latency_hiding.py --jitter 0.5       # 250-750 ms
    .venv/bin/python benches/latency_hiding.py --quick    # smoke: 4 waves, 1 repeat
                                                          # (per-run costs weigh 3x more)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    load_engine,
    machine,
    md_table,
    median,
    run_engine,
    scripted_server,
    synthetic_rows,
    warm_up,
)

Figures = dict[tuple[str, int], list[float]]  # (engine label, concurrency) -> samples/s


def measure(concurrencies: list[int], latency: float, jitter: float, waves: int,
            repeats: int, engines: dict[str, Any]) -> Figures:
    """samples/s per (engine, concurrency), `repeats` values each, interleaved."""
    out: Figures = defaultdict(list)
    with scripted_server(latency, jitter) as url, tempfile.TemporaryDirectory() as tmp:
        warm_up(url, Path(tmp))
        for rep in range(repeats):
            for c in concurrencies:
                for label, engine in engines.items():
                    n = max(waves * c, 2 * waves)
                    rows = list(synthetic_rows(n, seed=rep))
                    db = Path(tmp) / f"{label}-r{rep}-c{c}.db"
                    seconds, stats, store = run_engine(url, rows, c, db, engine=engine)
                    store.close()
                    if stats.samples != n or stats.usage.calls != n:
                        raise RuntimeError(f"c={c}: {stats.samples} samples, "
                                           f"{stats.usage.calls} calls, expected {n}")
                    out[label, c].append(n / seconds)
                    print(f"repeat {rep + 1}/{repeats} {label} c={c}: {n} samples in "
                          f"{seconds:.1f}s = {n / seconds:.1f}/s (ideal {c / latency:.0f}/s)",
                          file=sys.stderr)
    return out


def report(figures: Figures, concurrencies: list[int], labels: list[str], latency: float,
           jitter: float, waves: int, repeats: int) -> str:
    rows = []
    for c in concurrencies:
        ideal = c / latency
        row: list[Any] = [c, max(waves * c, 2 * waves), f"{ideal:.0f}"]
        for label in labels:
            values = figures[label, c]
            med = median(values)
            row += [f"{med:.1f}", f"{med / ideal:.0%}", ", ".join(f"{v:.1f}" for v in values)]
        rows.append(row)
    headers = ["concurrency", "samples", "ideal /s"]
    for label in labels:
        headers += [f"{label} median /s", f"{label} of ideal", f"{label} raw /s"]
    spread = f", jitter +/-{jitter:.0%}" if jitter else ""
    return (f"Machine: {machine()}\n\nJudge suite, scripted server latency {latency * 1000:.0f}"
            f" ms{spread}, {waves} waves per run, medians of {repeats}\n\n"
            f"{md_table(headers, rows)}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=0.5)
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--concurrency", default="1,8,32,64")
    ap.add_argument("--waves", type=int, default=12, help="samples = waves x concurrency")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--compare", default=None, metavar="ENGINE_PY",
                    help="also run this engine.py, side by side (labelled 'other')")
    ap.add_argument("--quick", action="store_true", help="4 waves, 1 repeat")
    args = ap.parse_args(argv)
    if args.quick:
        args.waves, args.repeats = 4, 1
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    engines = {"ragassay": load_engine(None)}
    if args.compare:
        engines["other"] = load_engine(args.compare)
    figures = measure(concurrencies, args.latency, args.jitter, args.waves, args.repeats,
                      engines)
    print(report(figures, concurrencies, list(engines), args.latency, args.jitter, args.waves,
                 args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
