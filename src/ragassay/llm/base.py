"""The backend protocol, its options, its error and its counters.

A backend turns a `JudgeRequest` into a `JudgeReply`. Failures that persist after
retries are raised as `BackendError` with a one-line `reason` that the judge layer
records as "unscored with reason". No message produced here ever contains an API key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.types import BackendOptions, StructuredOutput
from ragassay.urls import redact_urls

__all__ = ["Backend", "BackendError", "BackendOptions", "BackendStats", "StructuredOutput"]


class BackendError(Exception):
    """A judge call that failed.

    A backend raises it for one failed attempt, classified: `retryable`, `status`,
    `retry_after` (seconds the server asked for), `detail` (a short, sanitised excerpt
    of the server's message), `message` and `body` (that message, and the whole body,
    lower-cased, for keyword checks; never shown), `sent` (the request parameters sent)
    and `kind` ("connect" when no connection could be made at all). The policy layer
    (`ragassay.llm.policy`) retries, adapts and finally raises one with the one-line
    `reason` that the judge records as "unscored with reason". No reason ever holds an API
    key, nor a URL's query string or user name (`ragassay.urls`).
    """

    def __init__(self, reason: str, *, status: int | None = None, retryable: bool = False,
                 retry_after: float | None = None, detail: str = "", message: str = "",
                 body: str = "", sent: frozenset[str] = frozenset(), kind: str = "other",
                 stop: str | None = None) -> None:
        self.reason = redact_urls(" ".join(str(reason).split())) or "backend error"
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.detail = detail
        self.message = message.lower()
        self.body = body.lower()
        self.sent = sent
        self.kind = kind
        self.stop = redact_urls(" ".join(stop.split())) if stop is not None else None
        super().__init__(self.reason)

    @property
    def fatal(self) -> bool:
        """Every later call would fail too (credentials or model refused; or `stop`, the
        policy layer's one line: no connection possible, an endpoint that answers no call
        or failed every call in a row): stop the run."""
        return self.stop is not None or self.status in (401, 403, 404)


@dataclass
class BackendStats:
    """Counters that tests and progress displays read; they only ever grow."""

    attempts: int = 0  # HTTP requests sent
    retries: int = 0  # attempts repeated after a retryable failure
    rate_limited: int = 0  # 429 answers
    failures: int = 0  # BackendErrors raised
    successes: int = 0  # replies returned
    fallbacks: int = 0  # structured-output or parameter downgrades


@runtime_checkable
class Backend(Protocol):
    """What the judge layer needs from a judge LLM: one `complete()`.

    Implementations are constructed as `cls(model=..., options=BackendOptions(...))`
    by the registry, which wraps them in the policy layer (retries, backoff, adaptive
    concurrency, timeouts, structured-output probing, parameter dropping, a circuit
    breaker): a backend only sends one request, honouring `request.structured_output`
    and `request.omit`, and raises a classified `BackendError` when it fails.
    """

    name: str
    model: str

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        """Ask the model; raise `BackendError` when it cannot answer."""
        ...

    def cache_params(self) -> dict[str, Any]:
        """Output-affecting parameters to put in a cache key (never timeouts etc.)."""
        ...
