"""The trace suite against a scripted OpenAI-compatible server through the real LLM judge:
one request per sample, parsing of the labels, repair and failure."""

import asyncio
import json

import pytest

from ragassay.judge.llm_judge import LLMJudge
from ragassay.llm import BackendOptions, get_backend
from ragassay.metrics.trace import TraceSuite
from ragassay.types import Sample
from tests.support.scripted_server import ScriptedReply, sequence
from tests.support.suites import ascore

SAMPLE = Sample(
    id="t1", question="When was the tower completed?",
    contexts=("The tower was completed in 1889. It was designed by Eiffel's firm.",
              "Paris hosts many tourists."),
    answer="The tower was completed in 1889. It is 330 metres tall.")

LABELS = {"relevant_keys": ["0a", "0b"], "utilized_keys": ["0a"], "overall_supported": False,
          "sentences": [{"key": "a", "supported": True, "supporting_keys": ["0a"]},
                        {"key": "b", "supported": False, "supporting_keys": []}]}


def evaluate(base_url, sample=SAMPLE, **opts):
    async def go():
        backend = get_backend("openai:scripted-model", BackendOptions(
            base_url=base_url, max_retries=0, timeout_s=10))
        judge = LLMJudge(backend)
        try:
            return await ascore(TraceSuite(), sample, judge, **opts)
        finally:
            await judge.aclose()

    return asyncio.run(go())


def by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_one_request_labels_every_metric(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(LABELS))))
    out = evaluate(server.base_url)
    assert server.count == 1
    user = server.requests[0]["messages"][-1]["content"]
    assert "0a: The tower was completed in 1889.\n0b: It was designed by Eiffel's firm." in user
    assert "\n\n1a: Paris hosts many tourists." in user
    assert "a: The tower was completed in 1889.\nb: It is 330 metres tall." in user
    res = by_name(out)
    l0a, l0b, l1a = (len("The tower was completed in 1889."),
                     len("It was designed by Eiffel's firm."), len("Paris hosts many tourists."))
    total = l0a + l0b + l1a
    assert res["context_relevance"].value == pytest.approx((l0a + l0b) / total)
    assert res["context_utilization"].value == pytest.approx(l0a / total)
    assert res["completeness"].value == pytest.approx(l0a / (l0a + l0b))
    assert res["adherence"].value == 0.0 and res["adherence_ratio"].value == 0.5
    assert out.result.usage.calls == 1 and len(out.calls) == 1


def test_decorated_keys_and_hallucinated_keys(scripted_server):
    reply = {"relevant_keys": "[0A], 0b, 5c", "utilized_keys": ["0a"],
             "overall_supported": "no",
             "sentences": [{"key": "A", "supported": "yes"}, {"key": "z", "supported": True}]}
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(reply))))
    res = by_name(evaluate(server.base_url))
    assert res["context_relevance"].marks.relevant == ("0a", "0b")
    assert res["context_relevance"].details["unknown_keys"] == 2  # 5c and answer key z
    assert res["adherence_ratio"].value == 1.0
    assert res["adherence_ratio"].details["unjudged"] == ["b"]
    assert res["adherence"].value == 0.0  # overall_supported "no" decides for b


def test_invalid_then_repaired(scripted_server):
    server = scripted_server(sequence(
        ScriptedReply.chat('{"relevant_keys": ["0a"]}'),  # overall_supported missing
        ScriptedReply.chat(json.dumps(LABELS))))
    out = evaluate(server.base_url)
    assert server.count == 2
    assert "overall_supported" in server.requests[1]["messages"][-1]["content"]
    assert by_name(out)["adherence_ratio"].value == 0.5
    assert out.result.usage.calls == 2


def test_invalid_twice_is_unscored_with_the_raw_reply(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat("I think it is fine.")))
    out = evaluate(server.base_url)
    assert server.count == 2
    for r in out.result.results:
        assert r.value is None and r.unscored_reason.startswith("unparseable reply")
        assert r.failure.raw_reply == "I think it is fine."


def test_huge_context_request_stays_within_budget(scripted_server):
    para = " ".join(f"Fact {i} is about the tower." for i in range(25))
    doc = "\n\n".join([para] * 300)  # about 50k tokens
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(
        {"relevant_keys": ["0a"], "overall_supported": True,
         "sentences": [{"key": "a", "supported": True}]}))))
    out = evaluate(server.base_url, SAMPLE.model_copy(update={
        "contexts": (doc,), "answer": "Fact 0 is about the tower."}), max_context_tokens=3000)
    user = server.requests[0]["messages"][-1]["content"]
    assert len(user) < 3000 * 4 + 1000
    res = by_name(out)
    assert res["adherence"].value == 1.0
    assert "contexts" in res["context_relevance"].truncated
