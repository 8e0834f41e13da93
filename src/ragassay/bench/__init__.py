"""`ragassay bench`: run RAG strategies end to end over a corpus and rank them.

corpus -> chunks -> index -> retrieve -> generate -> Samples -> runner -> leaderboard.
"""

from ragassay.bench.chunking import Chunk, ChunkerSpec, chunk_corpus, chunk_document
from ragassay.bench.config import BenchConfig, ConfigError, Strategy, load_config, parse_config
from ragassay.bench.corpus import CorpusError, Document, load_corpus
from ragassay.bench.generation import NO_ANSWER, GenerationOptions, OfflineGenerator
from ragassay.bench.leaderboard import (
    RankingError,
    leaderboard,
    leaderboard_table,
    ranking_metric,
    store_bench,
    stored_bench,
)
from ragassay.bench.pipeline import (
    Pipeline,
    PipelineAnswer,
    PipelineError,
    PipelineFields,
    PipelineSetupError,
    PipelineSpec,
)
from ragassay.bench.questions import Question, QuestionsError, load_questions
from ragassay.bench.retrieval import build_retriever, rrf
from ragassay.bench.run import (
    BenchOptions,
    BenchResult,
    StrategyResult,
    generate_samples,
    run_bench,
    run_bench_async,
    run_config_for,
)

__all__ = [
    "NO_ANSWER",
    "BenchConfig",
    "BenchOptions",
    "BenchResult",
    "Chunk",
    "ChunkerSpec",
    "ConfigError",
    "CorpusError",
    "Document",
    "GenerationOptions",
    "OfflineGenerator",
    "Pipeline",
    "PipelineAnswer",
    "PipelineError",
    "PipelineFields",
    "PipelineSetupError",
    "PipelineSpec",
    "Question",
    "RankingError",
    "QuestionsError",
    "Strategy",
    "StrategyResult",
    "build_retriever",
    "chunk_corpus",
    "chunk_document",
    "generate_samples",
    "leaderboard",
    "leaderboard_table",
    "load_config",
    "load_corpus",
    "load_questions",
    "parse_config",
    "rrf",
    "run_bench",
    "run_bench_async",
    "ranking_metric",
    "run_config_for",
    "store_bench",
    "stored_bench",
]
