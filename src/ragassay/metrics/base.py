"""What a metric suite is: declared metrics, the prompts they need, and pure scoring.

A suite's `evaluate` asks the judge for the verdicts it needs (as few calls as it
can) and hands them to pure functions that turn verdicts into `MetricResult`s.
Those functions never call a judge, so every formula is testable without an LLM.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ragassay.judge import CallLog, Judge, Verdict
from ragassay.text import approx_tokens
from ragassay.types import MetricResult, MetricSpec, Sample, SampleResult, Usage


@dataclass(frozen=True)
class SuiteOptions:
    """Knobs shared by suites; one object instead of many keyword arguments."""

    max_context_tokens: int = 6000
    n_questions: int = 3
    embedder: Any = None  # ragassay.embed.Embedder, for answer relevancy


@dataclass(frozen=True)
class Outcome:
    """A suite's result for one sample, with the judge calls that produced it."""

    result: SampleResult
    calls: tuple[CallLog, ...] = ()


class Suite(ABC):
    """A family of metrics that share judge calls."""

    name: ClassVar[str]
    specs: ClassVar[tuple[MetricSpec, ...]]

    @classmethod
    def prompt_versions(cls) -> dict[str, str]:
        return {}

    def applicable(self, sample: Sample) -> bool:
        """Whether the sample has the inputs for at least one of this suite's metrics."""
        return True

    @abstractmethod
    async def evaluate(self, sample: Sample, judge: Judge, options: SuiteOptions) -> Outcome: ...


def unscored(names: Iterable[str], reason: str, **details: Any) -> list[MetricResult]:
    return [MetricResult(name=n, value=None, unscored_reason=reason, details=dict(details))
            for n in names]


def outcome(suite: str, sample: Sample, results: Sequence[MetricResult],
            verdicts: Sequence[Verdict] = (), reasoning: str | None = None) -> Outcome:
    usage = Usage()
    calls: list[CallLog] = []
    for v in verdicts:
        usage = usage + v.usage
        calls.extend(v.calls)
    return Outcome(
        SampleResult(sample_id=sample.id, strategy=sample.strategy, suite=suite,
                     results=tuple(results), reasoning=reasoning, usage=usage),
        tuple(calls),
    )


def fit_contexts(contexts: Sequence[str], max_tokens: int) -> tuple[list[str], bool]:
    """Keep contexts within a token budget, cutting the last ones; report if anything was cut."""
    kept: list[str] = []
    budget = max_tokens
    for ctx in contexts:
        need = approx_tokens(ctx)
        if need <= budget:
            kept.append(ctx)
            budget -= need
            continue
        if budget > 50:
            kept.append(ctx[: budget * 4] + " [...]")
        return kept, True
    return kept, False


def number_contexts(contexts: Sequence[str]) -> str:
    return "\n\n".join(f"[{i}] {c}" for i, c in enumerate(contexts)) if contexts else "(none)"
