"""The backend protocol, its options, its error and its counters.

A backend turns a `JudgeRequest` into a `JudgeReply`. Failures that persist after
retries are raised as `BackendError` with a one-line `reason` that the judge layer
records as "unscored with reason". No message produced here ever contains an API key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ragassay.types import BackendOptions, JudgeReply, JudgeRequest, StructuredOutput

__all__ = ["Backend", "BackendError", "BackendOptions", "BackendStats", "StructuredOutput"]


class BackendError(Exception):
    """A judge call that failed for good (after retries, or not retryable).

    `reason` is one line, safe to show and store: it never holds the API key.
    """

    def __init__(self, reason: str, *, status: int | None = None) -> None:
        self.reason = " ".join(str(reason).split()) or "backend error"
        self.status = status
        super().__init__(self.reason)

    @property
    def fatal(self) -> bool:
        """The server refused the credentials or the model: every later call would fail too."""
        return self.status in (401, 403, 404)


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
