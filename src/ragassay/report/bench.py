"""What a bench keeps with its run (`RunMeta.bench`), typed: the figures it measured per
strategy besides the judged metrics (retrieval, latency, cost, failed questions), its
leaderboard rows and the config it ran. The bench writes it (`bench.leaderboard.
store_bench`, its `BenchResult` extends `BenchFigures`), the report holds it (`Report.bench`,
`Report.leaderboard`) and every reader (console, HTML, dashboard) reads its attributes.

A record stored by an earlier version lacks the fields of later ones (they take their
defaults) and keeps any it has that this version no longer knows (`extra="allow"`), so the
report's JSON shows it as it was stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragassay.stats import Interval, Result
from ragassay.types import Usage


class CostFigures(BaseModel):
    """Calls and tokens for one role (generator or judge), and dollars when priced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = ""
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0  # of input_tokens, served from the provider's prompt cache
    usd: float | None = None  # None: no price for this model (unpriced, not free)


class CostReport(BaseModel):
    """A strategy's cost: its generator's and its judge's."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    generator: CostFigures
    judge: CostFigures

    @property
    def usd(self) -> float | None:
        parts = [self.generator, self.judge]
        if any(p.usd is None and p.calls for p in parts):
            return None
        return sum(p.usd or 0.0 for p in parts)


class StrategyFigures(BaseModel):
    """One strategy's figures besides the judged metrics (those are the report's own);
    `spec` is the strategy as the bench resolved it (chunker, retriever, k, generator or
    pipeline)."""

    model_config = ConfigDict(extra="allow")

    name: str
    spec: Any  # the bench's `Strategy` where it is made; its JSON where a report reads it
    n_chunks: int
    chunk_time_s: float
    index_time_s: float
    retrieval_p50_s: float | None
    retrieval_p95_s: float | None
    answer_p50_s: float | None
    answer_p95_s: float | None
    retrieval: dict[str, float | None]  # means over the questions scored; None: none was
    retrieval_scored: int  # questions with gold labels (and, for gold documents, contexts
    # of a known document)
    no_answer_rate: float
    cost_estimate: CostReport
    cost_measured: CostReport | None = None
    generator_usage: Usage = Usage()
    pipeline: str | None = None  # the team's own pipeline (module:function or URL)
    failed: int = 0  # questions whose pipeline call failed (failed rows)
    failures: list[str] = []  # the first few, "question id: reason"


class BenchFigures(BaseModel):
    """What a bench measured: per-strategy figures and the run they were judged in."""

    model_config = ConfigDict(extra="allow")

    name: str
    rank_by: str | None  # None: the metric the run's specs rank by (`MetricSpec.rank`)
    n_documents: int
    n_questions: int
    strategies: list[StrategyFigures]
    run_id: str | None = None
    estimated_usd: float | None = None


class LeaderboardRow(Result):
    """One strategy of a bench's leaderboard, as the bench stored it with its run: the
    ranking metric's mean with its interval, the paired verdict against the best
    (`vs_best`: equivalent, worse or unclear; with the difference, its interval, the
    effect size, the Holm-adjusted `p_adjusted` and the equivalence margin and test),
    and the bench's own figures, in the order
    of the leaderboard's columns (`report.LEADERBOARD_COLUMNS`). A row stored by an
    earlier version lacks the fields of later ones: they are left out of its JSON."""

    model_config = ConfigDict(populate_by_name=True)

    # in the order of the leaderboard's columns (report/leaderboard.py)
    rank: int | None = None
    strategy: str
    kind: str = "built-in"
    metric: str
    mean: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    n: int | None = None
    vs_best: str | None = None
    # against the best, b - a: the difference with its interval, Cohen's d_av, the
    # Holm-adjusted p-values of the difference and of the equivalence within `margin`
    diff: float | None = None
    diff_ci_low: float | None = None
    diff_ci_high: float | None = None
    effect_size: float | None = None
    p_adjusted: float | None = None
    margin: float | None = None
    tost_p_adjusted: float | None = None
    constant: bool | None = None  # scores every question as the best does
    failed: int = 0
    retrieval_recall: float | None = Field(None, alias="retrieval.recall")
    retrieval_precision: float | None = Field(None, alias="retrieval.precision")
    retrieval_mrr: float | None = Field(None, alias="retrieval.mrr")
    retrieval_ndcg: float | None = Field(None, alias="retrieval.ndcg")
    # the questions the retrieval metrics are means over (with gold labels, and contexts
    # whose documents are named or found in the corpus when the gold is documents)
    retrieval_n: int | None = Field(None, alias="retrieval.n")
    no_answer_rate: float | None = None
    index_time_s: float | None = None
    retrieval_p50_s: float | None = None
    retrieval_p95_s: float | None = None
    answer_p50_s: float | None = None
    answer_p95_s: float | None = None
    cost_estimate_usd: float | None = None
    cost_measured_usd: float | None = None

    @property
    def interval(self) -> Interval:
        return Interval(mean=self.mean, ci_low=self.ci_low, ci_high=self.ci_high,
                        count=self.n or 0)


class BenchRecord(BaseModel):
    """What a bench stores with its run: its config (base URLs redacted, header values
    masked), its figures, and its leaderboard (None with `leaderboard_error` when no
    ranking could be made)."""

    config: dict[str, Any] = {}
    result: BenchFigures
    leaderboard: list[LeaderboardRow] | None = None
    leaderboard_error: str | None = None

    @classmethod
    def read(cls, stored: Mapping[str, Any] | None) -> BenchRecord | None:
        """The record a run's meta holds (None: not a bench run, or unreadable)."""
        if not stored:
            return None
        try:
            return cls.model_validate(stored)
        except ValidationError:
            return None

    def stored(self) -> dict[str, Any]:
        """The JSON kept in the run's meta (leaderboard rows by their JSON names, with the
        fields they were made with)."""
        out: dict[str, Any] = {
            "config": self.config, "result": self.result.model_dump(mode="json"),
            "leaderboard": None if self.leaderboard is None else [
                r.model_dump(by_alias=True, exclude_unset=True) for r in self.leaderboard]}
        if self.leaderboard_error is not None:
            out["leaderboard_error"] = self.leaderboard_error
        return out
