"""The OpenAI-compatible backend against a scripted local server."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragassay.llm import BackendError, BackendOptions, Policy
from ragassay.llm.openai_backend import OpenAIBackend
from ragassay.llm.wire import JudgeRequest, Message
from tests.support.scripted_server import (
    Handler,
    ScriptedReply,
    ScriptedServer,
    chat_completion,
    sequence,
)

MakeServer = Callable[[Handler], ScriptedServer]
TEST_KEY_ENV = "RAGASSAY_LLM_TEST_KEY"  # cleared by conftest._clean_env
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"score": {"type": "integer"}, "reason": {"type": "string"}},
    "required": ["score"],
}
GOOD = '{"score": 4, "reason": "supported"}'


def request(schema: dict[str, Any] | None = SCHEMA, **kw: Any) -> JudgeRequest:
    return JudgeRequest(
        messages=(
            Message(role="system", content="You are a strict judge."),
            Message(role="user", content="Rate the answer."),
        ),
        output_schema=schema,
        prompt_name="faithfulness",
        **kw,
    )


def backend(server: ScriptedServer, **overrides: Any) -> Policy:
    """The OpenAI backend as the registry returns it: inside the policy layer."""
    options: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key_env": TEST_KEY_ENV,
        "timeout_s": 2.0,
        "max_retries": 2,
        "backoff_base_s": 0.01,
        "backoff_max_s": 0.02,
    }
    options.update(overrides)
    opts = BackendOptions(**options)
    return Policy(OpenAIBackend("judge-model", opts), opts, rng=random.Random(0))


def complete(b: Policy, req: JudgeRequest | None = None, *, close: bool = True) -> Any:
    async def go() -> Any:
        try:
            return await b.complete(req or request())
        finally:
            if close:
                await b.aclose()

    return asyncio.run(go())


def complete_many(b: Policy, n: int) -> list[Any]:
    async def go() -> list[Any]:
        try:
            return await asyncio.gather(*(b.complete(request()) for _ in range(n)))
        finally:
            await b.aclose()

    return asyncio.run(go())


def fmt(req: dict[str, Any]) -> str | None:
    rf = req.get("response_format")
    return rf.get("type") if isinstance(rf, dict) else None


# -- replies -----------------------------------------------------------------------------
def test_valid_reply(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD, usage=(120, 9)))
    b = backend(server)
    reply = complete(b)
    assert reply.data == {"score": 4, "reason": "supported"}
    assert reply.parse_error is None
    assert reply.text == GOOD
    assert reply.finish_reason == "stop" and not reply.truncated
    assert reply.model == "scripted-model"
    assert (reply.usage.calls, reply.usage.input_tokens, reply.usage.output_tokens) == (1, 120, 9)
    assert reply.usage.latency_s > 0
    sent = server.requests[0]
    assert sent["model"] == "judge-model"
    assert sent["temperature"] == 0 and sent["seed"] == 0 and sent["max_tokens"] == 1024
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert sent["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "faithfulness", "schema": SCHEMA, "strict": False},
    }
    assert server.request_headers[0]["authorization"] == "Bearer not-needed"
    assert b.structured_output_mode == "json_schema"
    assert b.stats.attempts == 1 and b.stats.successes == 1 and b.stats.retries == 0


def test_fenced_json(scripted_server: MakeServer) -> None:
    text = f"Here you go:\n```json\n{GOOD}\n```"
    server = scripted_server(lambda req, n: ScriptedReply.chat(text))
    reply = complete(backend(server))
    assert reply.data == {"score": 4, "reason": "supported"}
    assert reply.text == text


def test_invalid_json_keeps_text_and_sets_parse_error(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat("I think it is a 4."))
    b = backend(server)
    reply = complete(b)
    assert reply.data is None
    assert reply.parse_error == "no JSON object found in reply"
    assert reply.text == "I think it is a 4."
    assert server.count == 1  # a parse failure is the judge layer's to repair, not a retry


def test_truncated_output(scripted_server: MakeServer) -> None:
    cut = '{"score": 4, "reason": "the answer st'
    server = scripted_server(lambda req, n: ScriptedReply.chat(cut, finish_reason="length"))
    reply = complete(backend(server))
    assert reply.finish_reason == "length" and reply.truncated
    assert reply.data is None and "unterminated" in (reply.parse_error or "")


def test_missing_usage_is_estimated(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD, usage=None))
    reply = complete(backend(server))
    prompt_chars = len("You are a strict judge.") + len("Rate the answer.")
    assert reply.usage.input_tokens == prompt_chars // 4
    assert reply.usage.output_tokens == len(GOOD) // 4


def test_without_schema_no_response_format_and_no_parsing(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat("plain words"))
    b = backend(server)
    reply = complete(b, request(schema=None, seed=None))
    assert reply.data is None and reply.parse_error is None
    assert "response_format" not in server.requests[0] and "seed" not in server.requests[0]
    assert b.structured_output_mode is None  # nothing was probed


# -- retries -----------------------------------------------------------------------------
def test_rate_limit_honours_retry_after_and_shrinks_the_limiter(
    scripted_server: MakeServer,
) -> None:
    limited = ScriptedReply.error(429, "slow down", headers={"Retry-After": "0.3"})
    server = scripted_server(sequence(limited, ScriptedReply.chat(GOOD)))
    b = backend(server, concurrency=8, backoff_base_s=5.0, backoff_max_s=5.0)
    t0 = time.monotonic()
    reply = complete(b)
    elapsed = time.monotonic() - t0
    assert reply.data["score"] == 4
    assert 0.28 <= elapsed < 2.0  # waited Retry-After, not the (long) backoff
    assert server.count == 2
    assert b.stats.rate_limited == 1 and b.stats.retries == 1
    assert b.limiter.limit == 4


def test_server_error_then_success(scripted_server: MakeServer) -> None:
    server = scripted_server(sequence(ScriptedReply.error(503, "busy"), ScriptedReply.chat(GOOD)))
    b = backend(server, structured_output="json_schema")
    assert complete(b).data["score"] == 4
    assert server.count == 2 and b.stats.retries == 1 and b.stats.failures == 0


def test_persistent_500_fails_within_the_retry_bound(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.error(500, "internal failure"))
    b = backend(server, structured_output="json_schema", max_retries=3)
    with pytest.raises(BackendError) as info:
        complete(b)
    assert server.count == 4  # max_retries + 1
    assert info.value.reason == "HTTP 500 after 4 attempts: internal failure"
    assert b.stats.attempts == 4 and b.stats.retries == 3 and b.stats.failures == 1


def test_persistent_500_in_auto_mode_adds_at_most_the_two_probe_steps(
    scripted_server: MakeServer,
) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.error(500, "down"))
    b = backend(server, max_retries=1)
    with pytest.raises(BackendError, match="HTTP 500 after 4 attempts"):
        complete(b)
    assert [fmt(r) for r in server.requests] == ["json_schema", "json_object", None, None]
    assert b.structured_output_mode is None  # nothing succeeded: probe again next time


def test_client_error_is_not_retried(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.error(404, "model 'x' not found"))
    b = backend(server)
    with pytest.raises(BackendError) as info:
        complete(b)
    assert info.value.reason == "HTTP 404: model 'x' not found"
    assert server.count == 1 and b.stats.retries == 0


def test_timeout_is_retried_then_fails(scripted_server: MakeServer) -> None:
    # the first call answers at once: it makes the client (the SDK's first request does
    # set-up work that may outlast a 0.2 s timeout before anything is sent), so that each
    # attempt of the second call is a request the server sees
    server = scripted_server(
        lambda req, n: ScriptedReply.chat(GOOD, delay_s=0.0 if n == 0 else 1.5))
    b = backend(server, timeout_s=2.0, max_retries=1, structured_output="json_schema")
    assert complete(b).data["score"] == 4
    b.options = b.options.model_copy(update={"timeout_s": 0.2})
    t0 = time.monotonic()
    with pytest.raises(BackendError) as info:
        complete(b)
    # well under the two 1.5 s replies it did not wait for (a bound, not a speed figure)
    assert time.monotonic() - t0 < 2.9
    assert info.value.reason == "timed out (0.2s) after 2 attempts"
    deadline = time.monotonic() + 5  # the server thread may count the retry a little later
    while server.count < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.count == 3


def test_slow_first_reply_then_fast(scripted_server: MakeServer) -> None:
    server = scripted_server(
        sequence(ScriptedReply.chat(GOOD, delay_s=1.0), ScriptedReply.chat(GOOD))
    )
    b = backend(server, timeout_s=0.2, structured_output="json_schema")
    assert complete(b).data["score"] == 4
    assert server.count == 2


def test_connection_reset_then_success(scripted_server: MakeServer) -> None:
    server = scripted_server(
        sequence(ScriptedReply.chat(GOOD, reset=True), ScriptedReply.chat(GOOD))
    )
    b = backend(server, structured_output="json_schema")
    assert complete(b).data["score"] == 4
    assert server.count == 2 and b.stats.retries == 1


def test_persistent_connection_reset_fails(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD, reset=True))
    b = backend(server, structured_output="json_schema", max_retries=1)
    with pytest.raises(BackendError, match=r"^connection error \(.*\) after 2 attempts$"):
        complete(b)
    assert server.count == 2


def test_empty_choices_is_retried_then_fails(scripted_server: MakeServer) -> None:
    empty = chat_completion(GOOD)
    empty["choices"] = []
    server = scripted_server(lambda req, n: ScriptedReply(body=empty))
    b = backend(server, max_retries=2)
    with pytest.raises(BackendError, match="^empty choices after 3 attempts$"):
        complete(b)
    assert server.count == 3


def test_empty_choices_then_success(scripted_server: MakeServer) -> None:
    empty = chat_completion(GOOD)
    empty["choices"] = []
    server = scripted_server(sequence(ScriptedReply(body=empty), ScriptedReply.chat(GOOD)))
    assert complete(backend(server)).data["score"] == 4
    assert server.count == 2


def test_non_json_body_is_retried(scripted_server: MakeServer) -> None:
    server = scripted_server(
        sequence(ScriptedReply(body=b"<html>gateway</html>"), ScriptedReply.chat(GOOD))
    )
    assert complete(backend(server, structured_output="prompt")).data["score"] == 4
    assert server.count == 2


def test_concurrency_bound_is_respected_at_the_server(scripted_server: MakeServer) -> None:
    lock = threading.Lock()
    state = {"active": 0, "peak": 0}

    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        with lock:
            state["active"] += 1
            state["peak"] = max(state["peak"], state["active"])
        time.sleep(0.05)
        with lock:
            state["active"] -= 1
        return ScriptedReply.chat(GOOD)

    server = scripted_server(handler)
    b = backend(server, concurrency=2, structured_output="json_schema")

    replies = complete_many(b, 8)
    assert all(r.data["score"] == 4 for r in replies)
    assert server.count == 8
    assert state["peak"] == 2


# -- structured output and parameter fallbacks ------------------------------------------
def _llama_like(req: dict[str, Any], n: int) -> ScriptedReply:
    if fmt(req) == "json_schema":
        return ScriptedReply.error(500, "Internal error: unsupported response_format json_schema")
    return ScriptedReply.chat(GOOD)


def test_auto_falls_back_to_json_object_once(scripted_server: MakeServer) -> None:
    server = scripted_server(_llama_like)
    b = backend(server)
    for _ in range(3):
        assert complete(b).data["score"] == 4
    assert [fmt(r) for r in server.requests] == [
        "json_schema",
        "json_object",
        "json_object",
        "json_object",
    ]
    assert b.structured_output_mode == "json_object"
    assert server.requests[1]["response_format"]["schema"] == SCHEMA
    # the server is given the schema, so the prompt does not repeat it (issue #19)
    assert "JSON schema" not in server.requests[1]["messages"][-1]["content"]
    assert server.requests[1]["messages"][-1]["content"] == "Rate the answer."
    assert b.stats.fallbacks == 1


def test_auto_probe_happens_once_under_concurrency(scripted_server: MakeServer) -> None:
    server = scripted_server(_llama_like)
    b = backend(server, concurrency=4)

    assert all(r.data["score"] == 4 for r in complete_many(b, 6))
    assert server.count == 7  # one rejected probe + six answers
    assert [fmt(r) for r in server.requests].count("json_schema") == 1


def test_auto_falls_back_to_prompt(scripted_server: MakeServer) -> None:
    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        if "response_format" in req:
            return ScriptedReply.error(400, "response_format is not supported by this server")
        return ScriptedReply.chat(GOOD)

    server = scripted_server(handler)
    b = backend(server)
    assert complete(b).data["score"] == 4
    assert complete(b).data["score"] == 4
    assert [fmt(r) for r in server.requests] == ["json_schema", "json_object", None, None]
    last_user = server.requests[-1]["messages"][-1]
    assert last_user["role"] == "user"
    assert last_user["content"].startswith("Rate the answer.")
    assert json.dumps(SCHEMA, sort_keys=True) in last_user["content"]


def test_explicit_mode_does_not_fall_back(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.error(400, "json_schema unsupported"))
    b = backend(server, structured_output="json_schema")
    with pytest.raises(BackendError, match="^HTTP 400: json_schema unsupported$"):
        complete(b)
    assert server.count == 1


def test_rejected_seed_is_dropped_and_remembered(scripted_server: MakeServer) -> None:
    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        if "seed" in req:
            return ScriptedReply.error(400, "Unsupported parameter: 'seed'")
        return ScriptedReply.chat(GOOD)

    server = scripted_server(handler)
    b = backend(server, structured_output="json_schema")
    assert complete(b).data["score"] == 4
    assert complete(b).data["score"] == 4
    assert ["seed" in r for r in server.requests] == [True, False, False]


def test_max_completion_tokens_switch(scripted_server: MakeServer) -> None:
    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        if "max_tokens" in req:
            return ScriptedReply.error(
                400, "Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead."
            )
        return ScriptedReply.chat(GOOD)

    server = scripted_server(handler)
    b = backend(server, structured_output="json_schema", max_tokens=300)
    assert complete(b).data["score"] == 4
    assert server.requests[-1]["max_completion_tokens"] == 300


def test_unrelated_400_mentioning_seed_keeps_the_seed(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.error(400, "seed must be an integer"))
    b = backend(server, structured_output="json_schema")
    with pytest.raises(BackendError):
        complete(b)
    assert server.count == 1 and "seed" in server.requests[0]


def test_extra_body_is_sent(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    b = backend(server, structured_output="json_schema", extra_body={"top_k": 1})
    complete(b)
    assert server.requests[0]["top_k"] == 1


def test_the_body_arrives_whole_and_extra_body_overrides_built_keys(
        scripted_server: MakeServer) -> None:
    """The body goes as plain JSON (past the SDK's typed-params transform): every built
    key arrives, the messages in full, and a user's extra_body still wins."""
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    b = backend(server, structured_output="json_schema",
                extra_body={"temperature": 0.7, "max_tokens": 99})
    complete(b, request(top_logprobs=5, seed=3))
    got = server.requests[0]
    assert got["model"] == "judge-model"
    assert got["messages"] == [{"role": "system", "content": "You are a strict judge."},
                               {"role": "user", "content": "Rate the answer."}]
    assert (got["temperature"], got["max_tokens"], got["seed"]) == (0.7, 99, 3)
    assert got["logprobs"] is True and got["top_logprobs"] == 5
    assert got["response_format"]["type"] == "json_schema"
    assert got["response_format"]["json_schema"]["schema"] == SCHEMA


# -- keys, configuration, cache parameters -----------------------------------------------
PLANTED = "sk-test-PLANTED-key-0123456789"


def test_key_never_appears_in_errors(
    scripted_server: MakeServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TEST_KEY_ENV, PLANTED)

    def echo(req: dict[str, Any], n: int) -> ScriptedReply:
        auth = server.request_headers[n]["authorization"]
        return ScriptedReply.error(401 if n == 0 else 500, f"bad key {PLANTED[:6]} header={auth}")

    server = scripted_server(echo)
    b = backend(server, structured_output="json_schema", max_retries=1)
    with pytest.raises(BackendError) as first:
        complete(b)
    assert server.request_headers[0]["authorization"] == f"Bearer {PLANTED}"  # key was used
    with pytest.raises(BackendError) as second:
        complete(b)
    for err in (first.value, second.value):
        shown = "".join(traceback.format_exception(err)) + repr(err) + err.reason
        assert PLANTED not in shown and "PLANTED" not in shown
        assert err.__cause__ is None
    assert first.value.reason.startswith("HTTP 401: bad key")
    assert PLANTED not in repr(b) and PLANTED not in repr(vars(b))


def test_no_key_and_no_base_url_is_a_clear_error() -> None:
    with pytest.raises(BackendError, match="set OPENAI_API_KEY"):
        OpenAIBackend("gpt-4o-mini", BackendOptions())


def test_key_file_is_used(scripted_server: MakeServer, tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text(PLANTED + "\n")
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    complete(backend(server, api_key_file=str(key_file)))
    assert server.request_headers[0]["authorization"] == f"Bearer {PLANTED}"
    with pytest.raises(BackendError, match="cannot read api_key_file"):
        backend(server, api_key_file=str(tmp_path / "missing.txt"))


def test_cache_params_hold_only_output_affecting_options(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    a = backend(server).cache_params()
    b = backend(server, timeout_s=9, concurrency=1, max_retries=0).cache_params()
    assert a == b == {"backend": "openai", "model": "judge-model", "structured_output": "auto"}
    assert backend(server, structured_output="prompt").cache_params() != a
    assert backend(server, max_tokens=50).cache_params()["max_tokens"] == 50


def test_backend_works_across_event_loops(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    b = backend(server)
    assert complete(b, close=False).data["score"] == 4
    assert complete(b).data["score"] == 4  # a second asyncio.run: a fresh client


def test_base_url_query_becomes_default_params(scripted_server: MakeServer) -> None:
    server = scripted_server(lambda req, n: ScriptedReply.chat(GOOD))
    b = backend(server, base_url=server.base_url + "?api-version=2024-10-21")
    assert complete(b).data["score"] == 4
