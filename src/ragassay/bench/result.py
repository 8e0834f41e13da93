"""What a bench produced besides the judged metrics: per-strategy figures (retrieval,
latency, cost, failures) and the run they were judged in. The bench's run and its
leaderboard both read these; they are stored with the run (`leaderboard.store_bench`) as
the report's typed record (`report.bench`), which these extend with the bench's own types.
"""

from __future__ import annotations

from pydantic import ConfigDict

from ragassay.bench.config import Strategy
from ragassay.report.bench import BenchFigures, StrategyFigures

RETRIEVAL_METRICS = ("recall", "precision", "mrr", "ndcg")


class StrategyResult(StrategyFigures):
    """One strategy's figures besides the judged metrics (those live in the report)."""

    model_config = ConfigDict(extra="forbid")

    spec: Strategy


class BenchResult(BenchFigures):
    """What `ragassay bench` produced: per-strategy figures and the run id (the judged
    metrics are in the store, under that run)."""

    model_config = ConfigDict(extra="forbid")

    strategies: list[StrategyResult]  # type: ignore[assignment]

    def strategy(self, name: str) -> StrategyResult:
        return next(s for s in self.strategies if s.name == name)
