"""A metric's declaration (`MetricSpec`), with its target, diagnostics rules and composite
rule: everything about a metric, declared once next to its formula in `metrics/<suite>/`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from ragassay.types.base import Frozen


def default_label(name: str) -> str:
    """`judge.context_relevance` -> `Context relevance (judge)`."""
    suite, _, short = name.partition(".")
    if not short:
        return name.replace("_", " ").capitalize()
    return f"{short.replace('_', ' ').capitalize()} ({suite})"


class Target(Frozen):
    """Interpretation thresholds on a metric's own scale: good at/above `good`, warning
    below `warning` (at/below and above for lower-is-better metrics)."""

    good: float
    warning: float


class Condition(Frozen):
    """One side of a diagnostics rule: a metric, normalised to 0-1, below / at least a value."""

    metric: str
    op: Literal["<", ">="]
    threshold: float

    def excess(self, x: float) -> float | None:
        """How far past the threshold x is (>= 0) when the condition holds, else None."""
        if self.op == "<":
            return self.threshold - x if x < self.threshold else None
        return x - self.threshold if x >= self.threshold else None


def below(metric: str, threshold: float) -> Condition:
    """The metric (normalised to 0-1) is below `threshold`."""
    return Condition(metric=metric, op="<", threshold=threshold)


def at_least(metric: str, threshold: float) -> Condition:
    """The metric (normalised to 0-1) is at least `threshold`."""
    return Condition(metric=metric, op=">=", threshold=threshold)


def _empty(value: object) -> bool:
    """An empty tuple, or False: a field left out of the JSON at its default."""
    return not value


def _none(value: object) -> bool:
    return value is None


class Rule(Frozen):
    """A diagnostics rule: a conjunction of conditions that points at one RAG failure.

    `unless`: a conjunction that clears a sample of it, evidence against the failure the
    rule points at (a supported answer clears retrieval); a sample lacking one of its
    values (an answer that abstained) is not cleared. Left out of the JSON when empty, so
    that a rule without one reads as it was stored."""

    name: str
    conditions: tuple[Condition, ...]
    message: str
    fix: str
    unless: tuple[Condition, ...] = Field(default=(), exclude_if=_empty)

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics the rule fires on: every sample it evaluates has each of them."""
        return tuple(c.metric for c in self.conditions)


class Composite(Frozen):
    """A metric computed from others: sum(w_i * part_i) / sum(w_i present) * (1 - penalty).

    Parts without a value are left out and the remaining weights rescaled; without a
    `required` part or the penalty there is no value. The one rule for the judge suite's
    `overall`, per sample (floats) and per strategy (means, or bootstrap arrays).
    """

    weights: dict[str, float]
    penalty: str | None = None
    required: tuple[str, ...] = ()

    def combine(self, values: Mapping[str, Any]) -> tuple[Any, dict[str, float]]:
        """(value, weights used); value None when a required part or the penalty is missing.
        Values may be floats or numpy arrays (element-wise)."""
        present = {k: v for k, v in ((k, values.get(k)) for k in self.weights) if v is not None}
        penalty = values.get(self.penalty) if self.penalty else 0.0
        if penalty is None or not present or any(values.get(r) is None for r in self.required):
            return None, {}
        total = sum(self.weights[k] for k in present)
        weights = {k: self.weights[k] / total for k in present}
        base = sum(weights[k] * v for k, v in present.items())
        return base * (1.0 - penalty), weights


class LinkedLabel(Frozen):
    """A human label (by its vocabulary name: `hallucinated`, `faithful`, `correct`,
    `relevance`) a metric is compared with; `inverted`: a high value of the metric means a
    False / low label (faithfulness against `hallucinated`)."""

    label: str
    inverted: bool = False


class MetricSpec(Frozen):
    """Everything about a metric, declared once next to its formula in `metrics/<suite>/`:
    name, label, range and direction, whether it gives a yes/no verdict, how it
    aggregates, its interpretation target, its default gate threshold, its place in
    headlines and leaderboards, the diagnostics rules it leads, the human labels it is
    compared with, and (for a composite) how it is computed from other metrics.

    Specs are stored with each run, so that a report reads a run with the definitions it
    was scored with; `stats`, `report`, `ui` and `bench` hold no metric names.
    """

    name: str  # qualified: "judge.faithfulness"
    label: str = ""  # display label; derived from the name when empty
    low: float = 0.0
    high: float = 1.0
    kind: Literal["score", "bool"] = "score"
    # a score whose every value is a yes/no verdict, 0 or 1 by its formula (trace.adherence:
    # 1 when every answer sentence is supported), read as one like a "bool" metric: its
    # verdicts are counted against people's yes/no labels (`gives_verdict`)
    verdict: bool = False
    higher_is_better: bool = True
    description: str = ""
    target: Target | None = None  # interpretation on the raw scale (else a generic rule)
    # the default release-gate bar (None: the target's `good`, as `stats.gate.
    # default_thresholds` reads it: every metric is gated by default); declared `gate=True`:
    # the target's `good` too. A number is a bar of its own: a run stored before gate=True
    # kept its bar, which the gate says beside the target (cli `gate`).
    gate: float | None = None
    # the target under a judge whose values are soft (the offline judge: a mean of its
    # probabilities, docs/metrics.md), not verdicts or an LLM's ratings: the judge's own
    # line for the metric's verdict (`metrics.base.judge_line`), which a grounded answer
    # reaches, where `target` is set for an LLM judge's scale. None: `target` holds under
    # every judge (a yes/no verdict's rate: each verdict is drawn at the judge's line)
    soft_target: Target | None = Field(default=None, exclude_if=_none)
    # `target` (and a `gate` taken from it) is the `soft_target`: the spec as a run of a
    # soft judge stores it (`on_soft_judge`), so that every reader of the run's specs, eval's
    # flags, the report and the gate, reads the one target
    soft: bool = Field(default=False, exclude_if=_empty)
    headline: int | None = None  # position in narrow summaries (lower first; None: not shown)
    rank: int | None = None  # preference as the leaderboard's ranking metric (lower first)
    rules: tuple[Rule, ...] = ()  # diagnostics rules whose first condition is on this metric
    composite: Composite | None = None
    # the human labels it is compared with (calibration, corrected estimates, annotation);
    # the links of one direction before the inverted ones (`labels.linked_metrics`)
    labels: tuple[LinkedLabel, ...] = ()
    # the practical-equivalence margin, on the metric's own scale: two runs or strategies
    # whose mean difference is shown (TOST) to lie within +-equivalence are "equivalent";
    # None: 2.5% of the range (`stats.effect.margin_for`); `--equivalence` overrides it
    equivalence: float | None = Field(default=None, gt=0)

    @model_validator(mode="before")
    @classmethod
    def _gate_at_target(cls, data: Any) -> Any:
        """`gate=True`: the bar is the declared target's `good`; a spec without a target
        declares its bar as a number (there is no target to take it from)."""
        if isinstance(data, dict) and data.get("gate") is True:
            target = data.get("target")
            good = target.get("good") if isinstance(target, dict) else getattr(
                target, "good", None)
            if good is None:
                raise ValueError(f"{data.get('name')}: gate=True needs a declared target")
            data = {**data, "gate": good}
        return data

    def on_soft_judge(self) -> MetricSpec:
        """The spec as a run of a judge with soft values stores it: its `soft_target` as
        its target, and as its gate bar where that bar is the target's (`gate=True`); itself
        when it declares none."""
        t = self.soft_target
        if t is None or self.soft:
            return self
        gate = self.gate
        if gate is not None and self.target is not None and gate == self.target.good:
            gate = t.good
        return self.model_copy(update={"target": t, "gate": gate, "soft": True})

    @property
    def suite(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def short(self) -> str:
        """The name without its suite: `faithfulness`."""
        return self.name.split(".", 1)[-1]

    @property
    def display_label(self) -> str:
        return self.label or default_label(self.name)

    @property
    def gives_verdict(self) -> bool:
        """Whether each value is a yes/no verdict (a "bool" metric, or a score declared
        `verdict`), not a score a threshold of ours would turn into one: decided by the
        declaration, never by the values a run happens to have."""
        return self.kind == "bool" or self.verdict

    @property
    def aggregation(self) -> Literal["mean", "rate"]:
        """What its figure over samples is called: a yes/no verdict's (`gives_verdict`)
        `rate` (the share of yes), else a score's `mean`; every reader says it so."""
        return "rate" if self.gives_verdict else "mean"

    def normalise(self, value: float) -> float:
        """Map a value onto 0-1 using the declared range."""
        if self.high == self.low:
            return float(value)
        return (float(value) - self.low) / (self.high - self.low)

    def on_scale(self, unit: float) -> float:
        """A point of 0-1 on the declared range (the inverse of `normalise`): 0.5 of 1-10
        is 5.5; rounded, so that 0.7 of it reads 7.3 (not 7.299999999999999)."""
        span = self.high - self.low
        return round(self.low + unit * span if span else float(unit), 12)
