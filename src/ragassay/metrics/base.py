"""What a metric suite is: declared metrics, the prompts they need, and pure scoring.

A suite scores one keyed sample (`ragassay.text.KeyedSample`, made once by the runner)
in one of two ways that end in the same pure formulas over the same verdict types:

- `evaluate`: asks an LLM judge the suite's prompts (as few calls as it can) and turns
  the validated replies into verdicts;
- `evaluate_offline`: maps the offline judge's typed `Evidence` onto those verdicts.

The formulas never call a judge, so every one is testable without an LLM.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ragassay.judge import Asker, CallLog, Prompt, Verdict
from ragassay.text import KeyedSample
from ragassay.types import (
    ABSTENTION_OUTCOMES,
    MISSING_INPUT,
    JudgeFailure,
    LinkedLabel,
    MetricResult,
    MetricSpec,
    Sample,
    SampleResult,
    Target,
    Usage,
)

if TYPE_CHECKING:
    from ragassay.judge.offline import Evidence


SUPPORTED = (LinkedLabel(label="faithful"), LinkedLabel(label="hallucinated", inverted=True))
"""The labels a metric of the answer's support by the contexts (high: supported) is compared
with (`MetricSpec.labels`)."""
UNSUPPORTED = (LinkedLabel(label="hallucinated"), LinkedLabel(label="faithful", inverted=True))
"""The same labels for a metric that is high when the answer is not supported."""
CORRECT = (LinkedLabel(label="correct"),)
"""The label a metric of the answer's agreement with the reference is compared with."""
RELEVANT = (LinkedLabel(label="relevance"),)
"""The label a metric of the contexts' relevance to the question is compared with."""
SOFT_WARNING = 0.1
"""How far below a soft target's `good` (a share of the metric's range) its warning line
lies (`judge_line`)."""


def judge_line(threshold: float, low: float = 0.0, high: float = 1.0) -> Target:
    """A metric's target under the offline judge, whose values are soft (a mean of its
    probabilities: docs/metrics.md) where an LLM judge's are verdicts (`MetricSpec.
    soft_target`): `good` at the judge's own line for the metric's verdict, the probability
    `threshold` at which it says supported, relevant, used or useful (0.5 of 0-1; 5.5 on
    1-10, where it flags a hallucination below faithfulness 5.5), warning SOFT_WARNING of
    the range below it. A grounded answer lies above the line as the judge reads it, while
    its soft mean seldom reaches an LLM judge's 0.9 (trial 65: 2 of 50 answers the judge
    passed)."""
    span = high - low
    return Target(good=round(low + threshold * span, 12),
                  warning=round(low + (threshold - SOFT_WARNING) * span, 12))


@dataclass(frozen=True)
class SuiteOptions:
    """Knobs shared by suites; one object instead of many keyword arguments."""

    n_questions: int = 3
    embedder: Any = None  # ragassay.embed.Embedder, for answer relevancy
    analyzer: Any = None  # the offline judge's Analyzer, for checks of its own (citations)


@dataclass(frozen=True)
class Outcome:
    """A suite's result for one sample, with the judge calls that produced it."""

    result: SampleResult
    calls: tuple[CallLog, ...] = ()


class Suite(ABC):
    """A family of metrics that share judge calls."""

    name: ClassVar[str]
    specs: ClassVar[tuple[MetricSpec, ...]]
    prompts: ClassVar[tuple[Prompt, ...]] = ()
    uses_embedder: ClassVar[bool] = False  # the LLM path embeds text (the runner builds it)

    @classmethod
    def prompt_versions(cls) -> dict[str, str]:
        return {p.name: p.version for p in cls.prompts}

    @classmethod
    def names(cls) -> list[str]:
        return [s.name for s in cls.specs]

    # the metrics a run asked for (`--metrics ragas.faithfulness`); None: every one
    chosen: frozenset[str] | None = None

    def choose(self, names: Iterable[str] | None) -> Suite:
        """Narrow this suite to `names` (qualified metric names of its own); None: all."""
        self.chosen = None if names is None else frozenset(names)
        return self

    def wants(self, name: str) -> bool:
        """Whether the run asked for the metric `name` (a suite skips the judge calls of
        metrics nobody asked for)."""
        return self.chosen is None or name in self.chosen

    @property
    def chosen_specs(self) -> tuple[MetricSpec, ...]:
        return tuple(s for s in self.specs if self.wants(s.name))

    def keep_chosen(self, result: Outcome) -> Outcome:
        """The outcome with only the chosen metrics' values."""
        if self.chosen is None:
            return result
        kept = tuple(m for m in result.result.results if m.name in self.chosen)
        return Outcome(result.result.model_copy(update={"results": kept}), result.calls)

    @classmethod
    def declaration_problem(cls, name: str) -> str | None:
        """What is wrong with the suite's declaration under `name`, in one line (None: it
        is sound): its class name, and specs of its own, qualified, each declared once."""
        if getattr(cls, "name", None) != name:
            return f"suite {name!r} declares the name {getattr(cls, 'name', None)!r}"
        names = [s.name for s in getattr(cls, "specs", ())]
        if not names:
            return f"suite {name!r} declares no metric (specs)"
        foreign = [n for n in names if n.partition(".")[0] != name or not n.partition(".")[2]]
        if foreign:
            return (f"suite {name!r} declares {foreign[0]!r}: its metrics are named "
                    f"'{name}.<metric>'")
        twice = sorted({n for n in names if names.count(n) > 1})
        return f"suite {name!r} declares {twice[0]!r} twice" if twice else None

    def check_results(self, results: Sequence[MetricResult]) -> None:
        """ValueError unless the results are exactly the metrics the suite declares (a
        result without a spec would be reported without its range, gate or direction)."""
        got, declared = [r.name for r in results], self.names()
        if sorted(got) != sorted(declared):
            extra = [n for n in got if n not in declared]
            missing = [n for n in declared if n not in got]
            raise ValueError(
                f"suite {self.name!r} returned "
                + (f"undeclared metrics {', '.join(extra)}" if extra else "")
                + ("; " if extra and missing else "")
                + (f"no result for {', '.join(missing)}" if missing else "")
                + ("metric names twice" if not extra and not missing else "")
                + " (its results must be exactly its specs)")

    def needs_embedder(self) -> bool:
        """Whether the LLM path of the metrics the run asked for embeds text (the runner
        builds the embedder before the run fans out)."""
        return self.uses_embedder

    def applicable(self, sample: Sample) -> bool:
        """Whether the sample has the inputs for at least one of this suite's metrics."""
        return True

    @abstractmethod
    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions
                       ) -> Outcome:
        """Score with an LLM judge."""

    @abstractmethod
    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        """Score from the offline judge's evidence for the same keyed sample."""


def unscored(names: Iterable[str], reason: str, *, failure: JudgeFailure | None = None,
             truncated: Iterable[str] = (), **details: Any) -> list[MetricResult]:
    """The metrics unscored for one reason (with the failed judgment's prompt and reply,
    the texts cut to the budget, and the suite's own details)."""
    return [MetricResult(name=n, value=None, unscored_reason=reason, details=dict(details),
                         failure=failure, truncated=tuple(truncated)) for n in names]


def outcome(suite: str, sample: Sample, results: Sequence[MetricResult],
            verdicts: Sequence[Verdict] = (), reasoning: str | None = None) -> Outcome:
    """The suite's result for the sample; a judge reply that copied a verdict from the
    judged text (`Verdict.suspicious`) is noted on every value (`MetricResult.suspicious`),
    which `Store.suspicious_replies` counts."""
    usage = Usage()
    calls: list[CallLog] = []
    for v in verdicts:
        usage = usage + v.usage
        calls.extend(v.calls)
    note = next((v.suspicious for v in verdicts if v.suspicious), None)
    if note:
        results = [r.model_copy(update={"suspicious": note}) for r in results]
    return Outcome(
        SampleResult(sample_id=sample.id, strategy=sample.strategy, suite=suite,
                     results=tuple(results), reasoning=reasoning, usage=usage),
        tuple(calls),
    )


def abstain(results: Sequence[MetricResult], names: Iterable[str], outcome: str | None,
            basis: str) -> list[MetricResult]:
    """The results with the scored ones among `names` (the answer metrics) turned into
    abstentions when the answer declines (`outcome` "correct", "false" or "unknown"; None:
    it did not decline): no value and no unscored reason, `abstention` the outcome and
    `abstention_basis` what decided it. What was unscored for want of an input
    (`types.MISSING_INPUT`) stays so; "no claims in the answer" and the like are what an
    abstention is."""
    if outcome not in ABSTENTION_OUTCOMES:
        return list(results)
    wanted = set(names)
    return [MetricResult(**{**dict(r), "value": None, "unscored_reason": None,
                            "abstention": outcome, "abstention_basis": basis,
                            "failure": None})
            if r.name in wanted and r.unscored_reason not in MISSING_INPUT else r
            for r in results]


def with_details(results: Sequence[MetricResult], extra: dict[str, Any]) -> list[MetricResult]:
    """The results with `extra` added to every one's details."""
    if not extra:
        return list(results)
    return [r.model_copy(update={"details": {**r.details, **extra}}) for r in results]


def with_truncated(results: Sequence[MetricResult], item: KeyedSample) -> list[MetricResult]:
    """The results of a sample cut to the context budget, each naming the texts cut
    (`MetricResult.truncated`: contexts, question, answer, reference)."""
    if not item.truncated:
        return list(results)
    cut = tuple(sorted(item.truncated))
    return [r.model_copy(update={"truncated": cut}) for r in results]


def number_contexts(contexts: Sequence[str]) -> str:
    return "\n\n".join(f"[{i}] {c}" for i, c in enumerate(contexts)) if contexts else "(none)"
