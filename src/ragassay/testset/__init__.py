"""Test sets from a corpus: questions of several kinds with reference answers and gold
passages, ready to be `ragassay bench`'s questions file.

    rows, report = generate("corpus/", GenerateOptions(n=50))                 # offline
    rows, report = generate("corpus/", GenerateOptions(n=50, judge="openai:gpt-4o-mini"))
    write_jsonl(rows, "testset.jsonl")

Kinds: single-fact (one chunk), multi-hop (two chunks of different documents),
unanswerable (the reference is the no-answer text). Without an LLM the offline
extractive generator makes them (labelled `offline-extractive` in every row).
"""

from ragassay.testset.drafts import (
    KINDS,
    OFFLINE_LABEL,
    Draft,
    GenerateOptions,
    GenerateReport,
    SourceChunk,
    plan,
)
from ragassay.testset.generate import agenerate, generate, kinds_made, write_jsonl

__all__ = [
    "KINDS",
    "OFFLINE_LABEL",
    "Draft",
    "GenerateOptions",
    "GenerateReport",
    "SourceChunk",
    "agenerate",
    "generate",
    "kinds_made",
    "plan",
    "write_jsonl",
]
