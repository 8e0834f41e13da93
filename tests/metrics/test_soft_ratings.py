"""Probability-weighted ratings end to end: scripted server with logprobs -> LLM judge ->
suites. Expected ratings replace stated ones, P(supported) makes the ratios soft, the
cache keeps the readings, and the mode is recorded."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from ragassay.judge.llm_judge import LLMJudge
from ragassay.llm import BackendOptions, get_backend
from ragassay.metrics.base import SuiteOptions
from ragassay.metrics.judge import JudgeSuite
from ragassay.metrics.ragas.suite import RagasSuite
from ragassay.metrics.trace import TraceSuite
from ragassay.store import Store
from ragassay.text import key_sample
from ragassay.types import Sample
from tests.support.logprobs import logprobs_content
from tests.support.scripted_server import ScriptedReply, sequence

SAMPLE = Sample(id="s1", question="When was the tower completed?",
                contexts=("The tower was completed in 1889. It was designed by Eiffel's firm.",),
                answer="The tower was completed in 1889. It is 330 metres tall.",
                reference="1889")
SCORES = ('{"context_relevance": 9, "answer_similarity": 10, "faithfulness": 7, '
          '"hallucination": true, "reasoning": "The height is not in the context."}')
# alternatives per value token, in order: 9 | 1 0 | 7 | true
SCORE_ALTS = [{"9": 0.5, "8": 0.5}, {"1": 0.9, "9": 0.1}, {"0": 1.0},
              {"7": 0.6, "3": 0.4}, {"true": 0.7, "false": 0.3}]


def scores_reply() -> ScriptedReply:
    return ScriptedReply.chat(SCORES, logprobs=logprobs_content(SCORES, SCORE_ALTS))


def run(suite: Any, base_url: str, *, ratings: str = "expected", store: Any = None) -> Any:
    async def go() -> Any:
        backend = get_backend("openai:scripted-model", BackendOptions(
            base_url=base_url, max_retries=0, timeout_s=10, structured_output="json_schema"))
        judge = LLMJudge(backend, cache=store, ratings=ratings)
        try:
            return await suite.evaluate(key_sample(SAMPLE), judge, SuiteOptions())
        finally:
            await judge.aclose()

    return asyncio.run(go())


def by_name(out: Any) -> dict[str, Any]:
    return {r.name.split(".", 1)[1]: r for r in out.result.results}


def test_judge_suite_uses_expected_ratings(scripted_server: Any) -> None:
    server = scripted_server(sequence(scores_reply()))
    res = by_name(run(JudgeSuite(), server.base_url))
    assert server.requests[0]["top_logprobs"] == 20
    faith = res["faithfulness"]
    assert faith.value == pytest.approx(0.6 * 7 + 0.4 * 3)
    assert faith.rating.stated == 7 and faith.rating.mode == "expected"
    assert faith.rating.distribution == pytest.approx({"3": 0.4, "7": 0.6})
    assert res["context_relevance"].value == pytest.approx(8.5)
    assert res["answer_similarity"].value == pytest.approx(0.9 * 10 + 0.1 * 9)
    hall = res["hallucination"]
    assert hall.value is True and hall.rating.p_true == pytest.approx(0.7)
    # overall from the expected ratings
    expected = (0.3 * 8.5 + 0.4 * 9.9 + 0.3 * 5.4) * 0.0
    assert res["overall"].value == pytest.approx(expected)


def test_greedy_mode_asks_for_nothing_and_keeps_the_stated_ratings(scripted_server: Any
                                                                   ) -> None:
    server = scripted_server(sequence(scores_reply()))
    res = by_name(run(JudgeSuite(), server.base_url, ratings="greedy"))
    assert "logprobs" not in server.requests[0]
    assert res["faithfulness"].value == 7
    assert res["faithfulness"].rating.mode == "greedy"
    assert "distribution" not in res["faithfulness"].details


def test_no_logprobs_from_the_server_falls_back_to_greedy_and_says_why(scripted_server: Any
                                                                       ) -> None:
    server = scripted_server(sequence(ScriptedReply.chat(SCORES)))
    res = by_name(run(JudgeSuite(), server.base_url))
    faith = res["faithfulness"]
    assert faith.value == 7
    assert faith.rating.mode == "greedy"
    assert faith.rating.fallback == "no token probabilities in the reply"


def test_trace_adherence_ratio_is_the_mean_probability_of_support(scripted_server: Any
                                                                  ) -> None:
    labels = json.dumps({"relevant_keys": ["0a"], "utilized_keys": ["0a"], "sentences": [
        {"key": "a", "supported": True, "supporting_keys": ["0a"]},
        {"key": "b", "supported": False, "supporting_keys": []}],
        "overall_supported": False})
    # value tokens in order: "0" of 0a (x3 keys: relevant, utilized, supporting), true,
    # false, false (overall)
    alts = [None, None, {"true": 0.9, "false": 0.1}, None, {"false": 0.8, "true": 0.2},
            {"false": 1.0}]
    server = scripted_server(sequence(ScriptedReply.chat(
        labels, logprobs=logprobs_content(labels, alts))))
    res = by_name(run(TraceSuite(), server.base_url))
    ratio = res["adherence_ratio"]
    assert ratio.value == pytest.approx((0.9 + 0.2) / 2)
    assert ratio.details["soft"] is True
    assert res["adherence"].value == 0.0  # the hard label stays


def test_ragas_faithfulness_is_the_mean_probability_of_the_claims(scripted_server: Any
                                                                  ) -> None:
    claims = json.dumps({"claims": [
        {"claim": "The tower was completed in 1889.", "supported": True, "reason": "ctx"},
        {"claim": "It is 330 metres tall.", "supported": False, "reason": "no height"}]})
    # value tokens in order: the digits of 1889, a flag, the digits of 330, a flag
    alts: list[dict[str, float] | None] = [
        *[None] * 4, {"true": 0.95, "false": 0.05}, *[None] * 3, {"false": 0.6, "true": 0.4}]

    def handler(req: dict[str, Any], n: int) -> ScriptedReply:
        system = req["messages"][0]["content"]
        if "atomic claims" in system:
            return ScriptedReply.chat(claims, logprobs=logprobs_content(claims, alts))
        if "answer relevancy" in system:
            return ScriptedReply.chat('{"questions": ["When was it completed?"], '
                                      '"noncommittal": false}')
        return ScriptedReply.chat('{"chunks": [{"index": 0, "useful": true}], '
                                  '"reference_sentences": [{"key": "a", "attributed": true}]}')

    server = scripted_server(handler)
    res = by_name(run(RagasSuite(), server.base_url))
    faith = res["faithfulness"]
    assert faith.value == pytest.approx((0.95 + 0.4) / 2)
    assert faith.details["soft"] is True
    # a reply without logprobs keeps the hard labels
    assert res["context_precision"].value == 1.0 and "soft" not in \
        res["context_precision"].details


def test_the_cache_keeps_the_readings(scripted_server: Any, tmp_path: Path) -> None:
    server = scripted_server(sequence(scores_reply()))
    with Store(tmp_path / "c.db") as store:
        first = by_name(run(JudgeSuite(), server.base_url, store=store))
        again = by_name(run(JudgeSuite(), server.base_url, store=store))
        greedy = by_name(run(JudgeSuite(), server.base_url, store=store, ratings="greedy"))
    assert server.count == 1  # both later runs are cache hits
    assert again["faithfulness"].value == pytest.approx(first["faithfulness"].value)
    assert again["faithfulness"].rating.mode == "expected"
    assert greedy["faithfulness"].value == 7


def test_a_greedy_cache_entry_read_in_expected_mode_says_so(scripted_server: Any,
                                                            tmp_path: Path) -> None:
    server = scripted_server(sequence(scores_reply()))
    with Store(tmp_path / "c.db") as store:
        run(JudgeSuite(), server.base_url, store=store, ratings="greedy")
        res = by_name(run(JudgeSuite(), server.base_url, store=store))
    assert server.count == 1
    assert res["faithfulness"].value == 7
    assert res["faithfulness"].rating.fallback == \
        "cached reply has no token probabilities"


def test_eval_cli_records_the_mode_and_cached_tokens(scripted_server: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from ragassay.cli import cli
    from tests.support.cli import llm_eval_args

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    server = scripted_server(sequence(ScriptedReply.chat(
        SCORES, logprobs=logprobs_content(SCORES, SCORE_ALTS), usage=(300, 40),
        cached_tokens=256)))
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps(SAMPLE.model_dump(mode="json")) + "\n")
    out = tmp_path / "r.json"
    made = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, tmp_path / "e.db",
                                                 "-q", "--out", str(out)))
    assert made.exit_code == 0, made.output
    report = json.loads(out.read_text())
    entry = report["detailed_results"][0]
    assert entry["metrics"]["judge.faithfulness"] == pytest.approx(5.4)
    assert report["usage"]["cached_tokens"] == 256
    greedy = CliRunner().invoke(cli, llm_eval_args(data, server.base_url, tmp_path / "e.db",
                                                   "-q", "--out", str(out), "--ratings",
                                                   "greedy"))
    assert greedy.exit_code == 0, greedy.output
    assert json.loads(out.read_text())["detailed_results"][0]["metrics"][
        "judge.faithfulness"] == 7
