"""The offline extractive generator, the grounded prompt and the cost arithmetic."""

from __future__ import annotations

import asyncio

import pytest

from ragassay.bench.config import BenchSection, Price
from ragassay.bench.cost import estimate, measured
from ragassay.bench.generation import (
    NO_ANSWER,
    GenerationOptions,
    OfflineGenerator,
    grounded_messages,
    make_generator,
)
from ragassay.types import Usage

from .conftest import HashEmbedder

CONTEXTS = [
    "Section: Leave\n\n## Annual leave\n\nEmployees get 27 days of annual leave. "
    "The office has a kitchen.",
    "Hotels in Toronto cost at most 220 euros per night.",
]


def run(gen: OfflineGenerator, q: str, contexts: list[str]) -> str:
    return asyncio.run(gen.generate(q, contexts)).answer


def test_answers_with_the_best_supported_sentence() -> None:
    gen = OfflineGenerator(HashEmbedder(256), GenerationOptions(max_sentences=1))
    assert run(gen, "How many days of annual leave do employees get?", CONTEXTS) == (
        "Employees get 27 days of annual leave.")


def test_headings_are_never_answers() -> None:
    gen = OfflineGenerator(HashEmbedder(256), GenerationOptions(max_sentences=3, margin=1.0,
                                                                threshold=0.0))
    answer = run(gen, "annual leave", CONTEXTS)
    assert "Section" not in answer and "##" not in answer


def test_no_answer_below_threshold() -> None:
    gen = OfflineGenerator(HashEmbedder(256))
    assert run(gen, "What is the dress code for Fridays?", CONTEXTS) == NO_ANSWER
    assert run(gen, "How many days of annual leave?", []) == NO_ANSWER
    custom = OfflineGenerator(HashEmbedder(256), GenerationOptions(no_answer="Unknown."))
    assert run(custom, "What is the dress code for Fridays?", CONTEXTS) == "Unknown."
    strict = OfflineGenerator(HashEmbedder(256), GenerationOptions(threshold=1.01))
    assert run(strict, "How many days of annual leave do employees get?", CONTEXTS) == NO_ANSWER


def test_grounded_prompt_and_generator_names() -> None:
    msgs = grounded_messages("Q?", ["first", "second"], NO_ANSWER)
    assert NO_ANSWER in msgs[0]["content"] and "ONLY" in msgs[0]["content"]
    assert "[1] first\n\n[2] second" in msgs[1]["content"] and msgs[1]["content"].endswith(
        "Question: Q?\nAnswer:")
    assert make_generator("openai:m", None, GenerationOptions(base_url="http://127.0.0.1:9/v1")
                          ).name == "openai:m"
    with pytest.raises(ValueError, match="unknown generator"):
        make_generator("gpt", None, GenerationOptions())
    with pytest.raises(ValueError, match="embedder"):
        make_generator("offline", None, GenerationOptions())


def test_cost_estimate_hand_worked() -> None:
    bench = BenchSection(name="b", corpus="c", questions="q", judge="openai:judge-m",
                         metrics=("judge", "ragas.faithfulness"),
                         calls_per_sample={"ragas": 3}, judge_prompt_tokens=100,
                         judge_output_tokens=10, answer_tokens=5)
    prices = {"judge-m": Price(input=1.0, output=2.0), "gen-m": Price(input=10, output=20)}
    est = estimate(bench, "openai:gen-m", ["abcd"] * 2, ["12345678"] * 2, 40, prices)
    # generator: 2 calls, prompt chars = 2*400 + 8 + 2*40 = 888 -> 222 tokens, out 2*5
    assert (est.generator.calls, est.generator.input_tokens, est.generator.output_tokens) == (
        2, 222, 10)
    assert est.generator.usd == pytest.approx((222 * 10 + 10 * 20) / 1e6)
    # judge: 1 + 3 calls per sample; sample chars = 8 + 16 + 2*(40 + 20) = 144 -> 36 tokens
    assert (est.judge.calls, est.judge.input_tokens, est.judge.output_tokens) == (
        8, 4 * (200 + 36), 80)
    offline = estimate(BenchSection(name="b", corpus="c", questions="q"), "offline", ["a"], [],
                       10, {})
    assert offline.usd == 0.0 and offline.judge.calls == 0
    unpriced = measured("openai:x", Usage(calls=1, input_tokens=5), "offline", None, {})
    assert unpriced.generator.usd is None and unpriced.usd is None  # unpriced is not free
