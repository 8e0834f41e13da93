"""Engine overhead: judge-suite samples per second against an instant scripted server.

For each concurrency (1, 8, 64) and repeat, in one process, side by side:
  * sdk    - the bare OpenAI SDK sending the same rendered judge prompts (the ceiling:
             what any Python client on this machine gets from this server);
  * first  - a ragassay run (judge suite, one judge call per sample) into a fresh store;
  * rerun  - the same samples again in the same store: every judgment a cache hit.
`--compare FILE` adds another engine.py (e.g. an older revision's) side by side.
It prints medians over repeats of samples/s (wall) and client CPU ms per sample
(process time: robust to the noise of a shared machine), plus a markdown table.
The server (benches/scripted_judge_server.py) runs in its own process.

    .venv/bin/python benches/engine_overhead.py            # 1000 samples x 3 repeats
    .venv/bin/python benches/engine_overhead.py --quick    # 200 samples x 1 repeat
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
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

Figures = dict[tuple[str, int], list[tuple[float, float]]]  # (kind, c) -> [(per_s, cpu_ms)]


async def _sdk_pass(base_url: str, payloads: list[dict[str, Any]], concurrency: int) -> None:
    import openai

    client = openai.AsyncOpenAI(base_url=base_url, api_key="not-needed", max_retries=0)
    gate = asyncio.Semaphore(concurrency)

    async def one(kwargs: dict[str, Any]) -> None:
        async with gate:
            await client.chat.completions.create(**kwargs)

    try:
        await asyncio.gather(*(one(p) for p in payloads))
    finally:
        await client.close()


def sdk_payloads(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The judge suite's rendered requests, as the backend would send them."""
    from ragassay.metrics.base import number_contexts
    from ragassay.metrics.judge.suite import PROMPT

    schema = PROMPT.schema
    out = []
    for r in rows:
        messages = PROMPT.render({"question": r["question"],
                                  "contexts": number_contexts(r["contexts"]),
                                  "answer": r["answer"], "reference": r["reference"]})
        out.append({"model": "scripted", "temperature": 0.0, "max_tokens": PROMPT.max_tokens,
                    "seed": 0, "messages": [m.model_dump() for m in messages],
                    "response_format": {"type": "json_schema", "json_schema": {
                        "name": "judge_scores", "schema": schema, "strict": False}}})
    return out


def timed(fn: Any, n: int) -> tuple[float, float]:
    """(items per second, CPU ms per item) of fn()."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return n / wall, 1000 * cpu / n


def measure(n: int, concurrencies: list[int], repeats: int,
            engines: dict[str, Any]) -> Figures:
    """Every (kind, concurrency) `repeats` times, interleaved; the raw figures.

    Kinds: "sdk", and "<engine> first" / "<engine> rerun" for each engine.
    """
    import openai  # noqa: F401  imported before timing

    import ragassay.llm.openai_backend  # noqa: F401

    rows = list(synthetic_rows(n))
    payloads = sdk_payloads(rows)
    figures: Figures = defaultdict(list)
    with scripted_server() as url, tempfile.TemporaryDirectory() as tmp:
        warm_up(url, Path(tmp))
        for rep in range(repeats):
            for c in concurrencies:
                figures["sdk", c].append(
                    timed(lambda c=c: asyncio.run(_sdk_pass(url, payloads, c)), n))
                for label, evaluate in engines.items():
                    db = Path(tmp) / f"{label}-r{rep}-c{c}.db"
                    stores: list[Any] = []

                    def engine(c: int = c, db: Path = db, evaluate: Any = evaluate,
                               stores: list[Any] = stores) -> None:
                        _, stats, store = run_engine(url, rows, c, db, engine=evaluate)
                        stores.append(store)
                        if stats.samples != n:
                            raise RuntimeError(f"run scored {stats.samples} of {n} samples")

                    figures[f"{label} first", c].append(timed(engine, n))
                    figures[f"{label} rerun", c].append(timed(engine, n))
                    hits = stores[-1].usage(stores[-1].latest_run().id, source="calls")
                    if hits["total"].cache_hits != n:
                        raise RuntimeError(f"rerun: {hits['total'].cache_hits} hits, not {n}")
                    for store in stores:
                        store.close()
                print(f"repeat {rep + 1}/{repeats} c={c}: " + ", ".join(
                    f"{k} {v[-1][0]:.0f}/s" for (k, cc), v in figures.items() if cc == c),
                    file=sys.stderr)
    return figures


def report(figures: Figures, concurrencies: list[int], labels: list[str], n: int,
           repeats: int) -> str:
    rows = []
    for c in concurrencies:
        med = {k: (median([f[0] for f in v]), median([f[1] for f in v]))
               for (k, cc), v in figures.items() if cc == c}
        sdk = med["sdk"]
        for label in labels:
            first, rerun = med[f"{label} first"], med[f"{label} rerun"]
            rows.append([c, label, f"{sdk[0]:.0f}", f"{sdk[1]:.2f}", f"{first[0]:.0f}",
                         f"{first[1]:.2f}", f"{rerun[0]:.0f}", f"{rerun[1]:.2f}",
                         f"{rerun[0] / first[0]:.1f}x", f"{first[0] / sdk[0]:.0%}"])
    table = md_table(["concurrency", "engine", "SDK only /s", "SDK CPU ms", "first run /s",
                      "first CPU ms/sample", "cache rerun /s", "rerun CPU ms/sample",
                      "rerun speed-up", "first / SDK"], rows)
    raw = "\n".join(f"- {k} c={c}: " + ", ".join(f"{p:.0f}/s {m:.2f}ms" for p, m in v)
                    for (k, c), v in sorted(figures.items(), key=lambda kv: (kv[0][1], kv[0][0])))
    return (f"Machine: {machine()}\n\n{n} samples, judge suite, medians of {repeats} "
            f"repeat(s)\n\n{table}\n\nRaw (samples/s, client CPU ms/sample):\n{raw}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--concurrency", default="1,8,64")
    ap.add_argument("--compare", default=None, metavar="ENGINE_PY",
                    help="also run this engine.py, side by side (labelled 'other')")
    ap.add_argument("--quick", action="store_true", help="200 samples, 1 repeat")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.repeats = 200, 1
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    engines = {"ragassay": load_engine(None)}
    if args.compare:
        engines["other"] = load_engine(args.compare)
    figures = measure(args.n, concurrencies, args.repeats, engines)
    print(report(figures, concurrencies, list(engines), args.n, args.repeats))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
