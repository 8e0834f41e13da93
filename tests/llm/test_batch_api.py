"""OpenAI's batch API client: splitting at the provider's limits, a line's body is the
direct call's body, output and error lines read back, the batch price."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragassay.llm.batch import Chunker, Limits, read_jsonl, split_sizes
from ragassay.llm.openai_backend import OpenAIBackend
from ragassay.llm.openai_batches import LIMITS, OpenAIBatches
from ragassay.llm.pricing import batch_price
from ragassay.llm.wire import JudgeRequest, Message
from ragassay.types import BackendOptions, Price

OPTIONS = BackendOptions(base_url="http://127.0.0.1:9/v1")


def _request(i: int, pad: int = 0) -> JudgeRequest:
    return JudgeRequest(messages=(Message(role="system", content="Grade it."),
                                  Message(role="user", content=f"Question {i}?" + "x" * pad)),
                        output_schema={"type": "object", "properties": {"a": {"type": "integer"}}},
                        max_tokens=300, prompt_name="judge.scores", prompt_version="1",
                        top_logprobs=5)


def test_the_size_limit_cuts_batches_too() -> None:
    assert split_sizes([4_100] * 120_000, LIMITS) == [48_780, 48_780, 22_440]
    assert split_sizes([4_000] * 120_000, LIMITS) == [50_000, 50_000, 20_000]
    assert split_sizes([60, 50, 10, 90], Limits(requests=10, bytes=100)) == [1, 2, 1]
    assert split_sizes([], LIMITS) == []
    with pytest.raises(ValueError, match="over the batch limit"):
        Chunker(Limits(requests=10, bytes=100)).add(101)


def test_a_line_is_the_body_of_the_direct_call() -> None:
    provider = OpenAIBatches("gpt-4o-mini", OPTIONS)
    request = _request(1).model_copy(update={"structured_output": "json_schema"})
    line = json.loads(provider.line("abc", _request(1)))
    assert line == {"custom_id": "abc", "method": "POST", "url": "/v1/chat/completions",
                    "body": OpenAIBackend("gpt-4o-mini", OPTIONS).request_body(request)}
    assert line["body"]["response_format"]["type"] == "json_schema"
    assert line["body"]["logprobs"] is True and line["body"]["max_tokens"] == 300
    prompt = OpenAIBatches("m", OPTIONS.model_copy(update={"structured_output": "prompt"}))
    assert "response_format" not in json.loads(prompt.line("k", _request(1)))["body"]


def test_output_and_error_lines_are_read_back(tmp_path: Path) -> None:
    provider = OpenAIBatches("gpt-4o-mini", BackendOptions(
        base_url="http://127.0.0.1:9/v1", headers={"x-token": "SECRET-TOKEN-123"}))
    body = {"choices": [{"message": {"content": '{"a": 3}'}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 9,
                      "prompt_tokens_details": {"cached_tokens": 100}}}
    rows = [
        {"custom_id": "ok", "response": {"status_code": 200, "body": body}, "error": None},
        {"custom_id": "bad", "response": {"status_code": 429, "body": {"error": {
            "message": "rate limited for SECRET-TOKEN-123"}}}, "error": None},
        {"custom_id": "gone", "response": None, "error": {"code": "batch_expired",
                                                          "message": "the batch expired"}},
        {"custom_id": 7}, "not json", ["a", "list"],
    ]
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    found = {o.custom_id: o for o in provider.outcomes(path)}
    assert set(found) == {"ok", "bad", "gone"}
    assert found["ok"].ok and provider.usage(found["ok"].body) == (120, 9, 100)
    assert found["bad"].error == "HTTP 429: rate limited for ***"
    assert found["gone"].error == "batch line failed: the batch expired"
    reply = provider.reply(found["ok"].body, _request(1))
    assert reply.data == {"a": 3} and reply.usage.cached_tokens == 100
    assert provider.usage({"no": "usage"}) == (0, 0, 0)


def test_an_overlong_line_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import ragassay.llm.batch as batch

    monkeypatch.setattr(batch, "MAX_LINE_BYTES", 50)
    path = tmp_path / "lines.jsonl"
    path.write_text(json.dumps({"custom_id": "x" * 80}) + "\n" + json.dumps({"custom_id": "y"})
                    + "\n")
    assert list(read_jsonl(path)) == [{"custom_id": "y"}]


def test_the_batch_price_is_the_table_s_else_half() -> None:
    given = Price(input=2, output=8, cached_input=1)
    half, why = batch_price("openai:any-model", given)
    assert (half, why) == (Price(input=1, output=4, cached_input=0.5),
                           "half of --price-in/--price-out")
    assert batch_price("offline")[0] == Price(input=0, output=0)
    unknown, why = batch_price("openai:no-such-model-xyz")
    assert unknown is None and "no price for no-such-model-xyz" in why


def test_the_batch_price_comes_from_litellm_s_table_where_it_has_one() -> None:
    pytest.importorskip("litellm")
    price, why = batch_price("openai:gpt-4o-mini")
    assert why == "LiteLLM's batch price table"
    assert (price.input, price.output) == pytest.approx((0.075, 0.30))
