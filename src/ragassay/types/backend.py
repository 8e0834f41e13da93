"""How to reach a judge server (`BackendOptions`) and what its calls cost (`Price`): part of
a run's stored config, so below the store; the wire types a backend sends and receives
live in `ragassay.llm.wire`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

StructuredOutput = Literal["auto", "json_schema", "json_object", "prompt"]


class Price(BaseModel):
    """A model's price in US dollars per million tokens (`--price-in/--price-out`, a
    bench's [prices], or LiteLLM's table: `ragassay.llm.pricing`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    # input tokens served from the provider's prompt cache (default: the input price)
    cached_input: float | None = Field(default=None, ge=0)

    @classmethod
    def given(cls, price_in: float | None, price_out: float | None) -> Price | None:
        """The price from a front end's two options (both or neither: ValueError)."""
        if price_in is None and price_out is None:
            return None
        if price_in is None or price_out is None:
            raise ValueError("--price-in and --price-out go together (US dollars per 1M "
                             "input and output tokens)")
        return cls(input=price_in, output=price_out)

    def cost(self, input_tokens: int, output_tokens: int, cached_tokens: int = 0) -> float:
        """Dollars for these tokens; `cached_tokens` of the input at the cached rate."""
        cached = max(0, min(cached_tokens, input_tokens))
        rate = self.input if self.cached_input is None else self.cached_input
        return ((input_tokens - cached) * self.input + cached * rate
                + output_tokens * self.output) / 1_000_000


class BackendOptions(BaseModel):
    """How to reach a judge server and how hard to try.

    Only `structured_output`, `max_tokens` (when set explicitly) and `extra_body`
    affect what the model answers; the rest (timeouts, retries, concurrency) never
    enter a cache key. Keys never live here: only where to read them from. No float is
    nan or inf (an inf timeout would be stored as null, and the run unreadable).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    api_key_file: str | None = None
    # Extra HTTP headers (`--header`, e.g. a gateway's key): sent, never shown or stored.
    headers: dict[str, SecretStr] = Field(default_factory=dict, repr=False)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    concurrency: int = Field(default=8, ge=1)
    structured_output: StructuredOutput = "auto"
    # The completion budget; when given explicitly it overrides the request's own.
    max_tokens: int = Field(default=1024, ge=1)
    extra_body: dict[str, Any] = Field(default_factory=dict)
    # Backoff tuning (tests use small values): full jitter on base * 2**retry, capped.
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    # Longest Retry-After we honour; longer values are clipped to this.
    retry_after_max_s: float = Field(default=60.0, ge=0)
    # AIMD: grow the concurrency bound by one after this many successes in a row.
    increase_after: int = Field(default=10, ge=1)
    # What a call costs (--price-in/--price-out); None: LiteLLM's table when installed
    # (`ragassay.llm.pricing`). Never in a cache key.
    price: Price | None = None

    @property
    def max_tokens_overridden(self) -> bool:
        """Whether `max_tokens` was given explicitly (and so wins over the request's)."""
        return "max_tokens" in self.model_fields_set
