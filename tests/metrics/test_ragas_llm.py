"""The ragas suite against a scripted OpenAI-compatible server through the real LLM judge:
parsing, the call budget (at most 3 requests per sample), partial failure and repair."""

import asyncio
import json

import numpy as np
import pytest

from ragassay.judge.llm_judge import LLMJudge
from ragassay.llm import BackendOptions, get_backend
from ragassay.metrics.base import SuiteOptions
from ragassay.metrics.ragas import RagasSuite
from ragassay.text import key_sample
from ragassay.types import Sample
from tests.support.scripted_server import ScriptedReply

GOOD = {
    "claims": {"claims": [
        {"claim": "The tower was completed in 1889.", "supported": True, "reason": "chunk 1"},
        {"claim": "Gustave Eiffel's firm designed it.", "supported": True, "reason": "chunk 1"},
        {"claim": "It is 330 metres tall.", "supported": False, "reason": "no height"}]},
    "questions": {"questions": ["When was the tower completed?", "Who designed the tower?",
                                "How tall is the tower?"], "noncommittal": False},
    "contexts": {"chunks": [{"index": 0, "useful": False}, {"index": 1, "useful": True}],
                 "reference_sentences": [{"key": "a", "attributed": True},
                                         {"key": "b", "attributed": False}]},
}


def kind(request):
    system = request["messages"][0]["content"]
    if "atomic claims" in system:
        return "claims"
    if "Write" in system and "questions" in system:
        return "questions"
    if "context precision" in system:
        return "contexts"
    raise AssertionError(f"unexpected prompt: {system[:80]}")


class Embedder:
    """Deterministic bag-of-words rows, so cosines are computable by hand."""

    name, dim = "bow", 64

    def embed(self, texts):
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().strip("?.").split():
                rows[i, sum(map(ord, w)) % self.dim] += 1.0
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


SAMPLE = Sample(
    id="s1", question="When was the tower completed?",
    contexts=("Paris hosts many tourists.",
              "The tower was completed in 1889 by Gustave Eiffel's firm."),
    answer="The tower was completed in 1889 by Gustave Eiffel's firm. It is 330 metres tall.",
    reference="It was completed in 1889. It was painted red.")


def evaluate(base_url, samples=(SAMPLE,)):
    async def go():
        backend = get_backend("openai:scripted-model", BackendOptions(
            base_url=base_url, max_retries=0, timeout_s=10))
        judge = LLMJudge(backend)
        try:
            suite, opts = RagasSuite(), SuiteOptions(embedder=Embedder())
            return await asyncio.gather(*(suite.evaluate(key_sample(s), judge, opts)
                                          for s in samples))
        finally:
            await judge.aclose()

    return asyncio.run(go())


def by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def script(replies):
    """Replies by prompt kind; a list is served in order per kind (the last repeats)."""
    seen = {}

    def handler(request, n):
        k = kind(request)
        seq = replies[k] if isinstance(replies[k], list) else [replies[k]]
        i = seen.get(k, 0)
        seen[k] = i + 1
        item = seq[min(i, len(seq) - 1)]
        if isinstance(item, ScriptedReply):
            return item
        return ScriptedReply.chat(item if isinstance(item, str) else json.dumps(item))

    return handler


def test_all_four_metrics_within_three_requests_per_sample(scripted_server):
    server = scripted_server(script(GOOD))
    samples = [SAMPLE, SAMPLE.model_copy(update={"id": "s2"})]
    outs = evaluate(server.base_url, samples)
    assert server.count == 6  # 3 per sample
    assert sorted(kind(r) for r in server.requests) == ["claims"] * 2 + ["contexts"] * 2 + [
        "questions"] * 2
    res = by_name(outs[0])
    assert res["faithfulness"].value == pytest.approx(0.6667, abs=1e-4)
    assert res["context_precision"].value == 0.5
    assert res["context_recall"].value == 0.5
    assert res["context_recall"].details["unattributed"] == [
        {"key": "b", "text": "It was painted red."}]
    emb = Embedder()
    rows = emb.embed([SAMPLE.question, *GOOD["questions"]["questions"]])
    expected = float(np.mean(rows[1:] @ rows[0]))
    assert res["answer_relevancy"].value == pytest.approx(expected, rel=1e-5)
    assert 0.0 < expected < 1.0
    assert outs[0].result.usage.calls == 3
    assert len(outs[0].calls) == 3
    # untrusted text reaches the server fenced
    claims_req = next(r for r in server.requests if kind(r) == "claims")
    assert "<<<ANSWER " in claims_req["messages"][-1]["content"]


def test_a_call_that_fails_after_repair_unscores_only_its_metrics(scripted_server):
    server = scripted_server(script({**GOOD, "questions": '{"questions": "", "noncommittal": 7}'}))
    (out,) = evaluate(server.base_url)
    assert server.count == 4  # the questions call was asked again once
    res = by_name(out)
    assert res["answer_relevancy"].value is None
    assert res["answer_relevancy"].unscored_reason.startswith("invalid reply")
    assert res["answer_relevancy"].failure.raw_reply == '{"questions": "", "noncommittal": 7}'
    assert res["answer_relevancy"].failure.prompt[0].role == "system"
    for name in ("faithfulness", "context_precision", "context_recall"):
        assert res[name].value is not None


def test_a_server_error_unscores_only_the_context_metrics(scripted_server):
    server = scripted_server(script({**GOOD, "contexts": ScriptedReply.error(400, "bad")}))
    res = by_name(evaluate(server.base_url)[0])
    assert res["context_precision"].value is None and res["context_recall"].value is None
    assert res["context_precision"].unscored_reason.startswith("judge call failed")
    assert res["faithfulness"].value is not None and res["answer_relevancy"].value is not None


def test_a_repaired_reply_is_scored(scripted_server):
    server = scripted_server(script({**GOOD, "claims": ["not json at all", GOOD["claims"]]}))
    (out,) = evaluate(server.base_url)
    assert server.count == 4
    repair = [r for r in server.requests if kind(r) == "claims"][1]
    assert "could not be used" in repair["messages"][-1]["content"]
    assert by_name(out)["faithfulness"].value == pytest.approx(2 / 3)
    assert out.result.usage.calls == 4


def test_lenient_replies_parse(scripted_server):
    replies = {
        "claims": '```json\n{"claims": [{"claim": "x", "supported": "yes"}, '
                  '{"claim": "y", "supported": "no", "extra": 1}]}\n```',
        "questions": {"questions": "When was the tower completed?", "noncommittal": "false"},
        "contexts": {"chunks": [{"index": "[1]", "useful": "true"}, {"index": "0", "useful": 0}],
                     "reference_sentences": [{"key": "A.", "attributed": 1}]},
    }
    server = scripted_server(script(replies))
    res = by_name(evaluate(server.base_url)[0])
    assert server.count == 3
    assert res["faithfulness"].value == 0.5
    assert res["answer_relevancy"].value == pytest.approx(1.0)  # same words as the question
    assert res["context_precision"].value == 0.5
    assert res["context_recall"].value == 1.0 and res["context_recall"].details["unjudged"] == [
        "b"]
