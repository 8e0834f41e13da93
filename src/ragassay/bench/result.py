"""What a bench produced besides the judged metrics: per-strategy figures (retrieval,
latency, cost, failures) and the run they were judged in. The bench's run and its
leaderboard both read these; they are stored with the run (`leaderboard.store_bench`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ragassay.bench import cost
from ragassay.bench.config import Strategy
from ragassay.types import Usage

RETRIEVAL_METRICS = ("recall", "precision", "mrr", "ndcg")


class StrategyResult(BaseModel):
    """One strategy's figures besides the judged metrics (those live in the report)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    spec: Strategy
    n_chunks: int
    chunk_time_s: float
    index_time_s: float
    retrieval_p50_s: float | None
    retrieval_p95_s: float | None
    answer_p50_s: float | None
    answer_p95_s: float | None
    retrieval: dict[str, float | None]  # means over questions with gold; None: none had gold
    retrieval_scored: int  # questions with gold labels
    no_answer_rate: float
    cost_estimate: cost.CostReport
    cost_measured: cost.CostReport | None = None
    generator_usage: Usage = Usage()
    pipeline: str | None = None  # the team's own pipeline (module:function or URL)
    failed: int = 0  # questions whose pipeline call failed (failed rows)
    failures: list[str] = []  # the first few, "question id: reason"


class BenchResult(BaseModel):
    """What `ragassay bench` produced: per-strategy figures and the run id (the judged
    metrics are in the store, under that run)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    rank_by: str | None  # None: the metric the run's specs rank by (`MetricSpec.rank`)
    n_documents: int
    n_questions: int
    strategies: list[StrategyResult]
    run_id: str | None = None
    estimated_usd: float | None = None

    def strategy(self, name: str) -> StrategyResult:
        return next(s for s in self.strategies if s.name == name)
