"""Throughput and peak memory of the offline judge's evidence engine.

Synthetic samples shaped like a typical RAG row: a question, 5 contexts of
~150 words and a ~100-word answer, every context unique (the worst case for
the embedding and sentence caches). Samples are generated and analysed in
batches, streaming, so memory must stay bounded.

    .venv/bin/python benches/offline_judge.py [--n 1000 10000] [--embedder static] [--batch 64]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ragassay.judge.offline import Analyzer  # noqa: E402
from ragassay.types import Sample  # noqa: E402

WORDS = (
    "river station company revenue quarter growth museum tower engineer design council city "
    "budget school teacher student research energy solar wind policy market price trade "
    "report science history war treaty king queen island mountain forest climate rain "
    "vaccine hospital patient doctor court law judge election party vote bridge railway"
).split()
GLUE = "the a of in on for with by from was were is are has had and to at its their".split()
NAMES = "Paris Berlin Smith Garcia Nile Amazon Apple Tesla Kyoto Lagos Oslo Quito".split()


def sentence(rng: random.Random, n: int) -> str:
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.45:
            out.append(rng.choice(GLUE))
        elif r < 0.9:
            out.append(rng.choice(WORDS))
        elif r < 0.95:
            out.append(rng.choice(NAMES))
        else:
            out.append(str(rng.randint(1, 2030)))
        if i == 0:
            out[0] = out[0].capitalize()
    return " ".join(out) + "."


def text(rng: random.Random, words: int) -> str:
    parts, n = [], 0
    while n < words:
        k = rng.randint(12, 26)
        parts.append(sentence(rng, k))
        n += k
    return " ".join(parts)


def samples(n: int, seed: int = 0) -> Iterator[Sample]:
    rng = random.Random(seed)
    for i in range(n):
        yield Sample(
            id=f"s{i}",
            question=sentence(rng, 10).rstrip(".") + "?",
            contexts=tuple(text(rng, 150) for _ in range(5)),
            answer=text(rng, 100),
            reference=text(rng, 40),
        )


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run(an: Analyzer, n: int, batch: int) -> tuple[float, float]:
    done, t0 = 0, time.perf_counter()
    buf: list[Sample] = []
    for s in samples(n, seed=n):
        buf.append(s)
        if len(buf) == batch:
            done += len(an.analyze_many(buf))
            buf = []
    if buf:
        done += len(an.analyze_many(buf))
    return done / (time.perf_counter() - t0), peak_mb()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--embedder", default="static")
    ap.add_argument("--batch", type=int, default=64)
    args = ap.parse_args()
    an = Analyzer(embedder=args.embedder)
    an.analyze_many(list(samples(8, seed=-1)))  # warm-up: load tables, tokenizer, pysbd
    print(f"embedder={args.embedder} batch={args.batch} start peak RSS {peak_mb():.0f} MB")
    for n in args.n:
        rate, mb = run(an, n, args.batch)
        print(f"n={n:>6}: {rate:7.1f} samples/s  peak RSS {mb:.0f} MB")


if __name__ == "__main__":
    main()
