"""Token probabilities over HTTP: asked for by the OpenAI backend, parsed, dropped by the
policy layer when the server refuses or ignores them; cached prompt tokens read from the
server's usage; a serial (in-process) backend's timeout covers the calls queued before."""

from __future__ import annotations

import json
import random
from typing import Any

from ragassay.llm import BackendOptions, Policy
from ragassay.llm.logprobs import read_soft_values, soft_fields
from ragassay.llm.openai_backend import OpenAIBackend
from ragassay.llm.wire import JudgeRequest, Message
from tests.llm.test_llm_openai_backend import complete
from tests.support.logprobs import logprobs_content
from tests.support.scripted_server import ScriptedReply, sequence

SCHEMA: dict[str, Any] = {"type": "object", "properties": {
    "score": {"type": "integer", "minimum": 1, "maximum": 10}, "ok": {"type": "boolean"}},
    "required": ["score", "ok"]}
TEXT = '{"score": 8, "ok": true}'


def request(top: int | None = 20) -> JudgeRequest:
    return JudgeRequest(messages=(Message(role="user", content="Rate it."),),
                        output_schema=SCHEMA, prompt_name="rate", top_logprobs=top)


def backend(server: Any) -> Policy:
    opts = BackendOptions(base_url=server.base_url, max_retries=1, backoff_base_s=0.0,
                          timeout_s=5, structured_output="json_schema")
    return Policy(OpenAIBackend("judge-model", opts), opts, rng=random.Random(0))


def with_logprobs() -> ScriptedReply:
    return ScriptedReply.chat(TEXT, logprobs=logprobs_content(
        TEXT, [{"8": 0.5, "9": 0.25, "7": 0.25}, {"true": 0.8, "false": 0.2}]))


def test_logprobs_are_requested_and_read(scripted_server: Any) -> None:
    server = scripted_server(sequence(with_logprobs()))
    reply = complete(backend(server), request())
    sent = server.requests[0]
    assert sent["logprobs"] is True and sent["top_logprobs"] == 20
    assert reply.logprobs is not None
    assert "".join(t.token for t in reply.logprobs) == TEXT
    soft, why = read_soft_values(reply.text, reply.logprobs, soft_fields(SCHEMA))
    assert why is None
    assert soft["score"].value == 0.5 * 8 + 0.25 * 9 + 0.25 * 7
    assert soft["ok"].value == 0.8


def test_no_logprobs_asked_without_top_logprobs(scripted_server: Any) -> None:
    server = scripted_server(sequence(ScriptedReply.chat(TEXT)))
    reply = complete(backend(server), request(top=None))
    assert "logprobs" not in server.requests[0] and "top_logprobs" not in server.requests[0]
    assert reply.logprobs is None


def test_a_server_that_rejects_logprobs_is_asked_without(scripted_server: Any) -> None:
    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        if req.get("logprobs"):
            return ScriptedReply.error(400, "logprobs is not supported by this model")
        return ScriptedReply.chat(TEXT)

    server = scripted_server(handler)
    b = backend(server)
    assert complete(b, request(), close=False).data == {"score": 8, "ok": True}
    assert complete(b, request()).logprobs is None
    assert [bool(r.get("logprobs")) for r in server.requests] == [True, False, False]


def test_llama_cpp_without_logits_all_500_drops_logprobs(scripted_server: Any) -> None:
    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        if req.get("logprobs"):
            return ScriptedReply.error(
                500, "logprobs is not supported for models created with logits_all=False")
        return ScriptedReply.chat(TEXT)

    server = scripted_server(handler)
    reply = complete(backend(server), request())
    assert reply.data == {"score": 8, "ok": True}
    assert [bool(r.get("logprobs")) for r in server.requests] == [True, False]


def test_a_server_that_ignores_logprobs_is_asked_once(scripted_server: Any) -> None:
    server = scripted_server(sequence(ScriptedReply.chat(TEXT)))
    b = backend(server)
    for _ in range(3):
        assert complete(b, request(), close=False).logprobs is None
    assert [bool(r.get("logprobs")) for r in server.requests] == [True, False, False]


def test_cached_prompt_tokens_come_from_the_usage(scripted_server: Any) -> None:
    server = scripted_server(sequence(ScriptedReply.chat(TEXT, usage=(120, 9),
                                                         cached_tokens=96)))
    usage = complete(backend(server), request()).usage
    assert (usage.input_tokens, usage.cached_tokens) == (120, 96)
    server2 = scripted_server(sequence(ScriptedReply.chat(TEXT)))
    assert complete(backend(server2), request()).usage.cached_tokens == 0


def test_malformed_logprobs_are_ignored(scripted_server: Any) -> None:
    body = ScriptedReply.chat(TEXT).body
    body["choices"][0]["logprobs"] = {"content": [{"token": "x"}]}  # no logprob
    server = scripted_server(sequence(ScriptedReply(body=body)))
    reply = complete(backend(server), request())
    assert reply.logprobs is None and json.loads(reply.text)["score"] == 8


class _Serial:
    name, model, serial = "fake", "m", True

    async def complete(self, request: JudgeRequest) -> Any:
        raise AssertionError("not called")

    def cache_params(self) -> dict[str, Any]:
        return {}


def test_a_serial_backends_timeout_grows_with_the_calls_in_flight() -> None:
    opts = BackendOptions(timeout_s=30, concurrency=4)
    serial = Policy(_Serial(), opts)
    assert serial.serial and serial._timeout() == 30
    serial.limiter.in_flight = 3  # three calls hold slots: the last waits for two others
    assert serial._timeout() == 90
    plain = Policy(OpenAIBackend("m", opts.model_copy(update={"base_url": "http://x"})), opts)
    plain.limiter.in_flight = 3
    assert not plain.serial and plain._timeout() == 30
