from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from ragassay.llm import AdaptiveLimiter
from ragassay.llm.retry import backoff_delay, is_retryable_status, parse_retry_after


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"RETRY-AFTER": "-3"}, 0.0),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),
        ({"Retry-After": "soon"}, None),
        ({}, None),
        (None, None),
    ],
)
def test_parse_retry_after_seconds(headers: dict[str, str] | None, expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date() -> None:
    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    later = format_datetime(datetime(2025, 1, 1, 12, 0, 10, tzinfo=UTC), usegmt=True)
    earlier = format_datetime(datetime(2025, 1, 1, 11, 0, 0, tzinfo=UTC), usegmt=True)
    assert parse_retry_after({"Retry-After": later}, now=now.timestamp()) == pytest.approx(10.0)
    assert parse_retry_after({"Retry-After": earlier}, now=now.timestamp()) == 0.0


def test_backoff_is_full_jitter_within_the_exponential_ceiling() -> None:
    rng = random.Random(7)
    for retry in range(8):
        ceiling = min(1.0, 0.1 * 2**retry)
        delays = [backoff_delay(retry, 0.1, 1.0, rng) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > 0.5 * ceiling  # jitter spans the range, not a constant
    assert backoff_delay(3, 0.0, 1.0, rng) == 0.0


def test_backoff_is_deterministic_with_a_seeded_rng() -> None:
    a = [backoff_delay(i, 0.2, 5.0, random.Random(1)) for i in range(5)]
    b = [backoff_delay(i, 0.2, 5.0, random.Random(1)) for i in range(5)]
    assert a == b


@pytest.mark.parametrize(
    ("status", "retry"),
    [
        (500, True),
        (502, True),
        (503, True),
        (429, True),
        (408, True),
        (409, True),
        (400, False),
        (401, False),
        (404, False),
        (422, False),
    ],
)
def test_retryable_statuses(status: int, retry: bool) -> None:
    assert is_retryable_status(status) is retry


def test_limiter_halves_on_rate_limit_down_to_one() -> None:
    limiter = AdaptiveLimiter(8)
    seen = []
    for _ in range(5):
        limiter.on_rate_limited()
        seen.append(limiter.limit)
    assert seen == [4, 2, 1, 1, 1]


def test_limiter_halves_once_per_epoch() -> None:
    async def scenario() -> int:
        limiter = AdaptiveLimiter(8)
        tickets = [await limiter.acquire() for _ in range(3)]
        for ticket in tickets:  # three calls in flight together all hit 429
            limiter.on_rate_limited(ticket)
            limiter.release()
        return limiter.limit

    assert asyncio.run(scenario()) == 4


def test_limiter_grows_by_one_after_a_run_of_successes_up_to_the_max() -> None:
    limiter = AdaptiveLimiter(4, increase_after=3)
    limiter.on_rate_limited()
    limiter.on_rate_limited()
    assert limiter.limit == 1
    for _ in range(3):
        limiter.on_success()
    assert limiter.limit == 2
    limiter.on_success()
    limiter.on_rate_limited()  # resets the streak
    limiter.on_success()
    limiter.on_success()
    assert limiter.limit == 1
    for _ in range(30):
        limiter.on_success()
    assert limiter.limit == 4


def test_limiter_bounds_concurrency_and_follows_a_decrease() -> None:
    async def scenario() -> tuple[int, int]:
        limiter = AdaptiveLimiter(3)
        active = 0
        peak_before = 0
        peak_after = 0
        phase = {"after": False}

        async def job(i: int) -> None:
            nonlocal active, peak_before, peak_after
            async with limiter.slot():
                active += 1
                if phase["after"]:
                    peak_after = max(peak_after, active)
                else:
                    peak_before = max(peak_before, active)
                await asyncio.sleep(0.005)
                active -= 1

        await asyncio.gather(*(job(i) for i in range(12)))
        limiter.on_rate_limited()  # 3 -> 1
        phase["after"] = True
        await asyncio.gather(*(job(i) for i in range(6)))
        assert limiter.in_flight == 0
        return peak_before, peak_after

    before, after = asyncio.run(scenario())
    assert before == 3
    assert after == 1


def test_cancelled_waiters_do_not_leak_slots() -> None:
    async def scenario() -> int:
        limiter = AdaptiveLimiter(1)
        await limiter.acquire()
        waiters = [asyncio.ensure_future(limiter.acquire()) for _ in range(3)]
        await asyncio.sleep(0)
        waiters[0].cancel()
        limiter.release()  # hands the slot to waiter 1 (waiter 0 is cancelled)
        await asyncio.sleep(0)
        waiters[2].cancel()
        await asyncio.gather(*waiters, return_exceptions=True)
        assert waiters[1].done() and not waiters[1].cancelled()
        limiter.release()
        return limiter.in_flight

    assert asyncio.run(scenario()) == 0


def test_limiter_survives_a_new_event_loop() -> None:
    limiter = AdaptiveLimiter(2)

    async def use() -> None:
        async with limiter.slot():
            await asyncio.sleep(0)

    asyncio.run(use())
    asyncio.run(use())
    assert limiter.in_flight == 0


def test_limiter_rejects_bad_bounds() -> None:
    with pytest.raises(ValueError):
        AdaptiveLimiter(0)
    with pytest.raises(ValueError):
        AdaptiveLimiter(2, increase_after=0)
