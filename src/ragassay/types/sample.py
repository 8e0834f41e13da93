"""The input of a run: a sample (one RAG interaction), its content identity, and an input
row that failed validation."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import Field

from ragassay.types.base import Frozen

LABEL_PREFIX = "label."
"""`label.hallucinated`: a sample's label (`Sample.labels`) as a column of the report's CSV,
its Parquet results and `to_pandas()`."""


class Sample(Frozen):
    """One RAG interaction to evaluate."""

    id: str
    question: str
    contexts: tuple[str, ...] = ()
    answer: str = ""
    reference: str | tuple[str, ...] | None = None
    strategy: str = "default"
    labels: dict[str, Any] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def references(self) -> tuple[str, ...]:
        """The acceptable reference answers, as a tuple (empty when none)."""
        if self.reference is None:
            return ()
        if isinstance(self.reference, str):
            return (self.reference,) if self.reference.strip() else ()
        return tuple(r for r in self.reference if r.strip())

    @property
    def content_key(self) -> str:
        """The sample's content identity: a hash of its question, contexts and answer
        (not its id, strategy, reference or metadata). Human labels are stored under it,
        so a label applies to every run that scored the same interaction."""
        return content_key(self.question, self.contexts, self.answer)


def content_key(question: str, contexts: tuple[str, ...] | list[str], answer: str) -> str:
    """sha256 (first 32 hex digits) of the canonical JSON of [question, contexts, answer]."""
    text = json.dumps([question, list(contexts), answer], ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class InvalidRow(Frozen):
    """An input row that failed validation, kept so that nothing is dropped silently."""

    id: str
    source: str  # "data.jsonl:17"
    reason: str  # "'contexts' must be a list of strings"
    strategy: str = "default"
