"""The judge protocol and its result type.

A judge answers a prompt for a sample with a typed output, or says why it could not
(`Verdict.unscored_reason`). LLM judges and the offline judge share this shape, so
that metric suites compute their values from verdicts without knowing which judge
produced them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from ragassay.judge.prompt import Prompt
from ragassay.llm.logprobs import SoftValue
from ragassay.types import Message, Sample, Usage


class JudgeAborted(Exception):
    """The judge cannot work at all (credentials or model refused): stop the run, keep
    what is done, and let the user fix the cause and resume."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True)
class CallLog:
    """One judge call as the store records it (never includes keys)."""

    prompt: str
    cache_key: str
    model: str
    usage: Usage
    cached: bool
    status: Literal["ok", "error"]
    error: str | None = None


@dataclass(frozen=True)
class Verdict:
    """A judge's answer to one prompt: a validated output, or unscored with a reason.

    For unscored verdicts the rendered prompt and the raw reply are kept, so that a
    reviewer can see exactly what the judge was asked and what it said.
    """

    prompt: str
    version: str
    output: BaseModel | None
    unscored_reason: str | None = None
    raw: str | None = None
    messages: tuple[Message, ...] | None = None
    usage: Usage = Usage()
    calls: tuple[CallLog, ...] = ()
    flags: Mapping[str, Any] = field(default_factory=dict)
    # probability-weighted readings of the reply's ratings and flags, by JSON path
    # ("faithfulness", "sentences.2.supported"): see `ragassay.judge.soft`
    soft: Mapping[str, SoftValue] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.output is not None

    def failure_details(self) -> dict[str, Any]:
        """What to keep in a metric's details when this verdict failed."""
        if self.ok:
            return {}
        return {
            "prompt": [m.model_dump() for m in self.messages or ()],
            "raw_reply": self.raw,
        }


class Judge(Protocol):
    """Answers prompts for samples. `prepare` lets a judge batch work ahead of time."""

    spec: str
    kind: Literal["offline", "llm"]
    model: str

    async def prepare(self, samples: Sequence[Sample]) -> None: ...

    async def run(self, prompt: Prompt, sample: Sample, values: Mapping[str, Any]) -> Verdict: ...

    def release(self, samples: Sequence[Sample]) -> None: ...

    async def aclose(self) -> None: ...
