"""A stand-in judge for the structural cost comparison: a valid reply to every prompt.

SmolLM2 often cannot produce what RAGAS's prompts ask for, and RAGAS stops a sample at
its first failed call, so a failing judge makes RAGAS look cheaper than it is. With
`benches/judge_cost.py --replies valid`, the proxy answers each chat request itself
with a minimal valid JSON reply for that prompt (RAGAS's five prompts and ragassay's
three, recognised by their instruction text) and counts the prompt's tokens with
SmolLM2's own tokenizer and chat template - what the llama.cpp server would report.
Like llama-cpp-python 0.3.36 it rejects `response_format: json_schema` (HTTP 500), so
both tools send exactly the requests they send to the real server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

# RAGAS 0.4.3 instructions (legacy single-turn metrics) and ragassay's system prompts.
RAGAS_STATEMENTS = "Break down each sentence into one or more fully understandable statements"
RAGAS_NLI = "judge the faithfulness of a series of statements"
RAGAS_QUESTION = "Generate a question for the given answer"
RAGAS_PRECISION = "verify if the context was useful in arriving at the given answer"
RAGAS_RECALL = "classify if the sentence can be attributed to the given context"
RAGAS_FIX = "The output string did not satisfy the constraints"
OURS_CLAIMS = "You check the faithfulness of an answer"
OURS_QUESTIONS = "You help measure whether an answer addresses its question"
OURS_CONTEXTS = "You judge the retrieved context"

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


class SchemaRejected(Exception):
    """The request asked for `json_schema`, which the emulated server refuses."""


def sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SENTENCE.split(text)) if s] or [text.strip() or "-"]


def ragas_input(prompt: str) -> dict[str, Any]:
    """The JSON input block at the end of a RAGAS prompt ("input: {...}\\nOutput: ")."""
    start = prompt.rfind("\ninput: ")
    end = prompt.rfind("\nOutput:")
    if start < 0 or end < start:
        return {}
    try:
        data = json.loads(prompt[start + len("\ninput: "):end])
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def reply_for(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """A minimal valid reply for the prompt these messages carry."""
    text = "\n".join(str(m.get("content") or "") for m in messages)
    last = str(messages[-1].get("content") or "") if messages else ""
    if OURS_CLAIMS in text:
        return {"claims": [{"claim": "The answer states one fact.", "supported": True,
                            "reason": "Chunk 0 says so."}]}
    if OURS_QUESTIONS in text:
        return {"questions": ["What does the answer say?", "What is stated?",
                              "What is the fact?"], "noncommittal": False}
    if OURS_CONTEXTS in text:
        chunks = sorted({int(i) for i in re.findall(r"^\[(\d+)\] ", last, re.M)})
        keys = re.findall(r"^([a-z]{1,3}): ", last, re.M)
        return {"chunks": [{"index": i, "useful": i == 0} for i in chunks],
                "reference_sentences": [{"key": k, "attributed": True} for k in keys]}
    data = ragas_input(last)
    if RAGAS_STATEMENTS in text:
        return {"statements": sentences(str(data.get("answer", "")))}
    if RAGAS_NLI in text:
        return {"statements": [{"statement": s, "reason": "Stated in the context.",
                                "verdict": 1} for s in data.get("statements", [])]}
    if RAGAS_QUESTION in text:
        return {"question": "What does the answer say?", "noncommittal": 0}
    if RAGAS_PRECISION in text:
        return {"reason": "The context states the answer.", "verdict": 1}
    if RAGAS_RECALL in text:
        return {"classifications": [
            {"statement": s, "reason": "In the context.", "attributed": 1}
            for s in sentences(str(data.get("answer", "")))]}
    if RAGAS_FIX in text:
        return {"text": "{}"}
    return {}


class Responder:
    """Answers chat requests locally; counts tokens as the llama.cpp server would."""

    def __init__(self, model_path: Path) -> None:
        import jinja2
        import llama_cpp

        self._llama = llama_cpp.Llama(model_path=str(model_path), vocab_only=True,
                                      verbose=False)
        template = self._llama.metadata.get("tokenizer.chat_template", "")
        self._template = jinja2.Environment().from_string(template)

    def count(self, text: str) -> int:
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def __call__(self, body: dict[str, Any]) -> tuple[str, int, int]:
        """(reply content, prompt tokens, completion tokens) for a chat request body."""
        fmt = body.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            raise SchemaRejected("response_format.type must be 'text' or 'json_object'")
        messages = body.get("messages") or []
        prompt = self._template.render(messages=messages, add_generation_prompt=True)
        content = json.dumps(reply_for(messages))
        return content, self.count(prompt), self.count(content) + 1  # + end of turn
