"""The citations suite through the real LLM judge against a scripted server: one request
per sample with only the cited passages, quotes decided without a call, the ALCE rules
on the reply, and a failed call unscoring only what needs the judge."""

import asyncio
import json

from ragassay.judge.llm_judge import LLMJudge
from ragassay.llm import BackendOptions, get_backend
from ragassay.metrics.citations import CitationsSuite
from ragassay.types import Sample
from tests.support.scripted_server import ScriptedReply, sequence
from tests.support.suites import ascore

CTX = ("Refunds are issued to the original payment method within 30 days of approval.",
       "Shipping is free on orders over $50; smaller orders pay a flat $5 fee.",
       "Gift cards cannot be refunded or exchanged for cash.")
SAMPLE = Sample(id="c1", question="How do refunds and shipping work?", contexts=CTX,
                answer="You get your money back within a month [1, 2]. Orders over $50 ship "
                       "free [3]. Express takes two days [7]. Hope this helps!")
REPLY = {"sentences": [
    {"key": "a", "needs_citation": True, "supported": True,
     "citations": [{"passage": 1, "relevant": True}, {"passage": 2, "relevant": False}]},
    {"key": "b", "needs_citation": True, "supported": False,
     "citations": [{"passage": "[3]", "relevant": "no"}]},
    {"key": "c", "needs_citation": True, "supported": False, "citations": []},
    {"key": "d", "needs_citation": False, "supported": False, "citations": []}]}


def evaluate(base_url, sample=SAMPLE):
    async def go():
        backend = get_backend("openai:scripted-model", BackendOptions(
            base_url=base_url, max_retries=0, timeout_s=10))
        judge = LLMJudge(backend)
        try:
            return await ascore(CitationsSuite(), sample, judge)
        finally:
            await judge.aclose()

    return asyncio.run(go())


def by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_one_batched_request_per_sample(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(REPLY))))
    res = by_name(evaluate(server.base_url))
    assert server.count == 1
    user = server.requests[0]["messages"][-1]["content"]
    assert "a: You get your money back within a month. (cites [1], [2])" in user
    assert "c: Express takes two days. (cites nothing)" in user  # [7] points at nothing
    assert "[3] Gift cards cannot be refunded" in user
    assert res["recall"].value == 1 / 3  # a supported; b unsupported; c fabricated only
    assert res["recall"].details["needing"] == 3
    assert res["precision"].value == 1 / 4  # [1] of a; [2] irrelevant, [3] no, [7] nothing
    assert res["fabricated"].value == 1 / 4


def test_only_cited_passages_are_shown(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps({"sentences": [
        {"key": "a", "needs_citation": True, "supported": True,
         "citations": [{"passage": 2, "relevant": True}]}]}))))
    res = by_name(evaluate(server.base_url, SAMPLE.model_copy(update={
        "answer": "Small orders pay five dollars to ship [2]."})))
    user = server.requests[0]["messages"][-1]["content"]
    assert "[2] Shipping is free" in user
    assert "Refunds are issued" not in user and "Gift cards" not in user
    assert res["recall"].value == 1.0 and res["precision"].value == 1.0


def test_quotes_are_decided_without_a_call(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(REPLY))))
    res = by_name(evaluate(server.base_url, SAMPLE.model_copy(update={
        "answer": "Gift cards cannot be refunded or exchanged for cash [3]."})))
    assert server.count == 0
    assert res["recall"].value == 1.0 and res["precision"].value == 1.0
    assert res["recall"].details["judge_calls"] == 0


def test_a_sentence_the_judge_left_out_is_unjudged(scripted_server):
    reply = {"sentences": [REPLY["sentences"][0]]}
    server = scripted_server(sequence(ScriptedReply.chat(json.dumps(reply))))
    res = by_name(evaluate(server.base_url))
    assert res["recall"].value == 1.0 and res["recall"].details["needing"] == 1
    decided = [r["decided_by"] for r in res["recall"].details["sentences"]]
    assert decided == ["judge", "unjudged", "unjudged", "unjudged"]


def test_failed_call_unscores_what_needs_the_judge(scripted_server):
    server = scripted_server(sequence(ScriptedReply.chat("not json"),
                                      ScriptedReply.chat("still not json")))
    res = by_name(evaluate(server.base_url))
    assert res["recall"].value is None and res["precision"].value is None
    assert res["recall"].unscored_reason and res["recall"].unscored_reason != "no verdict"
    assert res["fabricated"].value == 1 / 4  # needs no judge
