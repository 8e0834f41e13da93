"""The routing benchmark's label/test splits, over the product's own routing code.

Each split labels a random share of a set's rows (the labelled samples a person would
give) and routes the rest (the test rows, their labels unseen) with `routing.calibrate`
and `routing.route`, exactly as a routed run does. Per split: the share of test rows
that went past tier 0, the agreement with people on the test rows each part decided,
whether the guaranteed part met the target (the guarantee's coverage is the share of
splits where it did; vacuous splits, where no test row was decided with a guarantee,
count as met and are counted apart), and the tier-1 calls against tier 1 alone.

The test rows of a disjoint split are the rest of a finite set: when the labelled half
happens to agree with people more than the set does, the test half agrees less, so the
split's check is harsher than the guarantee (a statement about the population the
labelled samples are drawn from) and noisier on small sets. Each split also runs the
guarantee's own check with the set as the population (`_population_held`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ragassay.routing import Case, calibrate, calibrated_tiers, route
from ragassay.types import RoutingPlan


@dataclass
class SplitFigures:
    """One plan over many splits of one set: per-split figures, summarised by `row`."""

    escalated: list[float] = field(default_factory=list)
    person: list[float] = field(default_factory=list)
    guaranteed_share: list[float] = field(default_factory=list)
    guaranteed_agreement: list[float] = field(default_factory=list)
    all_agreement: list[float] = field(default_factory=list)
    held: list[bool] = field(default_factory=list)
    vacuous: int = 0
    tier1_calls: list[float] = field(default_factory=list)
    held_population: list[bool] = field(default_factory=list)

    def row(self) -> dict[str, float | int | None]:
        def mean(xs: Sequence[float]) -> float | None:
            return float(np.mean(xs)) if xs else None
        return {"splits": len(self.held), "escalated": mean(self.escalated),
                "person": mean(self.person),
                "guaranteed share": mean(self.guaranteed_share),
                "agreement guaranteed": mean(self.guaranteed_agreement),
                "agreement all decided": mean(self.all_agreement),
                "coverage": mean([float(h) for h in self.held]), "vacuous": self.vacuous,
                "coverage (set as population)": mean([float(h) for h in self.held_population]),
                "tier-1 calls vs alone": mean(self.tier1_calls)}


def _agrees(case: Case, tier: int) -> bool:
    reading = case.reading(tier)
    return reading is not None and reading.decision == case.truth


def _population_held(cases: Sequence[Case], plan: RoutingPlan, n_label: int,
                     rng: random.Random) -> bool:
    """The theorem's own check, with the set as the population: n labelled draws with
    replacement choose the thresholds; the agreement on every row of the set the
    guaranteed tiers decide (the population's, no test noise) must reach the target."""
    labelled = [rng.choice(cases) for _ in range(n_label)]
    unlabelled = [Case(c.sample_id, None, c.readings) for c in cases]
    routed = route(unlabelled, plan, calibrate(labelled, plan))
    k = calibrated_tiers(plan)
    sure = [c.reading(r.tier).decision == c.truth  # type: ignore[union-attr]
            for c, r in zip(cases, routed, strict=True) if r.tier is not None and r.tier < k]
    return not sure or float(np.mean(sure)) >= (plan.agreement or 0.0) - 1e-12


def simulate(cases: Sequence[Case], plan: RoutingPlan, label_share: float, splits: int,
             seed: int) -> SplitFigures:
    """The plan over `splits` random label/test splits of `cases` (each with a truth and
    every tier's reading); and as many population checks (`_population_held`)."""
    rng = random.Random(seed)
    out = SplitFigures()
    k = calibrated_tiers(plan)
    alpha = 1.0 - (plan.agreement or 0.0)
    n_label = round(label_share * len(cases))
    for _ in range(splits):
        order = list(cases)
        rng.shuffle(order)
        labelled = order[:n_label]
        test = [Case(c.sample_id, None, c.readings) for c in order[n_label:]]
        truth = [c.truth for c in order[n_label:]]
        routed = route(test, plan, calibrate(labelled, plan))
        decided = [(c, t, r.tier) for c, t, r in zip(test, truth, routed, strict=True)
                   if r.tier is not None]
        hits = [c.reading(tier).decision == t for c, t, tier in decided  # type: ignore[union-attr]
                if c.reading(tier) is not None]
        sure = [c.reading(tier).decision == t for c, t, tier in decided  # type: ignore[union-attr]
                if tier < k]
        n = len(test)
        out.escalated.append(sum(r.tier != 0 for r in routed) / n)
        out.person.append(sum(r.person for r in routed) / n)
        out.guaranteed_share.append(len(sure) / n)
        if sure:
            out.guaranteed_agreement.append(float(np.mean(sure)))
            out.held.append(float(np.mean(sure)) >= 1.0 - alpha - 1e-12)
        else:
            out.vacuous += 1
            out.held.append(True)
        if hits:
            out.all_agreement.append(float(np.mean(hits)))
        up = sum(1 for r in routed if r.tier is not None and r.tier >= 1 or r.person)
        out.tier1_calls.append((n_label + up) / len(cases))
        out.held_population.append(_population_held(cases, plan, n_label, rng))
    return out


def alone(cases: Sequence[Case], tier: int) -> float | None:
    """A tier's agreement with people on every row, deciding everything."""
    hits = [_agrees(c, tier) for c in cases if c.truth is not None]
    return float(np.mean(hits)) if hits else None
