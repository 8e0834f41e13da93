"""A judge's cost counters."""

from __future__ import annotations

from ragassay.types.base import Frozen


class Usage(Frozen):
    """Judge cost counters; add them with `+`."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    latency_s: float = 0.0
    # input tokens the server served from its prompt (prefix) cache; part of input_tokens
    cached_tokens: int = 0
    # US dollars the provider's usage cost, when the backend can price it (LiteLLM's
    # price table applied to the provider's token counts); None: not priced, not free
    cost_usd: float | None = None

    def __add__(self, other: Usage) -> Usage:
        costs = [c for c in (self.cost_usd, other.cost_usd) if c is not None]
        return Usage(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_hits=self.cache_hits + other.cache_hits,
            latency_s=self.latency_s + other.latency_s,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cost_usd=sum(costs) if costs else None,
        )
