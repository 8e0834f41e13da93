"""The judge protocol and its result type.

An LLM judge answers a prompt with a typed output, or says why it could not
(`Verdict.unscored_reason`); the offline judge gives typed `Evidence` for keyed samples.
Each suite maps either onto the same verdict types, so the metric formulas do not know
which judge produced them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from ragassay.judge.prompt import Prompt
from ragassay.llm.logprobs import SoftValue
from ragassay.llm.wire import Message
from ragassay.types import JudgeFailure, RatingReading, Usage


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

    def failure(self) -> JudgeFailure | None:
        """What a metric keeps of this verdict when it failed: the prompt as sent and the
        raw reply (`MetricResult.failure`); None when it did not fail."""
        if self.ok:
            return None
        return JudgeFailure(prompt=tuple(self.messages or ()), raw_reply=self.raw)

    def rating_reading(self) -> RatingReading | None:
        """How an LLM judge read this verdict's values, when it says (`flags`:
        "rating_mode" and, for a fallback to the stated values, "rating_fallback")."""
        mode = self.flags.get("rating_mode")
        if mode not in ("expected", "greedy"):
            return None
        fallback = self.flags.get("rating_fallback")
        return RatingReading(mode=mode, fallback=str(fallback) if fallback else None)

    @property
    def suspicious(self) -> str | None:
        """The note when the reply held a verdict copied from the judged text."""
        note = self.flags.get("suspicious_reply")
        return str(note) if note else None


class Asker(Protocol):
    """What a suite's LLM scoring needs: ask one prompt, get a verdict."""

    async def ask(self, prompt: Prompt, values: Mapping[str, Any]) -> Verdict: ...


class Judge(Protocol):
    """What the runner needs from any judge. Two kinds exist:

    - "llm" judges (`LLMJudge`) also implement `Asker.ask`: a suite renders its prompts
      from the keyed sample and asks them;
    - the "offline" judge (`OfflineJudge`) implements `analyze(items) -> [Evidence]`: the
      runner computes a batch's evidence once and each suite maps it onto its verdicts.
    """

    spec: str
    kind: Literal["offline", "llm"]
    model: str

    async def aclose(self) -> None: ...
