"""The LiteLLM backend through LiteLLM's OpenAI-compatible route (`openai/<model>` with a
base URL) against the scripted server: the same judge layer as every backend (cache,
repair, policy retries and probing, usage, cost), failures classified; no network."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.dataset import demo_dataset_path, load_samples
from ragassay.extras import MissingExtra, installed
from ragassay.llm import BackendError, get_backend
from ragassay.llm.wire import JudgeRequest, Message
from ragassay.report import build_report
from ragassay.runner import evaluate
from ragassay.store import Store
from ragassay.types import BackendOptions, RunConfig
from tests.support.faults import judge_scores
from tests.support.scripted_server import ScriptedReply, ScriptedServer, error_body

# not importorskip: importing litellm here, before the backend sets it up, would let it
# fetch its price map from the network
pytestmark = pytest.mark.skipif(not installed("litellm"),
                                reason="the litellm extra (make test installs it)")

FAST = {"timeout_s": 5.0, "max_retries": 2, "backoff_base_s": 0.01, "backoff_max_s": 0.05}
SCHEMA = {"type": "object", "properties": {"score": {"type": "integer"}},
          "required": ["score"]}
REQUEST = JudgeRequest(messages=(Message(role="user", content="Rate this."),),
                       output_schema=SCHEMA)


def _backend(server: ScriptedServer, model: str = "openai/gpt-4o-mini", **kw: Any) -> Any:
    return get_backend(f"litellm:{model}", BackendOptions(base_url=server.base_url,
                                                          **{**FAST, **kw}))


def _verdicts(request: dict[str, Any], n: int) -> ScriptedReply:
    if n == 0:  # the first reply is unusable: the judge layer's repair re-asks once
        return ScriptedReply.chat("Sure, it looks fine to me.", usage=(120, 30))
    return ScriptedReply.chat(json.dumps(judge_scores(request)), usage=(120, 30))


def test_a_run_through_the_judge_layer_with_usage_cost_and_cache(
        scripted_server: Any, tmp_path: Path) -> None:
    server = scripted_server(_verdicts)
    samples = load_samples(demo_dataset_path())
    config = RunConfig(dataset="demo", judge="litellm:openai/gpt-4o-mini",
                       base_url=server.base_url, metrics=("judge",),
                       backend=BackendOptions(**FAST))
    with Store(tmp_path / "r.db") as store:
        stats = evaluate(samples, config, store=store)
        report = build_report(store, stats.run_id)
        assert server.count == 25 and not server.errors  # 24 samples, one repaired
        repairs = [r for r in server.requests
                   if "Your previous reply could not be used" in r["messages"][-1]["content"]]
        assert len(repairs) == 1
        usage = report.usage
        assert (usage.calls, usage.input_tokens, usage.output_tokens) == (
            25, 25 * 120, 25 * 30)  # the provider's counts, not estimates
        # LiteLLM's price of that usage (gpt-4o-mini: $0.15 / $0.60 per million tokens)
        assert usage.cost_usd == pytest.approx(25 * (120 * 0.15 + 30 * 0.60) / 1e6, rel=0.2)
        assert all(d.metrics["judge.context_relevance"] is not None for d in report.entries)
        asked = sorted(judge_scores(r)["context_relevance"] for r in server.requests[1:])
        scored = sorted(d.metrics["judge.context_relevance"] for d in report.entries)
        assert scored == [float(v) for v in asked]  # the scripted verdicts, through the suite
        assert report.run.judge == "litellm:openai/gpt-4o-mini"
        body = server.requests[0]
        assert body["model"] == "gpt-4o-mini" and body["response_format"]["type"] == "json_schema"
        assert body["seed"] == 0 and body["temperature"] == 0
        again = evaluate(samples, config, store=store)  # the judge-call cache
        assert server.count == 25
        assert build_report(store, again.run_id).usage.cache_hits == 24


def test_repair_retry_after_and_parameter_dropping(scripted_server: Any) -> None:
    def script(request: dict[str, Any], n: int) -> ScriptedReply:
        if n == 0:
            return ScriptedReply.error(429, "slow down", headers={"Retry-After": "0.05"})
        if "seed" in request:
            return ScriptedReply(status=400, body=error_body(
                "openai does not support parameters: ['seed']"))
        return ScriptedReply.chat('{"score": 4}')

    server = scripted_server(script)
    backend = _backend(server)
    reply = asyncio.run(backend.complete(REQUEST))
    assert reply.data == {"score": 4}
    assert backend.stats.rate_limited == 1 and backend.stats.retries == 1
    assert backend.stats.fallbacks == 1  # seed dropped once, for every later call
    assert "seed" in server.requests[1] and "seed" not in server.requests[2]
    asyncio.run(backend.complete(REQUEST))
    assert "seed" not in server.requests[3]


def test_structured_output_probe_falls_back_to_json_object(scripted_server: Any) -> None:
    def script(request: dict[str, Any], n: int) -> ScriptedReply:
        if request.get("response_format", {}).get("type") == "json_schema":
            return ScriptedReply(status=400, body=error_body(
                "response_format json_schema is not supported by this model"))
        return ScriptedReply.chat('{"score": 2}')

    server = scripted_server(script)
    backend = _backend(server)
    assert asyncio.run(backend.complete(REQUEST)).data == {"score": 2}
    assert backend.structured_output_mode == "json_object"
    last = server.requests[-1]
    assert last["response_format"] == {"type": "json_object"}
    assert "JSON schema" in last["messages"][-1]["content"]  # the schema, in the prompt


def test_failures_are_classified(scripted_server: Any) -> None:
    denied = scripted_server(lambda r, n: ScriptedReply.error(401, "bad key sk-secret1234567"))
    with pytest.raises(BackendError) as caught:
        asyncio.run(_backend(denied).complete(REQUEST))
    assert caught.value.status == 401 and caught.value.fatal
    assert "sk-secret" not in caught.value.reason
    assert denied.count == 1  # not retried
    busy = scripted_server(lambda r, n: ScriptedReply.error(503, "overloaded"))
    backend = _backend(busy, max_retries=1)
    with pytest.raises(BackendError) as caught:
        asyncio.run(backend.complete(JudgeRequest(messages=REQUEST.messages)))
    assert caught.value.status == 503 and "overloaded" in caught.value.reason
    assert busy.count == 2 and caught.value.stop  # retried once, then the run stops
    gone = get_backend("litellm:openai/x", BackendOptions(base_url="http://127.0.0.1:9/v1",
                                                           **FAST))
    with pytest.raises(BackendError) as caught:
        asyncio.run(gone.complete(REQUEST))
    assert caught.value.stop and "cannot connect" in caught.value.stop
    assert "no connection" in caught.value.stop


def test_headers_and_a_key_file_reach_the_server_and_never_show(
        scripted_server: Any, tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("sk-filekey-0123456789\n")
    server = scripted_server(lambda r, n: ScriptedReply.error(
        400, "request with Bearer sk-filekey-0123456789 and gw-secret-value refused"))
    backend = get_backend("litellm:openai/m", BackendOptions(
        base_url=server.base_url, api_key_file=str(key), max_retries=0,
        headers={"X-Gateway": "gw-secret-value"}))  # type: ignore[dict-item]
    with pytest.raises(BackendError) as caught:
        asyncio.run(backend.complete(JudgeRequest(messages=REQUEST.messages)))
    assert server.request_headers[0]["authorization"] == "Bearer sk-filekey-0123456789"
    assert server.request_headers[0]["x-gateway"] == "gw-secret-value"
    text = f"{caught.value.reason} {caught.value.detail} {backend!r}"
    assert "sk-filekey" not in text and "gw-secret" not in text and "***" in text


def test_no_model_and_the_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(BackendError, match="no model given"):
        get_backend("litellm:", BackendOptions())
    monkeypatch.setitem(sys.modules, "litellm", None)
    with pytest.raises(MissingExtra, match=r"pip install 'ragassay\[litellm\]'"):
        get_backend("litellm:anthropic/claude-3-5-haiku-latest", BackendOptions())
    result = CliRunner().invoke(cli, ["eval", str(demo_dataset_path()), "--judge",
                                      "litellm:anthropic/claude-3-5-haiku-latest",
                                      "--metrics", "judge", "--db", ":memory:"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: the LiteLLM judge backend needs the litellm extra: "
        "pip install 'ragassay[litellm]'"]
