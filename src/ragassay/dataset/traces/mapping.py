"""The rules that turn a trace's spans into a sample: declared here, and only here.

Each role names the span attributes read for it, in order of preference (the first one
present wins). The defaults read OpenInference (Arize Phoenix, the LlamaIndex and
LangChain instrumentors) and the OpenTelemetry GenAI semantic conventions; `--trace-map
ROLE=ATTR[,ATTR...]` (or `TraceMap.with_overrides`) puts other attributes first.

- `kind`: the attribute that says what a span does; its value is looked up in `KINDS`.
- `question`: read on the root span (the trace's first span without a parent).
- `answer`: read on the answer span (the last LLM span to end), else on the root span.
- `query`: a retrieval or rerank span's query.
- `documents`: a retrieval or rerank span's documents: a prefix of indexed attributes
  (`retrieval.documents.0.document.content`, `.id`, `.score`) or an attribute holding a
  JSON list of documents (strings or objects with `content`/`id`/`score`).
- `strategy`, `reference`: optional, on the root span.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

ROLES = ("kind", "question", "answer", "query", "documents", "strategy", "reference")

KINDS: dict[str, str] = {
    # OpenInference span kinds
    "RETRIEVER": "retriever", "RERANKER": "reranker", "LLM": "llm", "CHAIN": "chain",
    "AGENT": "agent", "TOOL": "tool", "EMBEDDING": "embedding", "GUARDRAIL": "guardrail",
    "EVALUATOR": "evaluator",
    # gen_ai.operation.name values
    "chat": "llm", "text_completion": "llm", "generate_content": "llm",
    "invoke_agent": "agent", "create_agent": "agent", "execute_tool": "tool",
    "embeddings": "embedding", "retrieval": "retriever", "rerank": "reranker",
}
"""A `kind` attribute's value -> the span's role (hops are `retriever` and `reranker`
spans; the answer is the last `llm` span's output)."""


@dataclass(frozen=True)
class TraceMap:
    """The attributes each role reads, in order of preference (see the module doc)."""

    kind: tuple[str, ...] = ("openinference.span.kind", "gen_ai.operation.name")
    question: tuple[str, ...] = ("input.value", "gen_ai.input.messages", "llm.input_messages",
                                 "gen_ai.prompt")
    answer: tuple[str, ...] = ("output.value", "gen_ai.output.messages", "llm.output_messages",
                               "gen_ai.completion")
    query: tuple[str, ...] = ("input.value", "reranker.query", "gen_ai.retrieval.query.text")
    documents: tuple[str, ...] = ("reranker.output_documents", "retrieval.documents",
                                  "gen_ai.retrieval.documents")
    strategy: tuple[str, ...] = ("ragassay.strategy",)
    reference: tuple[str, ...] = ("ragassay.reference",)

    def with_overrides(self, overrides: Mapping[str, list[str] | tuple[str, ...]]) -> TraceMap:
        """These rules with each overridden role's attributes read first."""
        changes = {}
        for role, attrs in overrides.items():
            if role not in ROLES:
                raise ValueError(f"unknown trace role {role!r} (roles: {', '.join(ROLES)})")
            names = tuple(a.strip() for a in attrs if a.strip())
            if not names:
                raise ValueError(f"--trace-map {role}= names no attribute")
            changes[role] = names + tuple(a for a in getattr(self, role) if a not in names)
        return replace(self, **changes)


DEFAULT_TRACE_MAP = TraceMap()


def parse_trace_map(pairs: list[str] | tuple[str, ...]) -> dict[str, list[str]]:
    """`ROLE=ATTR[,ATTR...]` options as {role: [attr, ...]}, checked (ValueError with
    one line naming the bad option)."""
    out: dict[str, list[str]] = {}
    for pair in pairs:
        role, sep, attrs = pair.partition("=")
        if not sep:
            raise ValueError(f"--trace-map {pair!r}: expected ROLE=ATTR[,ATTR...]")
        out[role.strip()] = [a.strip() for a in attrs.split(",") if a.strip()]
    DEFAULT_TRACE_MAP.with_overrides(out)  # raises on an unknown role or no attribute
    return out
