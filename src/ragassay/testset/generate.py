"""`generate`: a corpus in, a test set of bench questions out.

The corpus is chunked (the bench's recursive chunker), chunks are drawn in a seeded order,
and each kind is filled from them: single-fact from one chunk, multi-hop from two chunks
of different documents that share a name or topic (`entities.Corpus`: "Ledgerly",
"annual leave"; the rarest shared first), unanswerable from one chunk's names and
topics.
Drafts a generator cannot make, and duplicates (the same words, or a word-set Jaccard at
or above `near_duplicate` with an earlier question), are dropped and counted.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ragassay.corpus.chunking import Chunk, ChunkerSpec, chunk_corpus
from ragassay.corpus.documents import Document, load_corpus
from ragassay.testset.drafts import (
    KINDS,
    Draft,
    GenerateOptions,
    GenerateReport,
    Kind,
    plan,
    words,
)
from ragassay.testset.entities import Corpus
from ragassay.types import is_offline

MAX_PAIRING_CHUNKS = 300  # multi-hop pairs are looked for among this many chunks

if TYPE_CHECKING:
    from ragassay.judge.llm_judge import Cache


class _Dedup:
    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.seen: list[frozenset[str]] = []

    def accept(self, question: str) -> bool:
        ws = words(question)
        for other in self.seen:
            union = len(ws | other)
            if not union or len(ws & other) / union >= self.threshold:
                return False
        self.seen.append(ws)
        return True


def related_pairs(chunks: Sequence[Chunk], rng: random.Random, corpus: Corpus
                  ) -> list[tuple[Chunk, Chunk, tuple[str, ...]]]:
    """Pairs of chunks of different documents that share names or topics, with them (a
    bridge for a two-hop question), best first: names before topics, the rarest in the
    corpus first; ties in a seeded order. Chunks sharing nothing are never paired."""
    pool = list(chunks)
    rng.shuffle(pool)
    pool = pool[:MAX_PAIRING_CHUNKS]
    subjects = [set(corpus.subjects_in(c.text)) for c in pool]
    rarity = {s: corpus.specificity(s) for found in subjects for s in found}

    def rank(s: str) -> tuple[bool, int, str]:
        return s not in corpus.names, rarity[s], s

    scored = []
    for i, j in itertools.combinations(range(len(pool)), 2):
        if pool[i].doc_id == pool[j].doc_id:
            continue
        shared = tuple(sorted(subjects[i] & subjects[j], key=rank))
        if shared:
            scored.append((rank(shared[0])[:2], rng.random(), i, j, shared))
    scored.sort()
    fresh: list[tuple[Chunk, Chunk, tuple[str, ...]]] = []
    reused: list[tuple[Chunk, Chunk, tuple[str, ...]]] = []
    used: set[int] = set()
    for _, _, i, j, shared in scored:  # pairs of unused chunks first: questions differ
        (reused if i in used or j in used else fresh).append((pool[i], pool[j], shared))
        if i not in used and j not in used:
            used.update((i, j))
    return fresh + reused


async def _fill(kind: Kind, need: int, candidates: Iterator[tuple[Any, ...]],
                make: Callable[..., Any], dedup: _Dedup, report: GenerateReport,
                tick: Callable[[int], None]) -> list[Draft]:
    """Drafts of one kind until `need` are accepted or the candidates run out; calls go
    out a batch at a time (the shortfall), so an LLM is not asked for much more than
    needed."""
    got: list[Draft] = []
    while len(got) < need:
        batch = list(itertools.islice(candidates, need - len(got)))
        if not batch:
            break
        for result in await asyncio.gather(*(make(*args) for args in batch)):
            if isinstance(result, str):
                report.dropped[result] = report.dropped.get(result, 0) + 1
            elif not dedup.accept(result.question):
                report.dropped["duplicate"] = report.dropped.get("duplicate", 0) + 1
            elif len(got) < need:
                got.append(result)
                tick(1)
    report.made[kind] = len(got)
    return got


async def agenerate(corpus: str | Path | Sequence[Document],
                    options: GenerateOptions | None = None, *,
                    cache: Cache | None = None, progress: Callable[[int], None] | None = None
                    ) -> tuple[list[dict[str, Any]], GenerateReport]:
    """(rows, report): the test set as bench question rows, and what was made and
    dropped. `cache` (a Store) keeps the LLM's replies; `progress(n)` is told of each
    accepted question. `corpus`: a corpus path (see `bench.load_corpus`) or its loaded
    documents."""
    opts = options or GenerateOptions()
    if opts.n < 1:
        raise ValueError("--n must be at least 1")
    counts = plan(opts.n, opts.mix)
    docs = load_corpus(Path(corpus)) if isinstance(corpus, str | Path) else list(corpus)
    chunks = chunk_corpus(docs, ChunkerSpec(kind="recursive", size=opts.chunk_size), None)
    known = Corpus.read(d.text for d in docs)  # its names and topics
    generator = _generator(opts, known, cache)
    report = GenerateReport(generator=generator.label, asked=opts.n, chunks=len(chunks),
                            documents=len(docs))
    rng = random.Random(opts.seed)
    order = list(chunks)
    rng.shuffle(order)
    titles = {d.id: d.title for d in docs}
    dedup, tick = _Dedup(opts.near_duplicate), progress or (lambda n: None)
    sem = asyncio.Semaphore(max(1, opts.concurrency))

    def bounded(fn: Callable[..., Any]) -> Callable[..., Any]:
        async def call(*args: Any) -> Any:
            async with sem:
                return await fn(*args)
        return call

    candidates: dict[Kind, Iterator[tuple[Any, ...]]] = {
        "single-fact": ((c,) for c in order),
        "multi-hop": iter(related_pairs(chunks, rng, known)),
        # chunks naming something with a kind-mate first: their facts can be asked of it
        "unanswerable": ((c, titles.get(c.doc_id, "")) for c in sorted(
            reversed(order), key=lambda c: not any(known.kinds.get(n)
                                                   for n in known.names_in(c.text)))),
    }
    makers = {"single-fact": generator.single, "multi-hop": generator.multi,
              "unanswerable": generator.unanswerable}
    drafts: list[Draft] = []
    try:
        for kind in KINDS:
            drafts += await _fill(kind, counts[kind], candidates[kind], bounded(makers[kind]),
                                  dedup, report, tick)
    finally:
        await generator.aclose()
    rows = [d.row(f"gen-{i:04d}", generator.label) for i, d in enumerate(drafts, 1)]
    return rows, report


def _generator(opts: GenerateOptions, corpus: Corpus, cache: Cache | None) -> Any:
    if is_offline(opts.judge):
        from ragassay.testset.offline import OfflineGenerator

        return OfflineGenerator(corpus, opts.no_answer, opts.seed)
    from ragassay.testset.llm import LLMGenerator

    return LLMGenerator(opts.judge, cache=cache, base_url=opts.base_url,
                        timeout_s=opts.timeout_s, concurrency=opts.concurrency,
                        no_answer=opts.no_answer)


def generate(corpus: str | Path | Sequence[Document], options: GenerateOptions | None = None, *,
             cache: Cache | None = None, progress: Callable[[int], None] | None = None
             ) -> tuple[list[dict[str, Any]], GenerateReport]:
    """The synchronous entry point of `agenerate` (works inside a running loop too)."""
    from ragassay.aio import run_sync

    return run_sync(agenerate(corpus, options, cache=cache, progress=progress))


def write_jsonl(rows: Sequence[dict[str, Any]], out: str | Path) -> None:
    """The rows as JSONL, written atomically."""
    from ragassay.files import atomic_write

    with atomic_write(Path(out)) as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def kinds_made(rows: Sequence[dict[str, Any]]) -> Counter[str]:
    return Counter(r["metadata"]["kind"] for r in rows)
