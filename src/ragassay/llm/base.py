"""The backend protocol, its options, its error and its counters.

A backend turns a `JudgeRequest` into a `JudgeReply`. Failures that persist after
retries are raised as `BackendError` with a one-line `reason` that the judge layer
records as "unscored with reason". No message produced here ever contains an API key.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from ragassay.types import JudgeReply, JudgeRequest
from ragassay.urls import redact_urls

StructuredOutput = Literal["auto", "json_schema", "json_object", "prompt"]


class BackendError(Exception):
    """A judge call that failed for good (after retries, or not retryable).

    `reason` is one line, safe to show and store: it never holds the API key.
    """

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        self.reason = redact_urls(" ".join(str(reason).split())) or "backend error"
        self.status = status
        super().__init__(self.reason)

    @property
    def fatal(self) -> bool:
        """The server refused the credentials or the model: every later call would fail too."""
        return self.status in (401, 403, 404)


class BackendOptions(BaseModel):
    """How to reach a judge server and how hard to try.

    Only `structured_output`, `max_tokens` (when set explicitly) and `extra_body`
    affect what the model answers; the rest (timeouts, retries, concurrency) never
    enter a cache key.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

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

    @property
    def max_tokens_overridden(self) -> bool:
        """Whether `max_tokens` was given explicitly (and so wins over the request's)."""
        return "max_tokens" in self.model_fields_set


@dataclass
class BackendStats:
    """Counters that tests and progress displays read; they only ever grow."""

    attempts: int = 0  # HTTP requests sent
    retries: int = 0  # attempts repeated after a retryable failure
    rate_limited: int = 0  # 429 answers
    failures: int = 0  # BackendErrors raised
    successes: int = 0  # replies returned
    fallbacks: int = 0  # structured-output or parameter downgrades

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@runtime_checkable
class Backend(Protocol):
    """What the judge layer needs from a judge LLM.

    Implementations are constructed as `cls(model=..., options=BackendOptions(...))`
    by the registry.
    """

    name: str
    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        """Ask the model; raise `BackendError` when it cannot answer."""
        ...

    def cache_params(self) -> dict[str, Any]:
        """Output-affecting parameters to put in a cache key (never timeouts etc.)."""
        ...
