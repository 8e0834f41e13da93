"""Concurrency bound and retry timing for judge calls.

`AdaptiveLimiter` is an AIMD bound on calls in flight: it halves on a rate limit
(once per "epoch", so a burst of 429s from calls already in flight counts once)
and grows by one after a run of successes. `backoff_delay` is exponential backoff
with full jitter; `parse_retry_after` reads the `Retry-After` header.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass

RETRYABLE_STATUS = frozenset({408, 409, 429})


def is_retryable_status(status: int) -> bool:
    """5xx, 408 (timeout), 409 (conflict) and 429 (rate limit) are worth another try."""
    return status >= 500 or status in RETRYABLE_STATUS


def backoff_delay(
    retry_index: int, base_s: float, max_s: float, rng: random.Random | None = None
) -> float:
    """Full-jitter backoff: uniform in [0, min(max_s, base_s * 2**retry_index)]."""
    ceiling = min(max_s, base_s * (2 ** max(retry_index, 0)))
    if ceiling <= 0:
        return 0.0
    return (rng or random).uniform(0.0, ceiling)


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms`, or `Retry-After` (seconds or HTTP date).

    Returns None when there is no usable header; never a negative number.
    """
    if not headers:
        return None
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    ms = lowered.get("retry-after-ms")
    if ms is not None:
        try:
            return max(float(ms) / 1000.0, 0.0)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    current = time.time() if now is None else now
    return max(when.timestamp() - current, 0.0)


@dataclass(frozen=True)
class Ticket:
    """A held slot; `epoch` tells whether a rate limit on it is news."""

    epoch: int


class AdaptiveLimiter:
    """An asyncio bound on concurrent calls with additive increase, multiplicative decrease.

    Starts at `max_concurrency`; `on_rate_limited` halves the bound (min 1) once per
    epoch; `on_success` adds one after `increase_after` successes in a row, up to
    `max_concurrency`. Safe to reuse across event loops (state resets on a new loop).
    """

    def __init__(self, max_concurrency: int, increase_after: int = 10) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if increase_after < 1:
            raise ValueError("increase_after must be at least 1")
        self.max_concurrency = max_concurrency
        self.increase_after = increase_after
        self.limit = max_concurrency
        self.in_flight = 0
        self.peak_in_flight = 0
        self.epoch = 0
        self._streak = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def _check_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            # Slots held on a finished loop can never be released: start afresh.
            self._loop = loop
            self.in_flight = 0
            self._waiters.clear()

    async def acquire(self) -> Ticket:
        """Wait for a free slot (first come, first served) and take it."""
        self._check_loop()
        if self.in_flight < self.limit and not self._waiters:
            self._count_in()
            return Ticket(self.epoch)
        assert self._loop is not None
        fut: asyncio.Future[None] = self._loop.create_future()
        self._waiters.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # the slot was handed to us: hand it on
            elif fut in self._waiters:
                self._waiters.remove(fut)
            raise
        return Ticket(self.epoch)

    def _count_in(self) -> None:
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def release(self) -> None:
        """Give a slot back and let waiters in while there is room."""
        self.in_flight = max(self.in_flight - 1, 0)
        self._wake()

    def _wake(self) -> None:
        # A slot is handed over (counted) at wake time, so a second release before
        # the woken task runs cannot let more than `limit` calls through.
        while self._waiters and self.in_flight < self.limit:
            fut = self._waiters.popleft()
            if fut.done():
                continue  # cancelled while waiting
            self._count_in()
            fut.set_result(None)

    def on_success(self) -> None:
        """Additive increase: one more slot after `increase_after` successes in a row."""
        self._streak += 1
        if self._streak >= self.increase_after and self.limit < self.max_concurrency:
            self.limit += 1
            self._streak = 0
            self._wake()

    def on_rate_limited(self, ticket: Ticket | None = None) -> None:
        """Multiplicative decrease, at most once per epoch."""
        self._streak = 0
        if ticket is not None and ticket.epoch != self.epoch:
            return  # this call started before the last decrease: already accounted for
        self.limit = max(1, self.limit // 2)
        self.epoch += 1

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Ticket]:
        """`async with limiter.slot() as ticket:` holds one slot for the block."""
        ticket = await self.acquire()
        try:
            yield ticket
        finally:
            self.release()
