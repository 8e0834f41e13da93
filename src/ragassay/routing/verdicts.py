"""What routing reads of a tier's verdict: the yes/no verdict on the routed metric, and
the judge's confidence in it; which metric is routed on and which label it is compared
with.

The confidence is the judge's own probability that its verdict is the right one:
- the offline judge: its calibrated probability (a flag's `p_true` is the probability
  its support model gives; a 1-10 rating is 1 + 9p of its calibrated probability p, so
  the rating's place on the scale is read back as p);
- an LLM judge: a flag's token probability (`p_true`), a rating's distribution (the
  probability mass on the verdict's side of the scale's midpoint); none when the backend
  gave no token probabilities (`--ratings greedy`, a server without logprobs);
- a jury: the same readings of its combined verdict (`metrics.jury`: the jurors' mean
  P(true), their mean rating distribution).
A rating's yes/no verdict is its side of the scale's midpoint (5.5 on 1-10); a grade
label's is its side of its own midpoint (TREC relevance 2-3 relevant, 0-1 not).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ragassay.labels import VOCABULARY, canonical, linked_metrics, lookup
from ragassay.types import MISSING_INPUT, MetricResult, MetricSpec, Tier, is_offline

TierKind = Literal["offline", "llm", "jury"]


def tier_kind(tier: Tier) -> TierKind:
    """How a tier's confidences are read: the offline judge's, an LLM's or a jury's."""
    if tier.is_jury:
        return "jury"
    return "offline" if is_offline(tier.judges[0]) else "llm"


@dataclass(frozen=True)
class Reading:
    """A tier's verdict on one sample: `decision` (None: unscored) and the judge's
    probability that it is right (None: the judge gave none)."""

    decision: bool | None
    confidence: float | None = None
    settled: bool = False  # unscored for want of an input: no tier can do better


@dataclass(frozen=True)
class Target:
    """The metric routed on, and the label (canonical name) it is compared with; a label
    `inverted` says no where the metric says yes (`faithful` vs a hallucination flag)."""

    spec: MetricSpec
    label: str | None = None
    inverted: bool = False

    @property
    def metric(self) -> str:
        return self.spec.name

    def truth(self, labels: Mapping[str, Any]) -> bool | None:
        """People's verdict in the metric's sense, from a sample's labels (any name or
        alias of the target label), or None when it has none."""
        if self.label is None:
            return None
        for name, value in labels.items():
            if canonical(name) == self.label and value is not None:
                said = label_verdict(self.label, value)
                return None if said is None else said != self.inverted
        return None


def label_verdict(label: str, value: Any) -> bool | None:
    """A label value as yes/no: a flag as given, a grade by its side of its midpoint."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, int | float):
        return None
    kind = lookup(label)
    low, high = (kind.low, kind.high) if kind else (0.0, 1.0)
    return float(value) >= (low + high) / 2


def _midpoint(spec: MetricSpec) -> float:
    return (spec.low + spec.high) / 2


def read(result: MetricResult | None, spec: MetricSpec, kind: TierKind) -> Reading:
    """A tier's verdict on the routed metric and its confidence (module docstring)."""
    if result is None or result.value is None:
        return Reading(None, settled=result is not None
                       and result.unscored_reason in MISSING_INPUT)
    rating = result.rating
    if spec.kind == "bool":
        decision = float(result.value) >= 0.5
        p = rating.p_true if rating is not None else None
        if p is None and kind == "offline":  # the offline suite's own record of it
            p = result.details.get("p_true")
        if not isinstance(p, int | float):
            return Reading(decision)
        return Reading(decision, float(p) if decision else 1.0 - float(p))
    mid = _midpoint(spec)
    decision = float(result.value) >= mid
    dist = rating.distribution if rating is not None else None
    if dist:
        mass = sum(float(p) for p in dist.values())
        yes = sum(float(p) for r, p in dist.items() if float(r) >= mid)
        if mass > 0:
            p_yes = yes / mass
            return Reading(decision, p_yes if decision else 1.0 - p_yes)
    if kind == "offline":  # its rating is its calibrated probability on the scale
        p = min(1.0, max(0.0, spec.normalise(float(result.value))))
        return Reading(decision, max(p, 1.0 - p))
    return Reading(decision)


def confidence_basis(kind: TierKind, spec: MetricSpec, any_confidence: bool) -> str:
    """What a tier's confidence is, in words (the report says which)."""
    if not any_confidence:
        return ("none: the judge gave no token probabilities (it decides only what reaches "
                "it last)")
    if kind == "offline":
        return "the offline judge's calibrated probability of its verdict"
    if kind == "jury":
        return ("the jurors' mean probability of the verdict" if spec.kind == "bool" else
                "the jurors' mean rating distribution's mass on the verdict's side")
    if spec.kind == "bool":
        return "the token probability of the stated verdict"
    return ("the probability-weighted rating's mass on the verdict's side of the scale's "
            "midpoint")


def _label_order(names: Iterable[str]) -> list[str]:
    known = [k.name for k in VOCABULARY]
    found = {canonical(n) for n in names}
    return [n for n in known if n in found] + sorted(found - set(known))


def choose_target(specs: Sequence[MetricSpec], label_names: Iterable[str],
                  wanted: str | None = None) -> Target:
    """The metric routed on: `wanted` when given (ValueError: not one of the run's); else
    the one the labels present link to (a flag first), else the run's first flag, else
    its first metric. The label is the first present one linked to it."""
    by_name = {s.name: s for s in specs}
    plain = [s for s in specs if s.composite is None]
    labels = _label_order(label_names)
    if wanted is not None:
        if wanted not in by_name:
            raise ValueError(f"--route-on {wanted} is not a metric of this run "
                             f"({', '.join(by_name)})")
        for label in labels:
            for metric, inverted in linked_metrics(label, [by_name[wanted]]):
                return Target(by_name[metric], label, inverted)
        return Target(by_name[wanted])
    for label in labels:
        links = linked_metrics(label, plain)
        links.sort(key=lambda link: by_name[link[0]].kind != "bool")
        if links:
            metric, inverted = links[0]
            return Target(by_name[metric], label, inverted)
    flags = [s for s in specs if s.kind == "bool"]
    if flags:
        return Target(flags[0])
    if not plain:
        raise ValueError("the run has no metric to route on")
    return Target(plain[0])
