"""What a backend is sent and answers: messages, the request (schema, sampling
parameters), the reply (text, parsed JSON, usage, token probabilities)."""

from __future__ import annotations

from typing import Any, Literal

from ragassay.types import Frozen, Message, Usage

__all__ = ["JudgeReply", "JudgeRequest", "Message", "TokenLogprob"]


class JudgeRequest(Frozen):
    """What a backend is asked: messages, the JSON schema wanted, sampling parameters."""

    messages: tuple[Message, ...]
    output_schema: dict[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 0
    prompt_name: str = ""
    prompt_version: str = ""
    # Set by the policy layer (never part of a cache key): the structured-output form to
    # ask for, and parameters the server rejected (drop them; "max_tokens" -> send
    # max_completion_tokens instead).
    structured_output: Literal["json_schema", "json_object", "prompt"] = "json_schema"
    omit: frozenset[str] = frozenset()
    # Ask for this many alternatives per generated token (probability-weighted ratings);
    # a backend that cannot give them answers without. Not part of the cache key.
    top_logprobs: int | None = None


class TokenLogprob(Frozen):
    """One generated token: its text (and raw bytes), log-probability, best alternatives.

    `top` lists (token text, logprob) best first, the chosen token included. `after`
    holds, for some alternatives that are a number's first digit, the next-token
    alternatives had that digit been chosen (an in-process backend probes them, so
    that "10" split into "1" + "0" can be read when the model chose another digit).
    """

    token: str
    logprob: float
    bytes: tuple[int, ...] | None = None
    top: tuple[tuple[str, float], ...] = ()
    after: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()


class JudgeReply(Frozen):
    """A backend's answer: raw text, parsed JSON (or why not), usage, finish reason."""

    text: str
    data: Any = None
    parse_error: str | None = None
    usage: Usage = Usage()
    finish_reason: str | None = None
    model: str = ""
    logprobs: tuple[TokenLogprob, ...] | None = None  # per generated token, when asked for

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"
