"""RagasSuite.evaluate with an in-process judge: call plan, partial failure, edge inputs,
the offline mapping, and the real offline judge end to end."""

import asyncio

import numpy as np
import pytest

from ragassay.judge import Verdict
from ragassay.judge.offline import Evidence
from ragassay.metrics.base import SuiteOptions
from ragassay.metrics.ragas import RagasSuite
from ragassay.metrics.ragas.suite import offline_claims, offline_contexts
from ragassay.text import key_answer, key_sample
from ragassay.types import Sample, Usage
from tests.support.suites import score

REPLIES = {
    "ragas.claims": {"claims": [{"claim": "c1", "supported": True},
                                {"claim": "c2", "supported": True},
                                {"claim": "c3", "supported": False}]},
    "ragas.questions": {"questions": ["q1", "q2", "q3"], "noncommittal": False},
    "ragas.contexts": {"chunks": [{"index": 0, "useful": False}, {"index": 1, "useful": True}],
                       "reference_sentences": [{"key": "a", "attributed": True}]},
}


class FakeJudge:
    """Answers from `replies` by prompt name (a str is a failure reason); tracks overlap."""

    spec, kind, model = "fake", "llm", "fake"

    def __init__(self, replies=None):
        self.replies = {**REPLIES, **(replies or {})}
        self.asked = []
        self.in_flight = 0
        self.max_in_flight = 0

    async def ask(self, prompt, values):
        self.asked.append((prompt.name, dict(values)))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        out = self.replies[prompt.name]
        if isinstance(out, str):
            return Verdict(prompt.name, prompt.version, None, unscored_reason=out, raw="{bad",
                           messages=prompt.render(values), usage=Usage(calls=2))
        return Verdict(prompt.name, prompt.version, prompt.output_model.model_validate(out),
                       usage=Usage(calls=1, input_tokens=10))


class FakeEmbedder:
    name, dim = "fake", 2

    def __init__(self):
        self.calls = 0

    def embed(self, texts):
        self.calls += 1
        return np.array([[1.0, 0.0] if "q" in t.lower() else [0.0, 1.0] for t in texts],
                        dtype=np.float32)


def _sample(**kw):
    base = {"id": "s1", "question": "Q?", "contexts": ("Paris is big.", "Built in 1889."),
            "answer": "It was built in 1889.", "reference": "It was built in 1889."}
    base.update(kw)
    return Sample(**base)


def _run(sample, judge, **opts):
    opts.setdefault("embedder", FakeEmbedder())
    return score(RagasSuite(), sample, judge, **opts)


def _by_name(out):
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_three_concurrent_calls_give_all_four_metrics():
    judge = FakeJudge()
    out = _run(_sample(), judge)
    assert sorted(n for n, _ in judge.asked) == ["ragas.claims", "ragas.contexts",
                                                  "ragas.questions"]
    assert judge.max_in_flight == 3  # run concurrently
    res = _by_name(out)
    assert [r.name for r in out.result.results] == [
        "ragas.faithfulness", "ragas.answer_relevancy", "ragas.context_precision",
        "ragas.context_recall"]
    assert res["faithfulness"].value == pytest.approx(2 / 3)
    assert res["answer_relevancy"].value == pytest.approx(1.0)  # all "q" rows match "Q?"
    assert res["context_precision"].value == 0.5
    assert res["context_recall"].value == 1.0
    assert out.result.usage.calls == 3 and out.result.usage.input_tokens == 30
    values = dict(judge.asked)
    assert values["ragas.questions"]["n"] == "3"
    assert values["ragas.contexts"]["target"] == "a: It was built in 1889."
    assert values["ragas.contexts"]["target_kind"] == "EXPECTED answer"


def test_one_failed_call_unscores_only_its_metrics():
    judge = FakeJudge({"ragas.questions": "invalid reply: questions: no questions were written"})
    res = _by_name(_run(_sample(), judge))
    assert res["answer_relevancy"].value is None
    assert res["answer_relevancy"].unscored_reason.startswith("invalid reply")
    assert res["answer_relevancy"].failure.raw_reply == "{bad"
    assert res["faithfulness"].value is not None
    assert res["context_precision"].value is not None and res["context_recall"].value == 1.0

    judge = FakeJudge({"ragas.contexts": "judge call failed: HTTP 500"})
    res = _by_name(_run(_sample(), judge))
    assert res["context_precision"].unscored_reason == "judge call failed: HTTP 500"
    assert res["context_recall"].unscored_reason == "judge call failed: HTTP 500"
    assert res["faithfulness"].value is not None and res["answer_relevancy"].value is not None


def test_without_reference_precision_is_judged_against_the_answer():
    judge = FakeJudge()
    res = _by_name(_run(_sample(reference=None), judge))
    assert res["context_recall"].unscored_reason == "no reference answer"
    assert res["context_precision"].details["judged_against"] == "answer"
    values = dict(judge.asked)["ragas.contexts"]
    assert values["target_kind"] == "SYSTEM's answer"
    assert values["target"] == "a: It was built in 1889."


def test_no_contexts():
    judge = FakeJudge()
    res = _by_name(_run(_sample(contexts=()), judge))
    assert [n for n, _ in judge.asked] == ["ragas.questions"]
    for name in ("faithfulness", "context_precision", "context_recall"):
        assert res[name].unscored_reason == "no contexts"
    assert res["answer_relevancy"].value is not None


def test_empty_answer():
    judge = FakeJudge()
    res = _by_name(_run(_sample(answer="  "), judge))
    assert [n for n, _ in judge.asked] == ["ragas.contexts"]
    assert res["faithfulness"].unscored_reason == "empty answer"
    assert res["answer_relevancy"].unscored_reason == "empty answer"
    assert res["context_recall"].value == 1.0


def test_nothing_to_judge_makes_no_call():
    judge = FakeJudge()
    out = _run(_sample(contexts=(), answer="", reference=None), judge)
    assert judge.asked == [] and out.result.usage.calls == 0
    assert all(r.value is None and r.unscored_reason for r in out.result.results)
    assert not RagasSuite().applicable(_sample(contexts=(), answer=""))


def test_single_sentence_answer_and_huge_context():
    doc = "\n\n".join(["The tower stands in Paris and was built in 1889. " * 20] * 250)
    judge = FakeJudge()
    res = _by_name(_run(_sample(contexts=(doc, "second chunk"), answer="1889"), judge,
                        max_context_tokens=2000))
    shown = dict(judge.asked)["ragas.claims"]["contexts"]
    assert len(shown) < 2000 * 4 + 200 and "[1]" not in shown  # chunk 1 cut off
    assert all("contexts" in r.truncated for r in res.values())
    assert res["context_precision"].details["unknown_chunks"] == 1  # judged chunk 1, unseen
    assert res["context_precision"].value == 0.0
    assert res["faithfulness"].value == pytest.approx(2 / 3)


def test_default_embedder_is_only_loaded_when_questions_need_it(monkeypatch):
    import ragassay.metrics.ragas.suite as suite

    built = []
    emb = FakeEmbedder()
    monkeypatch.setattr(suite, "_embedder", None)
    monkeypatch.setattr("ragassay.embed.get_embedder",
                        lambda spec="local": built.append(spec) or emb)
    judge = FakeJudge({"ragas.questions": {"questions": [], "noncommittal": True}})
    score(RagasSuite(), _sample(), judge)
    assert built == []
    for _ in range(2):
        score(RagasSuite(), _sample(), FakeJudge())
    assert built == ["local"] and emb.calls == 2  # built once, cached at module level


def _evidence(sample, **kw):
    ans = key_answer(sample.answer)
    base = {"answer_sentences": ans, "support": [0.8] * len(ans),
            "support_keys": [["1a"]] * len(ans), "asserts": [True] * len(ans),
            "answer_relevance": 0.7, "noncommittal": False,
            "chunk_usefulness": [0.2, 0.9], "reference_attribution": [0.6]}
    base.update(kw)
    return Evidence(**base)


def test_offline_mappings():
    s = _sample(answer="It was built in 1889. It is 330 m tall.")
    ev = _evidence(s, support=[0.9, 0.2])
    claims = offline_claims(ev)
    assert [(c.supported, c.probability) for c in claims] == [(True, 0.9), (False, 0.2)]
    # filler / abstentions are no claims, unless the answer has nothing else
    filler = _sample(answer="Sure! It is 330 m tall.")
    ev_f = _evidence(filler, support=[1.0, 0.2], asserts=[False, True])
    claims = offline_claims(ev_f)
    assert [c.claim for c in claims] == ["It is 330 m tall."]
    only = _sample(answer="Sure! I don't know.")
    claims = offline_claims(_evidence(only, support=[1.0, 1.0], asserts=[False, False]))
    assert len(claims) == 2 and all(c.supported for c in claims)
    # ... and their label says why (a new-user trial saw "supported" next to "no
    # supporting sentence" for "I don't know.")
    assert all(c.reason.startswith("asserts nothing") for c in claims)
    ctx = offline_contexts(ev)
    assert [(c.key, c.value) for c in ctx.chunks] == [(0, False), (1, True)]
    assert ctx.reference[0].key == "a"
    # no answer relevance in the evidence: the metric is unscored, not invented
    res = _by_name(RagasSuite().evaluate_offline(key_sample(s), _evidence(
        s, answer_relevance=None), SuiteOptions()))
    assert res["answer_relevancy"].value is None

    res = _by_name(RagasSuite().evaluate_offline(key_sample(s), ev, SuiteOptions()))
    assert res["faithfulness"].value == pytest.approx(0.55)  # mean of 0.9 and 0.2
    assert res["faithfulness"].details["soft"] is True
    assert res["answer_relevancy"].value == 0.7
    assert res["context_precision"].value == pytest.approx(
        ((0.2 / 1) * 0.2 + (1.1 / 2) * 0.9) / 1.1)
    assert res["context_recall"].value == pytest.approx(0.6)


def test_with_the_real_offline_judge():
    from ragassay.judge.offline_judge import OfflineJudge

    s = Sample(id="e", question="When was the Eiffel Tower completed?",
               contexts=("The Eiffel Tower was completed in March 1889 for the World's Fair.",
                         "Paris hosts many tourists."),
               answer="The tower was completed in 1889. It is 330 metres tall.",
               reference="It was completed in 1889.")
    out = score(RagasSuite(), s, OfflineJudge())
    res = _by_name(out)
    assert all(r.value is not None and 0.0 <= r.value <= 1.0 for r in res.values())
    claims = res["faithfulness"].details["claims"]
    assert [c["supported"] for c in claims] == [True, False]


def test_an_embedder_that_cannot_load_unscores_relevancy_only(monkeypatch):
    import ragassay.metrics.ragas.suite as suite

    def unavailable(spec="local"):
        raise RuntimeError("model files missing")

    monkeypatch.setattr(suite, "_embedder", None)
    monkeypatch.setattr("ragassay.embed.get_embedder", unavailable)
    out = score(RagasSuite(), _sample(), FakeJudge())
    res = _by_name(out)
    assert res["answer_relevancy"].value is None
    assert "model files missing" in res["answer_relevancy"].unscored_reason
    assert res["faithfulness"].value is not None
