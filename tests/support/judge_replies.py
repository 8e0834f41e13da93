"""Replies that depend only on what is asked: the same request always gets the same
reply, whoever sends it and in whatever order (a direct run and a batch run of the same
data then score alike). Every built-in prompt of the judge, trace and ragas suites gets a
valid reply for rows shaped like `shaped_rows` (two one-sentence contexts, a two-sentence
answer and reference); the judge suite's ratings carry token probabilities, so that the
expected ratings are read from them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.support.logprobs import logprobs_content
from tests.support.scripted_server import ScriptedReply


def _digest(request: dict[str, Any]) -> int:
    text = request["messages"][-1]["content"]
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def kind(request: dict[str, Any]) -> str:
    """The prompt a request asks (its structured-output name, else its system text)."""
    fmt = request.get("response_format") or {}
    name = (fmt.get("json_schema") or {}).get("name")
    if name:
        return str(name)
    system = request["messages"][0]["content"]
    for marker, found in (("TRACe", "trace_labels"), ("atomic claims", "ragas_claims"),
                          ("context precision", "ragas_contexts"),
                          ("questions", "ragas_questions")):
        if marker in system:
            return found
    return "judge_scores"


def reply_for(request: dict[str, Any]) -> tuple[dict[str, Any], list[Any] | None]:
    """The reply object for a request, and the judge suite's token alternatives."""
    h, k = _digest(request), kind(request)
    bit = [bool(h >> i & 1) for i in range(16)]
    if k == "judge_scores":
        values = [1 + (h >> (4 * i)) % 9 for i in range(3)]
        reply = {"context_relevance": values[0], "answer_similarity": values[1],
                 "faithfulness": values[2], "hallucination": bit[12], "reasoning": "scripted"}
        first = str(values[0])
        other = str(values[0] % 9 + 1)
        return reply, [{first: 0.7, other: 0.3}]
    if k == "trace_labels":
        return {"relevant_keys": ["0a"] + (["1a"] if bit[0] else []),
                "utilized_keys": ["0a"], "overall_supported": bit[1],
                "sentences": [{"key": "a", "supported": True, "supporting_keys": ["0a"]},
                              {"key": "b", "supported": bit[2],
                               "supporting_keys": ["1a"] if bit[2] else []}]}, None
    if k == "ragas_claims":
        return {"claims": [{"claim": "first claim", "supported": True, "reason": "chunk 0"},
                           {"claim": "second claim", "supported": bit[3], "reason": "-"}]}, None
    if k == "ragas_questions":
        return {"questions": ["What does the setting do?", "Which buffer is it?",
                              "What is controlled?"], "noncommittal": bit[4]}, None
    if k == "ragas_contexts":
        return {"chunks": [{"index": 0, "useful": True}, {"index": 1, "useful": bit[5]}],
                "reference_sentences": [{"key": "a", "attributed": True},
                                        {"key": "b", "attributed": bit[6]}]}, None
    raise AssertionError(f"no scripted reply for {k}")


def content_replies(request: dict[str, Any], n: int) -> ScriptedReply:
    """A `ScriptedServer` / `BatchServer` handler: the reply for the request's content,
    with token probabilities when they are asked for (as OpenAI gives them)."""
    obj, alternatives = reply_for(request)
    text = json.dumps(obj)
    logprobs = logprobs_content(text, alternatives or []) if request.get("logprobs") else None
    return ScriptedReply.chat(text, usage=(120 + len(text) % 7, 30), logprobs=logprobs)


def shaped_rows(path: Path, n: int, start: int = 0) -> Path:
    """A JSONL dataset of `n` rows of the shape the replies fit, each about its own
    setting (`s<i>`)."""
    path.write_text("".join(json.dumps({
        "id": f"s{i}", "question": f"What does setting {i} do?",
        "contexts": [f"Setting {i} controls buffer {i}.", f"Buffer {i} holds {i * 3} items."],
        "answer": f"It controls buffer {i}. The buffer holds {i * 3} items.",
        "reference": f"Setting {i} controls buffer {i}. It holds {i * 3} items."}) + "\n"
        for i in range(start, start + n)))
    return path
