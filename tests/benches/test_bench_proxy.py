"""The benchmark proxy's accounting: what it forwards, tags and counts."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from benches.proxy import LoggingProxy, Record, prompt_tag, summarise, usage_of
from tests.support.scripted_server import ScriptedReply, ScriptedServer


def _chat(client: httpx.Client, base: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(f"{base}/v1/chat/completions", json=body)


def _handler(request: dict[str, Any], n: int) -> ScriptedReply:
    text = request["messages"][-1]["content"]
    if "fail" in text:
        return ScriptedReply.error(500, "boom")
    if "nousage" in text:
        return ScriptedReply.chat("{}", usage=None)
    return ScriptedReply.chat('{"ok": true}', usage=(100 + n, 10))


def test_proxy_forwards_and_counts_per_phase_and_prompt() -> None:
    with ScriptedServer(_handler) as upstream, \
            LoggingProxy(upstream.base_url.removesuffix("/v1"),
                         markers={"You check faithfulness": "claims"}) as proxy, \
            httpx.Client(timeout=10) as client:
        proxy.phase = "ours"
        schema_fmt = {"type": "json_schema", "json_schema": {"name": "ragas_claims",
                                                             "schema": {}}}
        r = _chat(client, proxy.base_url, {"model": "m", "response_format": schema_fmt,
                                           "messages": [{"role": "user", "content": "a"}]})
        assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"]
        _chat(client, proxy.base_url, {"model": "m", "messages": [
            {"role": "system", "content": "You check faithfulness of x"},
            {"role": "user", "content": "b"}]})
        proxy.phase = "theirs"
        assert _chat(client, proxy.base_url, {"model": "m", "messages": [
            {"role": "user", "content": "fail"}]}).status_code == 500
        _chat(client, proxy.base_url, {"model": "m", "messages": [
            {"role": "user", "content": "nousage"}]})
        assert client.get(f"{proxy.base_url}/v1/models").status_code == 200
        records = proxy.snapshot()
    assert upstream.count == 4
    assert [(r.phase, r.prompt, r.status) for r in records] == [
        ("ours", "ragas_claims", 200), ("ours", "claims", 200),
        ("theirs", "-", 500), ("theirs", "-", 200)]  # GET /models is not a call
    assert (records[0].prompt_tokens, records[0].completion_tokens) == (100, 10)
    assert (records[1].prompt_tokens, records[1].completion_tokens) == (101, 10)
    by_phase = summarise(records)
    assert (by_phase["ours"].calls, by_phase["ours"].prompt_tokens,
            by_phase["ours"].completion_tokens, by_phase["ours"].failed) == (2, 201, 20, 0)
    assert (by_phase["theirs"].calls, by_phase["theirs"].failed,
            by_phase["theirs"].no_usage, by_phase["theirs"].tokens) == (2, 1, 1, 0)
    total = by_phase["ours"] + by_phase["theirs"]
    assert (total.calls, total.tokens, total.failed) == (4, 221, 1)


def test_proxy_answers_embeddings_locally_and_reports_dead_upstream() -> None:
    def embed(texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 1.0] for t in texts]

    with LoggingProxy("http://127.0.0.1:9", embed=embed, timeout_s=2) as proxy, \
            httpx.Client(timeout=10) as client:
        r = client.post(f"{proxy.base_url}/v1/embeddings", json={"input": ["abc", "de"]})
        assert [d["embedding"] for d in r.json()["data"]] == [[3.0, 1.0], [2.0, 1.0]]
        bad = _chat(client, proxy.base_url, {"model": "m", "messages": []})
        assert bad.status_code == 502
        records = proxy.snapshot()
    assert [r.path for r in records] == ["/v1/embeddings", "/v1/chat/completions"]
    chat = summarise(records)
    assert chat["-"].calls == 1 and chat["-"].failed == 1  # embeddings left out
    assert summarise(records, chat_only=False)["-"].calls == 2


def test_proxy_writes_one_json_line_per_call(tmp_path: Any) -> None:
    log = tmp_path / "calls.jsonl"
    with ScriptedServer(_handler) as upstream, \
            LoggingProxy(upstream.base_url.removesuffix("/v1"), log=log) as proxy, \
            httpx.Client(timeout=10) as client:
        proxy.phase = "p"
        for _ in range(3):
            _chat(client, proxy.base_url, {"model": "m", "messages": [
                {"role": "user", "content": "x"}]})
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(d["phase"], d["completion_tokens"]) for d in lines] == [("p", 10)] * 3


@pytest.mark.parametrize(("body", "tag"), [
    ({"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}, "x"),
    ({"response_format": {"type": "json_object"}, "messages": [
        {"role": "user", "content": "has MARK inside"}]}, "m"),
    ({"messages": [{"role": "user", "content": None}]}, "-"),
    ("not a dict", "-"),
])
def test_prompt_tag(body: Any, tag: str) -> None:
    assert prompt_tag(body, {"MARK": "m"}) == tag


def test_usage_of_tolerates_missing_or_odd_usage() -> None:
    assert usage_of({"usage": {"prompt_tokens": 3, "completion_tokens": 4}}) == (3, 4)
    assert usage_of({"usage": {"prompt_tokens": "3"}}) == (None, None)
    assert usage_of({}) == (None, None)
    assert usage_of(None) == (None, None)
    assert not Record("p", "-", "/x", 503, None, None, 0.0).ok
