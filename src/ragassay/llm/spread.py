"""Several endpoints of one model behind one backend: calls spread, a failing one left out.

`--base-url` given more than once (GPU replicas, regions, gateways) builds one
policy-wrapped backend per endpoint (each with its own retries, AIMD bound, probe and
stops) and a `Spread` over them, which is itself a `Backend`: the judge, the cache key
and the runner see one backend.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from ragassay.llm.base import BackendError, BackendOptions, BackendStats
from ragassay.llm.policy import ENDPOINT_STATUSES, Policy
from ragassay.llm.registry import get_backend
from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.urls import redact_url


def _endpoint_level(exc: BackendError) -> bool:
    """Whether a final error says something about its endpoint rather than the request:
    timeouts and lost connections (no status), rate limits, server errors, refusals."""
    return exc.fatal or exc.status is None or exc.status in ENDPOINT_STATUSES


class Spread:
    """One backend over several endpoints serving the same model.

    Each call goes to the live endpoint with the most free slots (its AIMD bound minus
    its calls in flight; ties in turn), so an endpoint that answers 429 (its bound
    halved) or slowly gets fewer calls. A call that fails at the endpoint level after
    that endpoint's own retries (5xx, 429, timeouts, no connection) is sent to another
    live endpoint; an endpoint whose policy stops (no connection, no call answered,
    every call failing) or that refuses the credentials or model (401/403/404) is left
    out for the rest of the run, said once in `notes`. Only when every endpoint is out
    does a call raise the stop that ends the run. A request-level failure (400 for this
    prompt) is raised at once: another endpoint would refuse it too.
    """

    def __init__(self, backends: Sequence[Policy], concurrency: int) -> None:
        if not backends:
            raise ValueError("Spread needs at least one backend")
        self.backends = list(backends)
        self.name, self.model = self.backends[0].name, self.backends[0].model
        self.concurrency = max(1, concurrency)
        self.left_out: dict[int, str] = {}  # endpoint index -> why
        self.notes: list[str] = []
        self._turn = 0
        self._slots: asyncio.Semaphore | None = None
        self._slots_loop: asyncio.AbstractEventLoop | None = None

    def __repr__(self) -> str:
        return f"Spread({len(self.backends)} endpoints)"

    @property
    def endpoints(self) -> list[str]:
        return [redact_url(b.endpoint) for b in self.backends]

    @property
    def stats(self) -> BackendStats:
        """The endpoints' counters summed."""
        total = BackendStats()
        for b in self.backends:
            for name, value in vars(b.stats).items():
                setattr(total, name, getattr(total, name) + value)
        return total

    def cache_params(self) -> dict[str, Any]:
        return self.backends[0].cache_params()  # same model: one cache key for all

    async def aclose(self) -> None:
        for backend in self.backends:
            await backend.aclose()

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots_loop is not loop:
            self._slots, self._slots_loop = asyncio.Semaphore(self.concurrency), loop
        return self._slots

    def _pick(self, tried: set[int]) -> int | None:
        live = [i for i in range(len(self.backends))
                if i not in self.left_out and i not in tried]
        if not live:
            return None
        n = len(self.backends)
        live.sort(key=lambda i: (-self._free(i), (i - self._turn) % n))
        self._turn = (live[0] + 1) % n
        return live[0]

    def _free(self, i: int) -> int:
        limiter = self.backends[i].limiter
        return limiter.limit - limiter.in_flight

    def _leave_out(self, i: int, exc: BackendError) -> None:
        if i in self.left_out:
            return
        reason = exc.stop or exc.reason
        self.left_out[i] = reason
        live = len(self.backends) - len(self.left_out)
        self.notes.append(f"judge endpoint {self.endpoints[i]} left out ({reason}); "
                          f"{live} of {len(self.backends)} still in use")

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        async with self._gate():
            tried: set[int] = set()
            last: BackendError | None = None
            while (i := self._pick(tried)) is not None:
                try:
                    return await self.backends[i].complete(request)
                except BackendError as exc:
                    if not _endpoint_level(exc):
                        raise
                    tried.add(i)
                    last = exc
                    if exc.fatal:
                        self._leave_out(i, exc)
            raise self._exhausted(last)

    def _exhausted(self, last: BackendError | None) -> BackendError:
        if len(self.left_out) == len(self.backends):
            reasons = "; ".join(self.left_out.values())
            return BackendError(last.reason if last else "no endpoint left", stop=(
                f"every judge endpoint failed ({len(self.backends)}): {reasons}"))
        assert last is not None  # some endpoint was tried and failed this call
        return BackendError(last.reason, status=last.status)


def spread_backend(spec: str, options: BackendOptions, urls: Sequence[str], *,
                   rng: random.Random | None = None) -> Spread:
    """A `Spread` over one policy-wrapped backend per URL (each bounded by the options'
    concurrency, as is the whole)."""
    backends = [get_backend(spec, options.model_copy(update={"base_url": url}), rng=rng)
                for url in urls]
    return Spread(backends, options.concurrency)
