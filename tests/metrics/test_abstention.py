"""Abstention as an outcome in every answer-scoring suite: an answer that declines is
abstained on the answer metrics (no value, not unscored), correct when the contexts do not
hold the answer and false when they do, and the offline judge and an LLM judge (a
scripted server) reach the same outcome for the same answer."""

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.judge.llm_judge import LLMJudge
from ragassay.llm import BackendOptions, get_backend
from ragassay.metrics.judge import JudgeSuite
from ragassay.metrics.ragas import RagasSuite
from ragassay.metrics.trace import TraceSuite
from ragassay.types import Sample
from tests.support.scripted_server import ScriptedReply
from tests.support.suites import ascore, score

QUESTION = "How long do refunds take?"
ANSWER = "I don't know. The context does not mention refund times."
HOLDS = Sample(id="holds", question=QUESTION, answer=ANSWER, reference="Within 30 days.",
               contexts=("Refunds are issued within 30 days of approval.",))
LACKS = HOLDS.model_copy(update={"id": "lacks", "contexts": ("Shipping is free over $50.",)})
HEDGED = HOLDS.model_copy(update={"id": "hedged",
                                  "answer": "I'm not sure, but refunds take 45 days."})
ANSWER_METRICS = {
    "judge": {"judge.answer_similarity", "judge.faithfulness", "judge.hallucination",
              "judge.overall"},
    "ragas": {"ragas.faithfulness", "ragas.answer_relevancy"},
    "trace": {"trace.adherence", "trace.adherence_ratio", "trace.context_utilization",
              "trace.completeness"},
}
SUITES = {"judge": JudgeSuite, "ragas": RagasSuite, "trace": TraceSuite}


def outcomes(out):
    return {r.name: r.abstention for r in out.result.results}


@pytest.mark.parametrize("suite", list(SUITES))
@pytest.mark.parametrize(("sample", "expected"), [(HOLDS, "false"), (LACKS, "correct")])
def test_offline_abstention_outcomes(suite, sample, expected):
    out = score(SUITES[suite](), sample)
    got = outcomes(out)
    for r in out.result.results:
        if r.name in ANSWER_METRICS[suite] and got[r.name] is not None:
            assert r.value is None and r.unscored_reason is None and r.status == "abstained"
    assert {n for n, o in got.items() if o == expected} == ANSWER_METRICS[suite]
    # what needs no answer stays scored
    assert all(r.status == "scored" for r in out.result.results
               if r.name.endswith(("context_relevance", "context_precision")))


@pytest.mark.parametrize("suite", list(SUITES))
def test_a_hedged_claim_is_no_abstention(suite):
    out = score(SUITES[suite](), HEDGED)
    assert not any(outcomes(out).values())


def _llm_reply(system: str, holds: bool) -> dict:
    """What a careful LLM judge says about the abstaining answer, by prompt."""
    if '"context_has_answer"' in system:  # judge.scores
        return {"faithfulness": 10, "hallucination": False, "context_relevance": 9 if holds
                else 2, "answer_similarity": 1, "abstains": True,
                "context_has_answer": holds, "reasoning": "declines"}
    if '"relevant_keys"' in system:  # trace.labels
        return {"relevant_keys": ["0a"] if holds else [], "utilized_keys": [],
                "sentences": [{"key": "a", "supported": True}, {"key": "b", "supported": True}],
                "overall_supported": True, "abstains": True}
    if '"noncommittal"' in system:  # ragas.questions
        return {"questions": [], "noncommittal": True}
    if '"chunks"' in system:  # ragas.contexts
        return {"chunks": [{"index": 0, "useful": holds}],
                "reference_sentences": [{"key": "a", "attributed": holds}]}
    return {"claims": []}  # ragas.claims: an abstention states no claim


def _handler(req, n):
    system = req["messages"][0]["content"]
    user = req["messages"][-1]["content"]
    return ScriptedReply.chat(json.dumps(_llm_reply(system, "Refunds are issued" in user)))


def _llm(base_url, suite, sample):
    async def go():
        backend = get_backend("openai:scripted-model", BackendOptions(
            base_url=base_url, max_retries=0, timeout_s=10))
        judge = LLMJudge(backend)
        try:
            return await ascore(SUITES[suite](), sample, judge)
        finally:
            await judge.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("suite", list(SUITES))
@pytest.mark.parametrize("sample", [HOLDS, LACKS])
def test_offline_and_llm_judges_agree(scripted_server, suite, sample):
    server = scripted_server(_handler)
    llm = {n: o for n, o in outcomes(_llm(server.base_url, suite, sample)).items() if o}
    offline = {n: o for n, o in outcomes(score(SUITES[suite](), sample)).items() if o}
    assert set(llm.values()) == set(offline.values()) == {
        "false" if sample is HOLDS else "correct"}
    assert set(offline) <= set(llm) <= ANSWER_METRICS[suite]


def _eval(tmp_path: Path, *extra: str) -> dict:
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps(s.model_dump(include={"id", "question", "contexts",
                                                             "answer", "reference"})) + "\n"
                            for s in (HOLDS, LACKS, HEDGED)))
    out = tmp_path / f"r{len(extra)}.json"
    result = CliRunner().invoke(cli, ["eval", "-v", str(data), "--metrics", "judge", "--db",
                                      str(tmp_path / "r.db"), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    assert "abstentions per strategy" in result.output
    return json.loads(out.read_text())


def test_reports_carry_the_same_rates_under_both_judges(scripted_server, tmp_path):
    server = scripted_server(lambda req, n: _handler(req, n) if "declin" not in
                             req["messages"][-1]["content"] and "45 days" not in
                             req["messages"][-1]["content"] else ScriptedReply.chat(json.dumps(
                                 {"faithfulness": 2, "hallucination": True,
                                  "context_relevance": 9, "answer_similarity": 2,
                                  "abstains": False, "context_has_answer": True,
                                  "reasoning": "45 is wrong"})))
    offline = _eval(tmp_path)
    llm = _eval(tmp_path, "--judge", "openai:x", "--base-url", server.base_url)
    for report in (offline, llm):
        [rates] = report["abstentions"].values()
        assert (rates["samples"], rates["abstained"], rates["correct"], rates["false"]) == \
            (3, 2, 1, 1)
        assert rates["false_abstention_rate"]["mean"] == pytest.approx(1 / 3, abs=1e-3)
        agg = report["aggregate_metrics"]["metrics"]["judge.faithfulness"]
        assert agg["count"] == 1 and agg["abstained"] == 2 and agg["unscored"] == 0
        rows = {r["id"]: r for r in report["detailed_results"]}
        assert rows["holds"]["abstained"]["judge.faithfulness"] == "false"
        assert "abstained" not in rows["hedged"]
