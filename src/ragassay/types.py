"""Core types shared by every subpackage.

Everything here is a plain, frozen pydantic model with no behaviour beyond
small derived values: domain objects never save, judge or aggregate themselves.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

JSON = dict[str, Any]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Sample(_Frozen):
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


class InvalidRow(_Frozen):
    """An input row that failed validation, kept so that nothing is dropped silently."""

    id: str
    source: str  # "data.jsonl:17"
    reason: str  # "'contexts' must be a list of strings"
    strategy: str = "default"


class Usage(_Frozen):
    """Judge cost counters; add them with `+`."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_hits: int = 0
    latency_s: float = 0.0
    # input tokens the server served from its prompt (prefix) cache; part of input_tokens
    cached_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls + other.calls,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_hits=self.cache_hits + other.cache_hits,
            latency_s=self.latency_s + other.latency_s,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


class MetricSpec(_Frozen):
    """A metric's declaration: qualified name, range and direction.

    Statistics that depend on a range (perfect/poor counts, normalised bias)
    read it from here.
    """

    name: str  # qualified: "judge.faithfulness"
    low: float = 0.0
    high: float = 1.0
    kind: Literal["score", "bool"] = "score"
    higher_is_better: bool = True
    description: str = ""

    @property
    def suite(self) -> str:
        return self.name.split(".", 1)[0]

    def normalise(self, value: float) -> float:
        """Map a value onto 0-1 using the declared range."""
        if self.high == self.low:
            return float(value)
        return (float(value) - self.low) / (self.high - self.low)


class MetricResult(_Frozen):
    """One metric's outcome for one sample: a value, or unscored with a reason."""

    name: str
    value: float | bool | None
    unscored_reason: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def scored(self) -> bool:
        return self.value is not None


class SampleResult(_Frozen):
    """Everything one suite produced for one sample."""

    sample_id: str
    strategy: str = "default"
    suite: str
    results: tuple[MetricResult, ...]
    reasoning: str | None = None
    usage: Usage = Usage()


class Message(_Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class JudgeRequest(_Frozen):
    """What a backend is asked: messages, the JSON schema wanted, sampling parameters."""

    messages: tuple[Message, ...]
    output_schema: dict[str, Any] | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 0
    prompt_name: str = ""
    prompt_version: str = ""
    # Ask for this many alternatives per generated token (probability-weighted ratings);
    # a backend that cannot give them answers without. Not part of the cache key.
    top_logprobs: int | None = None


class TokenLogprob(_Frozen):
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


class JudgeReply(_Frozen):
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


class RunConfig(_Frozen):
    """What defines a run; stored with it so that it can be resumed and compared."""

    dataset: str
    judge: str = "offline"
    base_url: str | None = None
    metrics: tuple[str, ...] = ("judge",)
    concurrency: int = 8
    seed: int = 0
    use_cache: bool = True
    skip_invalid: bool = False
    max_context_tokens: int = 6000
    embedding_model: str = "all-MiniLM-L6-v2"
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(default_factory=dict)
