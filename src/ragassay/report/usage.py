"""A run's judge usage as the report says it: calls, tokens, cache hits, cost, by suite
and per strategy, and what its provider batches held and cost."""

from __future__ import annotations

from ragassay.stats.result import Result, omitted
from ragassay.types import Usage


class UsageSummary(Result):
    """Judge usage as reported: calls, tokens and cache hits; `cached_tokens` (of the
    input tokens, served from the server's prompt cache) and `cost_usd` (priced by the
    backend from the provider's usage) only when there are any."""

    calls: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    cache_hits: int
    cached_tokens: int | None = omitted()
    cost_usd: float | None = omitted()

    @classmethod
    def of(cls, usage: Usage) -> UsageSummary:
        return cls(calls=usage.calls, input_tokens=usage.input_tokens,
                   output_tokens=usage.output_tokens,
                   total_tokens=usage.input_tokens + usage.output_tokens,
                   cache_hits=usage.cache_hits, cached_tokens=usage.cached_tokens or None,
                   cost_usd=None if usage.cost_usd is None else round(usage.cost_usd, 6))


class BatchUsage(Result):
    """What a run's provider batches held and cost (`usage.batch`; only for a run made
    with `--batch`): batches by status, requests answered, failed (expired, failed lines)
    and still waiting, their tokens, their cost at the batch price and what the same
    tokens cost with direct calls (None: no price known)."""

    batches: int
    statuses: dict[str, int]
    requests: int
    answered: int
    failed: int
    waiting: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None = None
    direct_cost_usd: float | None = None

    @property
    def saved_usd(self) -> float | None:
        if self.cost_usd is None or self.direct_cost_usd is None:
            return None
        return self.direct_cost_usd - self.cost_usd

    def describe(self) -> str:
        """`provider batches: 3 (completed 3), 120,000 requests (119,990 answered, 10
        failed): $12.00 at the batch price, $24.00 with direct calls (saved $12.00)`, as
        the terminal and the HTML report say it."""
        states = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))
        text = (f"provider batches: {self.batches} ({states}), {self.requests:,} requests "
                f"({self.answered:,} answered, {self.failed:,} failed"
                + (f", {self.waiting:,} waiting" if self.waiting else "") + ")")
        if self.cost_usd is None or self.direct_cost_usd is None:
            return text + ": cost unknown (no price for the model)"
        from ragassay.llm.pricing import usd_text

        return (text + f": {usd_text(self.cost_usd)} at the batch price, "
                f"{usd_text(self.direct_cost_usd)} with direct calls (saved "
                f"{usd_text(self.direct_cost_usd - self.cost_usd)})")


class RunUsage(UsageSummary):
    """The run's usage in total and by suite (`batch`: its provider batches)."""

    by_suite: dict[str, UsageSummary]
    batch: BatchUsage | None = omitted()
