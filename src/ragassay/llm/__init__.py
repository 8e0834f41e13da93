"""Talking to judge LLMs: the backend protocol, the registry and the OpenAI-compatible backend.

    backend = get_backend("openai:gpt-4o-mini", BackendOptions(concurrency=4))
    reply = await backend.complete(JudgeRequest(messages=(...,), output_schema=schema))

Backends are imported lazily: importing this package does not import the SDK.
"""

from ragassay.llm.base import Backend, BackendError, BackendOptions, BackendStats
from ragassay.llm.parsing import parse_json_reply
from ragassay.llm.policy import Guard, Policy
from ragassay.llm.registry import (
    available_backends,
    get_backend,
    parse_judge_spec,
    register_backend,
)
from ragassay.llm.retry import AdaptiveLimiter
from ragassay.llm.spread import Spread, spread_backend
from ragassay.llm.wire import JudgeReply, JudgeRequest, Message, TokenLogprob

__all__ = [
    "AdaptiveLimiter",
    "Backend",
    "BackendError",
    "BackendOptions",
    "BackendStats",
    "Guard",
    "JudgeReply",
    "JudgeRequest",
    "Message",
    "Policy",
    "Spread",
    "TokenLogprob",
    "available_backends",
    "get_backend",
    "parse_judge_spec",
    "parse_json_reply",
    "register_backend",
    "spread_backend",
]
