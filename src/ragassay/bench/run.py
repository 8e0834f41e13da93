"""The bench pipeline: corpus -> chunks -> index -> retrieve -> generate -> Samples,
then evaluation through the runner (behind `evaluate_samples`, injectable)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ragassay.aio import run_sync
from ragassay.bench import cost
from ragassay.bench.config import BenchConfig, Strategy
from ragassay.bench.generation import Generation, Generator, make_generator
from ragassay.bench.leaderboard import store_bench
from ragassay.bench.pipeline import Pipeline, PipelineAnswer, PipelineError, timed
from ragassay.bench.questions import Question, load_questions
from ragassay.bench.result import RETRIEVAL_METRICS, BenchResult, StrategyResult
from ragassay.bench.retrieval import Retriever, build_retriever
from ragassay.bench.retrieval_metrics import CorpusFinder, context_scores, retrieval_scores
from ragassay.corpus.chunking import Chunk, ChunkerSpec, chunk_corpus
from ragassay.corpus.documents import Document, load_corpus
from ragassay.embed import CachedEmbedder, Embedder, get_embedder
from ragassay.judge import Judge
from ragassay.runner import Progress, RowsSource, RunRequest, aexecute, plan_run
from ragassay.store import Store
from ragassay.types import InvalidRow, Sample, Usage


@dataclass
class BenchOptions:
    """Run options: inject an embedder/generator for tests, or limit the questions."""

    embedder: Embedder | None = None
    generators: dict[str, Generator] = field(default_factory=dict)
    use_cache: bool = True
    cache_dir: Path | None = None
    limit: int | None = None
    progress: Callable[[str], None] | None = None
    judge_progress: Progress | None = None  # the runner's progress sink while judging
    judge: Judge | None = None  # a judge to use instead of the config's (tests)


def run_request(config: BenchConfig, samples: list[Sample | InvalidRow], store: Store,
                judge: Judge | None = None) -> RunRequest:
    """The run session's request for judging a bench's samples (dataset `bench:<name>`,
    the samples the bench made: not checked as user data); the judge's calls are priced
    from [prices] when it lists the judge's model (before LiteLLM's table)."""
    b = config.bench
    return RunRequest(
        RowsSource(samples, name=f"bench:{b.name}", check=False), store, metrics=b.metrics,
        judge=b.judge, endpoints=(b.base_url,) if b.base_url else (), timeout_s=b.timeout_s,
        price=cost.listed(b.judge, config.file.prices), seed=b.seed,
        concurrency=b.concurrency, kind="bench",
        strategies=tuple(s.name for s in config.strategies), judge_object=judge)


def percentile(values: Sequence[float], q: float) -> float | None:
    return float(np.percentile(values, q)) if values else None


@dataclass
class _State:
    docs: list[Document]
    embedder: Embedder | None
    cache_dir: Path | None
    chunks: dict[ChunkerSpec, tuple[list[Chunk], float]] = field(default_factory=dict)
    retrievers: dict[tuple[ChunkerSpec, str], tuple[Retriever, float]] = field(default_factory=dict)
    generators: dict[str, Generator] = field(default_factory=dict)
    warmed: set[object] = field(default_factory=set)  # retrievers and generators used once

    def get_chunks(self, spec: ChunkerSpec) -> tuple[list[Chunk], float]:
        if spec not in self.chunks:
            t0 = time.perf_counter()
            emb = CachedEmbedder(self.embedder, disk_dir=self.cache_dir) if self.embedder else None
            chunks = chunk_corpus(self.docs, spec, emb if spec.kind == "semantic" else None)
            self.chunks[spec] = (chunks, time.perf_counter() - t0)
        return self.chunks[spec]

    def get_retriever(self, s: Strategy, chunks: list[Chunk]) -> tuple[Retriever, float]:
        key = (s.chunker, s.retriever)
        if key not in self.retrievers:
            t0 = time.perf_counter()
            r = build_retriever(s.retriever, chunks, self.embedder, self.cache_dir)
            self.retrievers[key] = (r, time.perf_counter() - t0)
        return self.retrievers[key]


def _needs_embedder(config: BenchConfig) -> bool:
    return any(
        s.retriever != "bm25" or s.chunker.kind == "semantic" or s.generator == "offline"
        for s in config.strategies if s.pipeline is None
    )


FIRST_FAILURES = 5


async def _run_pipeline(s: Strategy, pipeline: Pipeline, questions: list[Question],
                        config: BenchConfig, find: CorpusFinder
                        ) -> tuple[list[Sample | InvalidRow], StrategyResult]:
    """The team's pipeline answers each question (bounded by the bench's concurrency);
    a failed call is that question's failed row, with its reason. A context it names no
    document of is matched to the corpus documents holding its text (`find`)."""
    sem = asyncio.Semaphore(config.bench.concurrency)

    async def one(q: Question) -> tuple[PipelineAnswer | PipelineError, float]:
        async with sem:
            return await timed(pipeline.ask, q.question)

    outcomes = await asyncio.gather(*(one(q) for q in questions))
    items: list[Sample | InvalidRow] = []
    scores: dict[str, list[float]] = {m: [] for m in RETRIEVAL_METRICS}
    failures: list[str] = []
    answered: list[str] = []
    for q, (got, latency) in zip(questions, outcomes, strict=True):
        sample_id = f"{s.name}::{q.id}"
        if isinstance(got, PipelineError):
            failures.append(f"{q.id}: {got.reason}")
            items.append(InvalidRow(id=sample_id, source=f"pipeline {pipeline.label}, "
                                    f"question {q.id}", reason=got.reason, strategy=s.name))
            continue
        rs, why = context_scores(q, got.contexts, got.docs, find)
        for m, v in (rs or {}).items():
            scores[m].append(v)
        answered.append(got.answer)
        items.append(Sample(
            id=sample_id, question=q.question, contexts=got.contexts, answer=got.answer,
            reference=q.reference, strategy=s.name,
            metadata={"question_id": q.id, "pipeline": pipeline.label,
                      "retrieved_docs": list(got.docs), "k": len(got.contexts),
                      "retrieval": rs, "retrieval_unscored_reason": why,
                      "latency": {"retrieval_s": None, "answer_s": latency}}))
    latencies = [lat for _, lat in outcomes]
    refs = [r for q in questions for r in ((q.reference,) if isinstance(q.reference, str)
                                           else (q.reference or ()))]
    no_answer = config.file.generation.no_answer
    result = StrategyResult(
        name=s.name, spec=s, n_chunks=0, chunk_time_s=0.0, index_time_s=0.0,
        retrieval_p50_s=None, retrieval_p95_s=None,
        answer_p50_s=percentile(latencies, 50), answer_p95_s=percentile(latencies, 95),
        retrieval={m: (float(np.mean(v)) if v else None) for m, v in scores.items()},
        retrieval_scored=len(scores["recall"]),
        no_answer_rate=sum(a.strip() == no_answer for a in answered) / max(1, len(answered)),
        cost_estimate=cost.estimate(config.bench, pipeline.label, [q.question for q in
                                                                   questions], refs,
                                    0, config.file.prices),
        generator_usage=Usage(calls=len(questions)),  # the pipeline's own cost: not known
        pipeline=pipeline.label, failed=len(failures), failures=failures[:FIRST_FAILURES])
    return items, result


async def _warm_up(s: Strategy, state: _State, retriever: Retriever, chunks: list[Chunk],
                   questions: list[Question], generator: Generator) -> Usage:
    """Untimed searches (every question once) for an index not searched yet, and one
    untimed answer (the first question) for a generator not used yet, so that first-use
    costs (model loads, the embedder's per-word tables, a first connection) are in no
    strategy's latencies: without them the first of two identical strategies showed a
    2 s answer p95 against 2 ms, and the first strategy with an embedder a 15 ms search
    p95 against 0.1 ms. The warm-up call's usage is counted (an LLM generator's is paid
    for)."""
    if not questions:
        return Usage()
    q = questions[0]
    hits: list[tuple[int, float]] = []
    if (s.chunker, s.retriever) not in state.warmed:
        state.warmed.add((s.chunker, s.retriever))
        for other in questions[1:]:
            retriever.search(other.question, s.k)
        hits = retriever.search(q.question, s.k)
    if id(generator) in state.warmed:
        return Usage()
    state.warmed.add(id(generator))
    hits = hits or retriever.search(q.question, s.k)
    return (await generator.generate(q.question, [chunks[i].indexed_text for i, _ in hits])
            ).usage


async def _run_strategy(
    s: Strategy, state: _State, questions: list[Question], config: BenchConfig,
    generator: Generator,
) -> tuple[list[Sample], StrategyResult]:
    chunks, chunk_time = state.get_chunks(s.chunker)
    retriever, index_time = state.get_retriever(s, chunks)
    doc_texts = {d.id: d.text for d in state.docs}
    warm_up = await _warm_up(s, state, retriever, chunks, questions, generator)
    retrieved: list[tuple[Question, list[Chunk], float]] = []
    for q in questions:
        t0 = time.perf_counter()
        hits = retriever.search(q.question, s.k)
        retrieved.append((q, [chunks[i] for i, _ in hits], time.perf_counter() - t0))
    sem = asyncio.Semaphore(config.bench.concurrency)

    async def answer(q: Question, ctx: list[Chunk]) -> Generation:
        async with sem:
            return await generator.generate(q.question, [c.indexed_text for c in ctx])

    gens = await asyncio.gather(*(answer(q, ctx) for q, ctx, _ in retrieved))
    samples: list[Sample] = []
    scores: dict[str, list[float]] = {m: [] for m in RETRIEVAL_METRICS}
    no_answer_text = config.file.generation.no_answer
    for (q, ctx, r_lat), g in zip(retrieved, gens, strict=True):
        rs = retrieval_scores(q, ctx, chunks, s.k, doc_texts)
        for m, v in (rs or {}).items():
            scores[m].append(v)
        samples.append(
            Sample(
                id=f"{s.name}::{q.id}",
                question=q.question,
                contexts=tuple(c.indexed_text for c in ctx),
                answer=g.answer,
                reference=q.reference,
                strategy=s.name,
                metadata={
                    "question_id": q.id,
                    "retrieved_ids": [c.id for c in ctx],
                    "retrieved_docs": [c.doc_id for c in ctx],
                    "k": s.k,
                    "retrieval": rs,
                    "retrieval_unscored_reason": None if rs else "no gold labels",
                    "latency": {"retrieval_s": r_lat, "answer_s": g.latency_s},
                    "generator": {"model": g.model, **g.usage.model_dump(), **g.details},
                },
            )
        )
    gen_usage = sum((g.usage for g in gens), warm_up)
    mean_chars = float(np.mean([len(c.indexed_text) for c in chunks])) if chunks else 0.0
    estimate = cost.estimate(
        config.bench, s.generator, [q.question for q in questions],
        [r for q in questions for r in ((q.reference,) if isinstance(q.reference, str)
                                        else (q.reference or ()))],
        int(mean_chars * s.k), config.file.prices,
    )
    r_lats = [lat for _, _, lat in retrieved]
    a_lats = [g.latency_s for g in gens]
    result = StrategyResult(
        name=s.name, spec=s, n_chunks=len(chunks), chunk_time_s=chunk_time,
        index_time_s=index_time,
        retrieval_p50_s=percentile(r_lats, 50), retrieval_p95_s=percentile(r_lats, 95),
        answer_p50_s=percentile(a_lats, 50), answer_p95_s=percentile(a_lats, 95),
        retrieval={m: (float(np.mean(v)) if v else None) for m, v in scores.items()},
        retrieval_scored=len(scores["recall"]),
        no_answer_rate=sum(g.answer.strip() == no_answer_text for g in gens) / max(1, len(gens)),
        cost_estimate=estimate, generator_usage=gen_usage,
    )
    return samples, result


async def generate_samples_async(
    config: BenchConfig, options: BenchOptions | None = None
) -> tuple[list[Sample | InvalidRow], BenchResult]:
    """Everything before evaluation: one Sample per (strategy, question)."""
    opts = options or BenchOptions()
    say = opts.progress or (lambda _msg: None)
    docs = load_corpus(config.path(config.bench.corpus))
    questions = load_questions(config.path(config.bench.questions), docs,
                               config.bench.field_map)[: opts.limit]
    cache_dir = None
    if opts.use_cache:
        cache_dir = opts.cache_dir or config.path(config.bench.cache_dir)
    embedder = opts.embedder
    if embedder is None and _needs_embedder(config):
        embedder = get_embedder(config.bench.embedder)
        embedder.embed(["warm up"])  # load the model now, not inside an index timing
    state = _State(docs=docs, embedder=embedder, cache_dir=cache_dir)
    pipelines = {s.name: Pipeline(s.pipeline, config.base_dir, config.bench.timeout_s)
                 for s in config.strategies if s.pipeline is not None}  # import them first
    samples: list[Sample | InvalidRow] = []
    results: list[StrategyResult] = []
    find = CorpusFinder({d.id: d.text for d in docs})
    try:
        for s in config.strategies:
            say(f"strategy {s.name}")
            if s.name in pipelines:
                items, res = await _run_pipeline(s, pipelines[s.name], questions, config,
                                                 find)
                samples += items
                results.append(res)
                continue
            built, res = await _builtin(s, state, questions, config, opts)
            samples += built
            results.append(res)
    finally:
        for pipeline in pipelines.values():
            await pipeline.aclose()
    est = [r.cost_estimate.usd for r in results]
    return samples, BenchResult(
        name=config.bench.name, rank_by=config.bench.rank_by, n_documents=len(docs),
        n_questions=len(questions), strategies=results,
        estimated_usd=None if any(u is None for u in est) else sum(u or 0.0 for u in est),
    )


async def _builtin(s: Strategy, state: _State, questions: list[Question],
                   config: BenchConfig, opts: BenchOptions
                   ) -> tuple[list[Sample], StrategyResult]:
    """A built-in strategy: chunk, index, retrieve, generate."""
    if s.generator == "offline" and s.generator not in opts.generators:
        # its own extractive generator with empty caches: sentence vectors cached by an
        # earlier strategy made a later one look faster (identical strategies: 2 s vs
        # 2 ms answer p95), where each would pay them deployed alone
        inner = state.embedder.inner if isinstance(state.embedder, CachedEmbedder) \
            else state.embedder
        fresh = make_generator("offline", inner and CachedEmbedder(inner),
                               config.file.generation)
        return await _run_strategy(s, state, questions, config, fresh)
    if s.generator not in state.generators:
        state.generators[s.generator] = opts.generators.get(s.generator) or make_generator(
            s.generator, state.embedder, config.file.generation)
    return await _run_strategy(s, state, questions, config, state.generators[s.generator])


def generate_samples(
    config: BenchConfig, options: BenchOptions | None = None
) -> tuple[list[Sample | InvalidRow], BenchResult]:
    """Synchronous wrapper of `generate_samples_async`."""
    return run_sync(generate_samples_async(config, options))


async def run_bench_async(config: BenchConfig, store: Store,
                          options: BenchOptions | None = None) -> BenchResult:
    """Generate the samples, judge them through the runner into `store` (one run), and
    fill in the measured costs from the run's usage per strategy. One event loop serves
    the generator and the judge."""
    opts = options or BenchOptions()
    samples, result = await generate_samples_async(config, opts)
    plan = plan_run(run_request(config, samples, store, opts.judge))
    outcome = await aexecute(plan, opts.judge_progress)
    usage = store.usage(outcome.run_id, by="strategy")
    for r in result.strategies:
        r.cost_measured = cost.measured(
            r.spec.generator, r.generator_usage, config.bench.judge, usage.get(r.name),
            config.file.prices,
        )
    result.run_id = outcome.run_id
    store_bench(store, config, result)
    return result


def run_bench(config: BenchConfig, store: Store, options: BenchOptions | None = None
              ) -> BenchResult:
    """The one synchronous entry point of a bench (see `run_bench_async`)."""
    return run_sync(run_bench_async(config, store, options))
