"""Routing decisions: each tier's threshold, and which tier decides each sample.

`Case` is one sample as routing sees it: people's verdict (None: unlabelled) and each
tier's `Reading` (None: that tier has not judged it). `calibrate` picks the thresholds
(guarantee mode: fixed-sequence testing per tier on the labelled samples the tiers
below did not decide, delta split evenly over the tiers that get a threshold, so that
by a union bound the whole cascade's guarantee holds with probability 1 - delta);
`route` walks each sample up the tiers. Both are pure: the runner judges what `route`
says is pending and calls it again, `ragassay route` calls them on stored verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ragassay.routing.verdicts import Reading
from ragassay.stats.routing import Threshold, budget_escalated, fixed_sequence
from ragassay.types import RoutingPlan


@dataclass
class Case:
    """One sample: its id, people's verdict in the routed metric's sense, each tier's
    reading (None: not judged by that tier)."""

    sample_id: str
    truth: bool | None
    readings: list[Reading | None] = field(default_factory=list)

    def reading(self, tier: int) -> Reading | None:
        return self.readings[tier] if tier < len(self.readings) else None


@dataclass(frozen=True)
class Routed:
    """Where one sample stands: decided by `tier` (None with `person`: left for a person),
    or waiting for `pending` to judge it."""

    tier: int | None = None
    person: bool = False
    pending: int | None = None


def calibrated_tiers(plan: RoutingPlan) -> int:
    """How many tiers get a threshold: all of them with --abstain, else all but the last
    (which decides whatever reaches it)."""
    n = len(plan.tiers)
    return n if plan.abstain else n - 1


def sure(reading: Reading | None, threshold: float | None) -> bool:
    """Whether a tier decides a sample: a verdict, a confidence, at least the threshold."""
    return (reading is not None and reading.decision is not None and threshold is not None
            and reading.confidence is not None and reading.confidence >= threshold)


def calibrate(cases: Sequence[Case], plan: RoutingPlan) -> list[Threshold | None]:
    """Each tier's threshold (None for a tier that decides whatever reaches it).

    Guarantee mode: fixed-sequence testing on the labelled samples that reach the tier,
    at level delta / (tiers with a threshold). Budget mode with `escalate_below`: that
    bar for every tier but the last (and the last too with --abstain); with
    `escalate_share` thresholds are ranks, computed by `route` (None here)."""
    n, k = len(plan.tiers), calibrated_tiers(plan)
    if plan.mode == "single":
        return [None] * n
    if plan.agreement is None:
        bar = plan.escalate_below
        return [Threshold(value=bar) if bar is not None and i < k else None
                for i in range(n)]
    alpha, delta = 1.0 - plan.agreement, plan.delta / max(1, k)
    remaining = [c for c in cases if c.truth is not None]
    out: list[Threshold | None] = []
    for tier in range(n):
        if tier >= k:
            out.append(None)
            continue
        used = [(r.confidence, r.decision == c.truth) for c in remaining
                if (r := c.reading(tier)) is not None and r.decision is not None
                and r.confidence is not None]
        th = fixed_sequence([u[0] for u in used], [u[1] for u in used], alpha, delta)
        if not used:
            th = Threshold(value=None, reason="gives no confidence on the labelled samples"
                           if any(c.reading(tier) is not None for c in remaining)
                           else "no labelled sample reached it")
        out.append(th)
        remaining = [c for c in remaining if not sure(c.reading(tier), th.value)]
    return out


def route(cases: Sequence[Case], plan: RoutingPlan,
          thresholds: Sequence[Threshold | None]) -> list[Routed]:
    """Where each sample stands (in the order given): the first tier sure of it decides;
    the last decides whatever reaches it unless --abstain (then: a person); a sample a
    tier must judge first is `pending` on it. With `escalate_share`, a tier's least
    confident share goes up, once every sample that reaches it has been judged by it."""
    n = len(plan.tiers)
    k = calibrated_tiers(plan)
    out: list[Routed | None] = [None] * len(cases)
    reach = list(range(len(cases)))
    share = plan.escalate_share if plan.agreement is None else None
    for tier in range(n):
        waiting = [i for i in reach if cases[i].reading(tier) is None]
        for i in waiting:
            out[i] = Routed(pending=tier)
        settled = [i for i in reach if (r := cases[i].reading(tier)) is not None and r.settled]
        for i in settled:  # unscored for want of an input: going up changes nothing
            out[i] = Routed(tier=tier)
        reach = [i for i in reach if i not in set(settled)]
        if waiting and share is not None and tier < k:
            return [r or Routed(pending=tier) for r in out]  # ranks need them all judged
        judged = [i for i in reach if cases[i].reading(tier) is not None]
        if tier >= k or plan.mode == "single":
            for i in judged:
                out[i] = Routed(tier=tier)
            reach = []
            break
        if share is not None:
            up = budget_escalated([_conf(cases[i].reading(tier)) for i in judged], share)
            stay = [i for i, u in zip(judged, up, strict=True)
                    if not u and _decided(cases[i].reading(tier))]
        else:
            th = thresholds[tier]
            value = th.value if th is not None else None
            stay = [i for i in judged if sure(cases[i].reading(tier), value)]
        for i in stay:
            out[i] = Routed(tier=tier)
        kept = set(stay)
        reach = [i for i in judged if i not in kept]
    for i in reach:  # past the last tier: --abstain
        out[i] = Routed(person=True)
    return [r if r is not None else Routed(person=True) for r in out]


def _conf(reading: Reading | None) -> float | None:
    return None if reading is None or reading.decision is None else reading.confidence


def _decided(reading: Reading | None) -> bool:
    return reading is not None and reading.decision is not None
