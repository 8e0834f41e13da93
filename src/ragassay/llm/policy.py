"""The policy layer: what every judge backend gets, implemented once.

`Policy` wraps any `Backend` (built-in or plugin) and adds, around its single
`complete()`: a per-call timeout; bounded retries with full-jitter backoff and
Retry-After; an AIMD bound on calls in flight; the structured-output probe (json_schema
-> json_object -> prompt, once per run, under a lock only for the first call); dropping
parameters a server rejects (`seed`, `temperature`, `max_tokens` ->
`max_completion_tokens`, `logprobs`), and token probabilities once a reply came without
them (probed once per run: the judge then reads the stated values); and two stops that
end a run at once instead of failing every sample: no connection can be made at all, or
the endpoint failed every call in a row (a circuit breaker); and a reply's cost, when the
backend reports none, from the price given (`BackendOptions.price`) or LiteLLM's table
(`ragassay.llm.pricing`). The registry returns backends already wrapped.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ragassay.llm.base import Backend, BackendError, BackendStats
from ragassay.llm.pricing import litellm_price, priced
from ragassay.llm.retry import AdaptiveLimiter, backoff_delay
from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.types import BackendOptions

T = TypeVar("T")
MODES = ("json_schema", "json_object", "prompt")
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")
_SCHEMA_STATUSES = (400, 422, 500)
# A parameter is dropped only when the error message names it next to one of these.
_REJECT_WORDS = (
    "unsupported", "not supported", "does not support", "unrecognized", "unknown",
    "not permitted", "not allowed", "extra inputs", "only the default",
)
# failures that say something about the endpoint, not about one request
ENDPOINT_STATUSES = frozenset({408, 429}) | frozenset(range(500, 600))


class Guard:
    """The generic half of the policy: per-call timeout, AIMD limits, retries with
    backoff and Retry-After, and the two stops, for any request to one endpoint."""

    def __init__(self, options: BackendOptions | None = None, *,
                 rng: random.Random | None = None, endpoint: str = "the endpoint",
                 role: str = "judge endpoint") -> None:
        self.options = options or BackendOptions()
        self.endpoint = endpoint
        self.role = role
        self.stats = BackendStats()
        self.limiter = AdaptiveLimiter(self.options.concurrency, self.options.increase_after)
        self._rng = rng or random.Random()
        self._failed_in_a_row = 0
        # a backend that runs one call at a time (in-process model): the calls in flight
        # queue behind it, so each one's timeout covers the ones ahead of it too
        self.serial = False

    async def call(self, send: Callable[[], Awaitable[T]]) -> T:
        """`send()` (one attempt, raising a classified BackendError) with the timeout,
        limits, retries and stops."""
        return await self._retrying(send, lambda failure: False)

    async def _retrying(self, send: Callable[[], Awaitable[T]],
                        adapt: Callable[[BackendError], bool]) -> T:
        retries = sent = 0
        while True:
            sent += 1
            self.stats.attempts += 1
            try:
                result = await self._attempt(send)
            except BackendError as failure:
                if adapt(failure):
                    self.stats.fallbacks += 1
                    continue
                if failure.stop is not None:  # the backend's own stop line (a redirect)
                    self.stats.failures += 1
                    raise
                if failure.kind == "connect" and self.stats.successes == 0:
                    self.stats.failures += 1
                    raise BackendError(failure.reason, status=failure.status, stop=(
                        f"cannot connect to the {self.role} {self.endpoint}: "
                        f"{failure.reason}")) from None
                if failure.retryable and retries < self.options.max_retries:
                    await asyncio.sleep(self._delay(failure, retries))
                    retries += 1
                    self.stats.retries += 1
                    continue
                self.stats.failures += 1
                raise self._final(failure, sent) from None
            self.stats.successes += 1
            self._failed_in_a_row = 0
            return result

    def _timeout(self) -> float:
        """The per-call timeout: `timeout_s`, times the calls in flight for a serial backend."""
        if self.serial:
            return self.options.timeout_s * max(1, self.limiter.in_flight)
        return self.options.timeout_s

    async def _attempt(self, send: Callable[[], Awaitable[T]]) -> T:
        async with self.limiter.slot() as ticket:
            timeout_s = self._timeout()
            try:
                async with asyncio.timeout(timeout_s):
                    result = await send()
            except TimeoutError:
                raise BackendError(f"timed out ({timeout_s:g}s)", retryable=True) from None
            except BackendError as failure:
                if failure.status == 429:
                    self.stats.rate_limited += 1
                    self.limiter.on_rate_limited(ticket)
                raise
        self.limiter.on_success()
        return result

    def _delay(self, failure: BackendError, retry_index: int) -> float:
        if failure.retry_after is not None and failure.status in (429, 503):
            return min(failure.retry_after, self.options.retry_after_max_s)
        opts = self.options
        return backoff_delay(retry_index, opts.backoff_base_s, opts.backoff_max_s, self._rng)

    def _final(self, failure: BackendError, sent: int) -> BackendError:
        reason = failure.reason
        if failure.retryable and sent > 1:
            reason += f" after {sent} attempts"
        if failure.detail:
            reason += f": {failure.detail}"
        endpoint_level = failure.retryable or failure.status in ENDPOINT_STATUSES
        if not endpoint_level:
            return BackendError(reason, status=failure.status)
        self._failed_in_a_row += 1
        if self.stats.successes == 0:  # dead from the first call: no sample to lose
            return BackendError(reason, status=failure.status, stop=(
                f"the {self.role} {self.endpoint} answered no call (first failure: "
                f"{reason})"))
        limit = max(3, self.options.concurrency)
        if self._failed_in_a_row >= limit:
            return BackendError(reason, status=failure.status, stop=(
                f"the {self.role} {self.endpoint} failed {self._failed_in_a_row} calls in "
                f"a row (last: {reason})"))
        return BackendError(reason, status=failure.status)


class Policy(Guard):
    """A backend with retries, limits, probing and stops; itself a `Backend`."""

    def __init__(self, inner: Backend, options: BackendOptions | None = None, *,
                 rng: random.Random | None = None, endpoint: str | None = None) -> None:
        options = options or BackendOptions()
        super().__init__(options, rng=rng,
                         endpoint=endpoint or options.base_url or inner.name)
        self.inner = inner
        self.name, self.model = inner.name, inner.model
        # what a reply costs when the backend does not say (the openai backend never does)
        self.price = options.price if options.price is not None else litellm_price(
            inner.model)
        self.serial = bool(getattr(inner, "serial", False))
        configured = self.options.structured_output
        self._mode: str | None = None if configured == "auto" else configured
        self._probed = self._mode is not None
        self._omit: set[str] = set()
        self._probe_lock: asyncio.Lock | None = None
        self._lock_loop: asyncio.AbstractEventLoop | None = None

    def __repr__(self) -> str:
        return f"Policy({self.inner!r})"

    @property
    def structured_output_mode(self) -> str | None:
        """The structured-output form confirmed by a reply; None until one came."""
        return self._mode

    def cache_params(self) -> dict[str, Any]:
        return self.inner.cache_params()

    async def aclose(self) -> None:
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._probe_lock is None or self._lock_loop is not loop:
            self._probe_lock, self._lock_loop = asyncio.Lock(), loop
        return self._probe_lock

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        started = time.monotonic()
        if not self._probed and request.output_schema is not None:
            async with self._lock():  # the first call probes; the others wait for it once
                if not self._probed:
                    try:
                        return await self._run(request, started)
                    finally:
                        self._probed = True
        return await self._run(request, started)

    async def _run(self, request: JudgeRequest, started: float) -> JudgeReply:
        probing = self._mode is None and request.output_schema is not None
        state = {"mode": self._mode or MODES[0]}

        def adapt(failure: BackendError) -> bool:
            if self._adapt_params(failure):
                return True
            if probing and _schema_rejected(failure, state["mode"]):
                state["mode"] = MODES[MODES.index(state["mode"]) + 1]
                return True
            return False

        async def send() -> JudgeReply:
            req = request.model_copy(update={"structured_output": state["mode"],
                                             "omit": frozenset(self._omit)})
            return await self.inner.complete(req)

        reply = await self._retrying(send, adapt)
        if probing:
            self._mode = state["mode"]
        if request.top_logprobs and reply.logprobs is None:
            self._omit.add("logprobs")  # the server ignores them: stop asking
        usage = reply.usage.model_copy(update={"latency_s": time.monotonic() - started})
        return reply.model_copy(update={"usage": priced(usage, self.price)})

    def _adapt_params(self, failure: BackendError) -> bool:
        """Drop or rename a parameter the server rejected; True if worth resending."""
        if ("logprobs" in failure.sent and "logprobs" not in self._omit
                and failure.status in (400, 422, 500) and "logprob" in failure.body):
            self._omit.add("logprobs")  # e.g. llama.cpp's server without logits_all: 500
            return True
        if failure.status not in (400, 422):
            return False
        message = failure.message
        if not any(word in message for word in _REJECT_WORDS):
            return False
        if "seed" in failure.sent and "seed" not in self._omit and re.search(r"\bseed\b",
                                                                             message):
            self._omit.add("seed")
            return True
        if ("max_tokens" in failure.sent and "max_tokens" not in self._omit
                and "max_completion_tokens" in message):
            self._omit.add("max_tokens")
            return True
        if ("temperature" in failure.sent and "temperature" not in self._omit
                and "temperature" in message):
            self._omit.add("temperature")
            return True
        return False


def _schema_rejected(failure: BackendError, mode: str) -> bool:
    """During the probe: does this failure mean "try a simpler structured-output form"?"""
    if mode == MODES[-1] or failure.status not in _SCHEMA_STATUSES:
        return False
    return failure.status == 500 or any(word in failure.body for word in _SCHEMA_WORDS)
