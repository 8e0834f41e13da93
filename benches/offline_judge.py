"""Throughput and peak memory of the offline judge's evidence engine.

Synthetic samples shaped like a typical RAG row: a question, 5 contexts of
~150 words and a ~100-word answer, built from realistic English sentence
templates with random numbers and words filled in, so that every context and
almost every sentence is unique (the worst case for the caches). Samples are
generated and analysed in batches, streaming, so memory must stay bounded.
Reports wall-clock and CPU-time rates (the latter is robust to a shared machine).
By default each batch goes the product's way for the judge suite: keyed once
(`key_sample`), the Analyzer's evidence, then `JudgeSuite.evaluate_offline`;
`--suites none` times the evidence alone, `--suites judge,trace,ragas` all three.

    .venv/bin/python benches/offline_judge.py [--n 1000 10000] [--embedder static] [--batch 64]
                                              [--relevance-embedder local:128] [--suites judge]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ragassay.judge.offline import Analyzer  # noqa: E402
from ragassay.metrics import get_suites  # noqa: E402
from ragassay.metrics.base import Suite, SuiteOptions  # noqa: E402
from ragassay.text import key_sample, split_sentences  # noqa: E402
from ragassay.types import Sample  # noqa: E402

TEMPLATES = [
    "The {w} council approved a budget of {n} million dollars for the new railway bridge.",
    "According to the annual report, revenue grew by {n} percent in the third quarter.",
    "The museum in Paris opened a new exhibition about the history of the {w} trade.",
    "Researchers at the university measured river flow at {n} stations during the spring.",
    "Most patients recovered within {n} days after receiving the second dose of the vaccine.",
    "The treaty was signed in {y} by representatives of twelve nations, including Norway.",
    "Solar and wind energy together supplied about {n} percent of the country's electricity.",
    "The company said that higher prices and weaker demand had reduced its {w} margins.",
    "Teachers reported that students spent more time on reading after the {w} program began.",
    "In {y}, heavy rain caused floods that damaged roads, farms and several bridges.",
    "The court ruled that the {w} law did not apply to contracts signed before {y}.",
    "Analysts expect the central bank to keep interest rates unchanged until {y}.",
    "The mountain forest is home to rare birds, wild cats and more than {n} plant species.",
    "Engineers redesigned the tower so that it could withstand stronger winds and earthquakes.",
    "During the election, turnout rose to {n} percent, the highest level in decades.",
    "The hospital hired {n} additional nurses to shorten waiting times in the emergency ward.",
    "Farmers in the region switched to drought-resistant crops after several dry summers.",
    "The king granted the island a charter that allowed its merchants to trade freely.",
    "A new study found that city parks lower summer temperatures by up to {n} degrees.",
    "The railway line between the two cities was completed in {y} after long delays.",
    "Critics argued that the {w} policy would raise costs for small businesses.",
    "The team trained for {n} weeks before the championship and won every match.",
    "Scientists warned that rising sea levels threaten coastal towns and {w} harbours.",
    "The software update fixed a security flaw that affected about {n} thousand users.",
]
_WORDS_TEXT = (
    "regional federal local national coastal urban rural private public northern southern "
    "eastern western energy transport health water housing farming fishing mining steel"
)
WORDS = _WORDS_TEXT.split()


def sentence(rng: random.Random) -> str:
    t = rng.choice(TEMPLATES)
    return t.format(w=rng.choice(WORDS), n=rng.randint(2, 999), y=rng.randint(1800, 2030))


def text(rng: random.Random, words: int) -> str:
    parts: list[str] = []
    n = 0
    while n < words:
        s = sentence(rng)
        parts.append(s)
        n += len(s.split())
    return " ".join(parts)


def samples(n: int, seed: int = 0, pool: int = 0) -> Iterator[Sample]:
    """n samples; with pool > 0 the contexts are drawn from a corpus of `pool` documents."""
    rng = random.Random(seed)
    corpus = [text(rng, 150) for _ in range(pool)]
    for i in range(n):
        contexts = (
            tuple(rng.sample(corpus, 5)) if corpus else tuple(text(rng, 150) for _ in range(5))
        )
        yield Sample(
            id=f"s{i}",
            question="What did the report say about " + rng.choice(WORDS) + " policy?",
            contexts=contexts,
            answer=text(rng, 100),
            reference=text(rng, 40),
        )


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def presplit(batch: list[Sample]) -> None:
    for s in batch:
        for t in (*s.contexts, s.answer, *s.references):
            split_sentences(t)


def score(an: Analyzer, suites: list[Suite], batch: list[Sample]) -> int:
    """The batch through the product's path: keyed once, evidence, each suite's scorer."""
    if not suites:
        return len(an.analyze_many(batch))
    items = [key_sample(s) for s in batch]
    options = SuiteOptions()
    for item, ev in zip(items, an.analyze_many(items), strict=True):
        for suite in suites:
            suite.evaluate_offline(item, ev, options)
    return len(items)


def run(
    an: Analyzer, suites: list[Suite], n: int, batch: int, warm_split: bool, pool: int
) -> tuple[float, float, float]:
    """(samples/s wall, samples per CPU-second, peak RSS MB); warm_split excludes splitting."""
    done, wall, cpu = 0, 0.0, 0.0
    buf: list[Sample] = []
    for s in samples(n, seed=n, pool=pool):
        buf.append(s)
        if len(buf) == batch or done + len(buf) == n:
            if warm_split:
                presplit(buf)
            t0, c0 = time.perf_counter(), cpu_s()
            done += score(an, suites, buf)
            wall += time.perf_counter() - t0
            cpu += cpu_s() - c0
            buf = []
    return done / wall, done / cpu, peak_mb()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--embedder", default="static")
    ap.add_argument(
        "--relevance-embedder",
        default=None,
        help="embedder of the question and whole contexts for relevance (default: --embedder; "
        "'local:128' is the opt-in accurate mode's)",
    )
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument(
        "--warm-split", action="store_true", help="split sentences before timing (cache warm)"
    )
    ap.add_argument(
        "--pool", type=int, default=0, help="draw contexts from a corpus of this many documents"
    )
    ap.add_argument(
        "--suites", default="judge", help="suites scored from the evidence ('none': evidence only)"
    )
    args = ap.parse_args()
    suites = [] if args.suites == "none" else get_suites(args.suites.split(","))
    kw = {"relevance_embedder": args.relevance_embedder} if args.relevance_embedder else {}
    an = Analyzer(embedder=args.embedder, **kw)
    score(an, suites, list(samples(8, seed=-1)))  # warm-up: load tables, tokenizer, pysbd
    print(
        f"embedder={args.embedder} relevance={args.relevance_embedder or args.embedder} "
        f"suites={args.suites} batch={args.batch} warm_split={args.warm_split} "
        f"pool={args.pool or 'unique contexts'} "
        f"cores={os.cpu_count()} load={os.getloadavg()[0]:.1f} start RSS {peak_mb():.0f} MB"
    )
    for n in args.n:
        rate, cpu_rate, mb = run(an, suites, n, args.batch, args.warm_split, args.pool)
        print(
            f"n={n:>6}: {rate:7.1f} samples/s wall, {cpu_rate:7.1f} samples per CPU-second, "
            f"peak RSS {mb:.0f} MB"
        )


if __name__ == "__main__":
    main()
