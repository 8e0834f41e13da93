"""Interpretation flags: compare metric means with targets (good / ok / warning).

A metric's target comes from its spec (`MetricSpec.target`, on the metric's own scale,
e.g. the judge suite's scoring guide: faithfulness >= 9 good, < 7 warning), or from
`FlagsConfig.targets` when given there. A target is used only when it lies inside the
metric's declared range (a metric declared on 0-1 falls back to the generic rule). Every
other metric gets the generic rule: `unit_good` / `unit_warning` (defaults 0.8 / 0.6) of
its range, mirrored for lower-is-better metrics, mapped onto the metric's own scale. A
target is always said on the scale of the value it is compared with (`target_for`), by
every reader: the console, the HTML report and the dashboard show the flag's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ragassay.stats.result import Result
from ragassay.types import MetricSpec
from ragassay.types import Target as SpecTarget

Level = Literal["good", "ok", "warning"]


class Flag(Result):
    """One interpretation flag: a metric's mean on a scope ("overall" or
    "strategy:<name>") and its level against the target, said in `message`."""

    metric: str
    scope: str
    value: float
    level: Level
    message: str

    def beside(self, aside: str, base: str = "") -> str:
        """The message with `base` (what the figure is of) after the value and `aside` in
        brackets after that, before where it stands: `METRIC rate 0.644 of 131 scored
        answers; 13 read as declines set aside (judge; people 0.556 [0.474, 0.637]): above
        the warning line 0.2 (target <= 0.1)`; the message as it is without either."""
        head, sep, verdict = self.message.partition(": ")
        if not sep:
            return self.message
        return (head + (f" {base}" if base else "") + (f" ({aside})" if aside else "")
                + sep + verdict)


def wrong_side_text(n: int, more: bool = False) -> str:
    """How many metrics a warning flags, true of either direction (trial 64: "3 below
    their target's warning level" counted a hallucination rate above its line): `3 on
    the wrong side of their warning line`, `none on the wrong side of its warning line`;
    `more`: `3 more on ...` (those past a list)."""
    return (f"{n or 'none'}{' more' if more else ''} on the wrong side of "
            f"{'their' if n > 1 else 'its'} warning line")


def level_text(level: str, higher_is_better: bool = True) -> str:
    """A flag's level in `Target.verdict`'s words, short, ranked as the levels are:
    `meets target`, `misses target`, `misses target, below warning line` (above, where
    lower is better): the worse says the milder's words and more (trial 72: the HTML's
    `warning` read milder than its `short of target`, though it is the worse, and the gate
    fails both). Any other text is returned as it is."""
    side = "below" if higher_is_better else "above"
    return {"good": "meets target", "ok": "misses target",
            "warning": f"misses target, {side} warning line"}.get(level, level)


@dataclass(frozen=True)
class Target:
    """Raw-scale thresholds: good at/above `good`, warning below `warning`
    (at/below and above when not higher_is_better)."""

    good: float
    warning: float
    higher_is_better: bool = True

    def level(self, value: float) -> Level:
        if self.higher_is_better:
            if value >= self.good:
                return "good"
            return "warning" if value < self.warning else "ok"
        if value <= self.good:
            return "good"
        return "warning" if value > self.warning else "ok"

    def describe(self) -> str:
        if self.higher_is_better:
            return f"target >= {self.good:g}, warning below {self.warning:g}"
        return f"target <= {self.good:g}, warning above {self.warning:g}"

    def verdict(self, value: float) -> str:
        """Where `value` stands, in words: `below the warning line 6 (target >= 8)`,
        `misses the target >= 8 (warning below 6)`, `meets the target >= 8`."""
        side, rel = ("below", ">=") if self.higher_is_better else ("above", "<=")
        target = f"the target {rel} {self.good:g}"
        level = self.level(value)
        if level == "good":
            return f"meets {target}"
        if level == "warning":
            return f"{side} the warning line {self.warning:g} ({target.removeprefix('the ')})"
        return f"misses {target} (warning {side} {self.warning:g})"


@dataclass(frozen=True)
class FlagsConfig:
    """Targets per metric (raw scale) overriding the specs' own, and the generic
    thresholds on 0-1."""

    targets: Mapping[str, Target] = field(default_factory=dict)
    unit_good: float = 0.8
    unit_warning: float = 0.6


def target_for(spec: MetricSpec, config: FlagsConfig | None = None) -> Target:
    """The target a metric's mean is judged against, on the metric's own scale: the
    config's, else the spec's own (`MetricSpec.target`) when it lies inside the metric's
    range, else the generic rule (`unit_good` / `unit_warning` of the range, mirrored for
    lower-is-better metrics) mapped onto the range, so that a 0-10 metric's generic
    target reads 8, never 0.8. The gate's default bar is its `good` (`stats.gate`)."""
    config = config or FlagsConfig()
    declared = spec.target
    t = config.targets.get(spec.name) or (
        Target(declared.good, declared.warning, spec.higher_is_better) if declared else None)
    lo, hi = min(spec.low, spec.high), max(spec.low, spec.high)
    if t is not None and lo <= t.good <= hi and lo <= t.warning <= hi:
        return t
    good, warning = config.unit_good, config.unit_warning
    if not spec.higher_is_better:
        good, warning = 1 - good, 1 - warning
    # rounded (`on_scale`): 1 - 0.8 is 0.19999999999999996 in floats, and 0.2 must meet
    # "<= 0.2"
    return Target(spec.on_scale(good), spec.on_scale(warning), spec.higher_is_better)


def with_target(spec: MetricSpec) -> MetricSpec:
    """The spec with the target every reader judges its mean against (`target_for`) as its
    `target`: the report's `metric_specs` say what the flags, the console and the gate
    say, also for a metric that declares none (the generic rule) or one off its range."""
    t = target_for(spec)
    return spec.model_copy(update={"target": SpecTarget(good=t.good, warning=t.warning)})


def flag(spec: MetricSpec, value: float, scope: str, config: FlagsConfig) -> Flag:
    """The flag of a metric mean, its target said on the scale of the mean."""
    target = target_for(spec, config)
    level = target.level(value)
    where = "" if scope == "overall" else f" ({scope})"
    message = f"{spec.name} {spec.aggregation} {value:.3g}{where}: {target.verdict(value)}"
    return Flag(metric=spec.name, scope=scope, value=value, level=level, message=message)


def interpretation(
    overall: Mapping[str, float | None],
    specs: Mapping[str, MetricSpec],
    per_strategy: Mapping[str, Mapping[str, float | None]] | None = None,
    config: FlagsConfig | None = None,
) -> list[Flag]:
    """Flags for the overall means and, when given, each strategy's means.

    `overall` and each `per_strategy[name]` map qualified metric -> mean (None
    = nothing scored, no flag). Strategy flags use scope "strategy:<name>".
    """
    config = config or FlagsConfig()
    flags = [
        flag(specs[m], v, "overall", config)
        for m, v in overall.items()
        if v is not None and m in specs
    ]
    for name, means in (per_strategy or {}).items():
        flags.extend(
            flag(specs[m], v, f"strategy:{name}", config)
            for m, v in means.items()
            if v is not None and m in specs
        )
    return flags
