"""Several endpoints behind one backend: spread, left out when failing, bounded."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from ragassay.llm import BackendError, BackendOptions, Policy, Spread
from ragassay.llm.wire import JudgeReply, JudgeRequest, Message

REQUEST = JudgeRequest(messages=(Message(role="user", content="judge this"),))
OPTIONS = BackendOptions(concurrency=4, max_retries=1, backoff_base_s=0.0,
                         structured_output="json_object")


class Fake:
    """An endpoint: `answer(n)` returns a reply or raises, for its n-th call."""

    name, model = "fake", "m"

    def __init__(self, answer: Callable[[int], JudgeReply]) -> None:
        self.answer = answer
        self.calls = 0
        self.in_flight = 0

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        self.calls += 1
        n = self.calls
        self.in_flight += 1
        try:
            await asyncio.sleep(0.002)
            return self.answer(n)
        finally:
            self.in_flight -= 1

    def cache_params(self) -> dict[str, str]:
        return {"backend": "fake", "model": "m"}


def ok(n: int) -> JudgeReply:
    return JudgeReply(text='{"score": 1}')


def down(n: int) -> JudgeReply:
    raise BackendError("HTTP 500", status=500, retryable=True)


def bad_request(n: int) -> JudgeReply:
    raise BackendError("HTTP 400: prompt too long", status=400)


def _spread(*answers: Callable[[int], JudgeReply], concurrency: int = 4
            ) -> tuple[Spread, list[Fake]]:
    fakes = [Fake(a) for a in answers]
    policies = [Policy(f, OPTIONS.model_copy(update={"concurrency": concurrency}),
                       endpoint=f"http://10.0.0.{i}/v1") for i, f in enumerate(fakes)]
    return Spread(policies, concurrency), fakes


async def _many(spread: Spread, n: int) -> list[JudgeReply | BaseException]:
    return await asyncio.gather(*(spread.complete(REQUEST) for _ in range(n)),
                                return_exceptions=True)


def test_calls_are_spread_over_healthy_endpoints_within_one_bound() -> None:
    spread, fakes = _spread(ok, ok, ok, concurrency=6)
    peak = 0

    async def watch() -> None:
        nonlocal peak
        for _ in range(200):
            peak = max(peak, sum(f.in_flight for f in fakes))
            await asyncio.sleep(0.0005)

    async def main() -> list[JudgeReply | BaseException]:
        watcher = asyncio.create_task(watch())
        out = await _many(spread, 90)
        watcher.cancel()
        return out

    replies = asyncio.run(main())
    assert all(isinstance(r, JudgeReply) for r in replies)
    assert sum(f.calls for f in fakes) == 90 and min(f.calls for f in fakes) >= 20
    assert 0 < peak <= 6  # --concurrency bounds the calls across all endpoints
    assert spread.notes == [] and spread.stats.successes == 90


def test_an_endpoint_answering_500s_is_left_out_and_the_calls_succeed_elsewhere() -> None:
    spread, (bad, good) = _spread(down, ok)
    replies = asyncio.run(_many(spread, 40))
    assert all(isinstance(r, JudgeReply) for r in replies)
    assert good.calls == 40
    assert 0 < bad.calls <= 4 * 2  # its first calls (2 attempts each), then never again
    assert spread.left_out.keys() == {0}
    assert spread.notes == ["judge endpoint http://10.0.0.0/v1 left out (the judge endpoint "
                            "http://10.0.0.0/v1 answered no call (first failure: HTTP 500 "
                            "after 2 attempts)); 1 of 2 still in use"]


def test_a_request_level_failure_is_not_retried_on_another_endpoint() -> None:
    spread, (first, second) = _spread(bad_request, bad_request)
    with pytest.raises(BackendError, match="prompt too long") as caught:
        asyncio.run(spread.complete(REQUEST))
    assert first.calls + second.calls == 1 and not caught.value.fatal
    assert spread.left_out == {}


def test_when_every_endpoint_is_out_the_run_stops_in_one_line() -> None:
    spread, fakes = _spread(down, down)
    replies = asyncio.run(_many(spread, 10))
    errors = [r for r in replies if isinstance(r, BackendError)]
    assert len(errors) == 10 and all(e.fatal for e in errors)
    assert errors[-1].stop is not None
    assert errors[-1].stop.startswith("every judge endpoint failed (2): the judge endpoint "
                                      "http://10.0.0.")
    assert sum(f.calls for f in fakes) <= 2 * 4 * 2


def test_an_endpoint_with_fewer_free_slots_gets_the_next_call_later() -> None:
    spread, _ = _spread(ok, ok)
    spread.backends[0].limiter.on_rate_limited()  # a 429 halved its bound: 4 -> 2
    spread.backends[0].limiter.in_flight = 1
    assert spread._pick(set()) == 1  # 3 free slots beat 1
    spread.left_out[1] = "gone"
    assert spread._pick(set()) == 0 and spread._pick({0}) is None
    assert spread.cache_params() == {"backend": "fake", "model": "m"}
