"""`ragassay bench`: run RAG strategies end to end over a corpus and rank them.

corpus -> chunks -> index -> retrieve -> generate -> Samples -> runner -> leaderboard.
"""

from ragassay.bench.config import BenchConfig, ConfigError, Strategy, load_config, parse_config
from ragassay.bench.generation import GenerationOptions, OfflineGenerator
from ragassay.bench.leaderboard import (
    LEADERBOARD_WIDTH,
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
from ragassay.bench.result import BenchResult, StrategyResult
from ragassay.bench.retrieval import build_retriever, rrf
from ragassay.bench.run import (
    BenchOptions,
    generate_samples,
    run_bench,
    run_bench_async,
    run_request,
)

__all__ = [
    "BenchConfig",
    "BenchOptions",
    "BenchResult",
    "ConfigError",
    "GenerationOptions",
    "OfflineGenerator",
    "Pipeline",
    "PipelineAnswer",
    "PipelineError",
    "PipelineFields",
    "PipelineSetupError",
    "PipelineSpec",
    "LEADERBOARD_WIDTH",
    "Question",
    "RankingError",
    "QuestionsError",
    "Strategy",
    "StrategyResult",
    "build_retriever",
    "generate_samples",
    "leaderboard",
    "leaderboard_table",
    "load_config",
    "load_questions",
    "parse_config",
    "rrf",
    "run_bench",
    "run_bench_async",
    "ranking_metric",
    "run_request",
    "store_bench",
    "stored_bench",
]
