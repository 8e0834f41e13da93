"""A routed run as routing sees it, read from the store: each sample's label and each
tier's verdict on the routed metric, the thresholds, where each sample stands, what is
still to judge, and the routed verdicts to write."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ragassay.labels import resolve_all
from ragassay.routing.decide import Case, Routed, calibrate, route
from ragassay.routing.verdicts import Reading, Target, TierKind, choose_target, read, tier_kind
from ragassay.stats.routing import Threshold
from ragassay.store import PreparedResult, Store, prepare_result
from ragassay.types import (
    MISSING_INPUT,
    LabelRule,
    MetricResult,
    MetricSpec,
    RoutingPlan,
    Sample,
    SampleResult,
    SampleRouting,
    Usage,
)


class RoutingError(ValueError):
    """A routed run that cannot go on as set up (one line: what to do)."""


FOR_A_PERSON = ("left for a person: no judge was sure enough (--abstain); label it with "
                "ragassay annotate")


@dataclass
class RoutingState:
    """The run's routing inputs and the decisions they lead to (computed on demand)."""

    plan: RoutingPlan
    target: Target
    kinds: list[TierKind]
    cases: list[Case]
    verdicts: dict[tuple[int, str], dict[str, SampleResult]]
    suites: list[str]
    specs: dict[str, MetricSpec] = field(default_factory=dict)

    @cached_property
    def thresholds(self) -> list[Threshold | None]:
        return calibrate(self.cases, self.plan)

    @cached_property
    def routed(self) -> list[Routed]:
        return route(self.cases, self.plan, self.thresholds)

    @property
    def labelled(self) -> list[Case]:
        return [c for c in self.cases if c.truth is not None]

    def check(self) -> None:
        """RoutingError when the plan needs what the run lacks: --agreement without any
        labelled sample for the routed metric."""
        if self.plan.mode == "guarantee" and not self.labelled:
            what = f"a {self.target.label!r} label" if self.target.label else \
                f"a label linked to {self.target.metric}"
            raise RoutingError(
                f"--agreement needs people's labels: no sample has {what} (give --labels "
                "FILE, label some with ragassay annotate RUN, or route on a budget: "
                "--escalate-share 0.3); the first tier's verdicts are kept for --resume")

    def needed(self) -> tuple[int, set[str]] | None:
        """The lowest tier that must judge something before the routing is final, and
        what: in guarantee mode every tier judges the labelled samples first; then what
        the tiers below were not sure of. None: every sample is decided."""
        if self.plan.mode == "guarantee":
            for tier in range(len(self.plan.tiers)):
                ids = {c.sample_id for c in self.labelled if c.reading(tier) is None}
                if ids:
                    return tier, ids
        pending: dict[int, set[str]] = {}
        for case, where in zip(self.cases, self.routed, strict=True):
            if where.pending is not None and case.reading(where.pending) is None:
                pending.setdefault(where.pending, set()).add(case.sample_id)
        if not pending:
            return None
        tier = min(pending)
        return tier, pending[tier]

    def sample_routing(self) -> dict[str, SampleRouting]:
        """Each decided sample's deciding tier (None: a person) and its confidences."""
        out = {}
        for case, where in zip(self.cases, self.routed, strict=True):
            if where.pending is not None:
                continue
            tier = where.tier
            out[case.sample_id] = SampleRouting(
                tier=tier, judge=None if tier is None else self.plan.tiers[tier].name,
                confidences=tuple(None if (r := case.reading(t)) is None
                                  or r.confidence is None else round(r.confidence, 4)
                                  for t in range(len(self.plan.tiers))))
        return out


def _labels(sample: Sample, stored: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """A sample's labels: its own (from the data), with the store's on top."""
    out = dict(sample.labels)
    for name, label in stored.get(sample.content_key, {}).items():
        out[name] = getattr(label, "value", label)
    return out


def load_state(store: Store, run_id: str, plan: RoutingPlan) -> RoutingState:
    """The routing state of a run from its stored samples, labels and tier verdicts."""
    run = store.get_run(run_id)
    specs = run.spec_map()
    samples = [s for s in store.iter_samples(run_id) if isinstance(s, Sample)]
    # several people's labels of a sample: their majority (a tie: none)
    stored = resolve_all(store.people_labels(s.content_key for s in samples), LabelRule())
    labels = {s.id: _labels(s, stored) for s in samples}
    names = {n for ls in labels.values() for n, v in ls.items() if v is not None}
    target = choose_target(list(specs.values()), names, plan.verdict)
    verdicts: dict[tuple[int, str], dict[str, SampleResult]] = {}
    for tier, result in store.iter_tier_results(run_id):
        verdicts.setdefault((tier, result.sample_id), {})[result.suite] = result
    kinds = [tier_kind(t) for t in plan.tiers]
    suite = target.spec.suite
    cases = []
    for s in samples:
        readings: list[Reading | None] = []
        for tier, kind in enumerate(kinds):
            got = verdicts.get((tier, s.id), {}).get(suite)
            if got is None:
                readings.append(None)
                continue
            metric = next((m for m in got.results if m.name == target.metric), None)
            readings.append(read(metric, target.spec, kind))
        cases.append(Case(s.id, target.truth(labels[s.id]), readings))
    suites = list(dict.fromkeys(spec.suite for spec in specs.values()))
    return RoutingState(plan, target, kinds, cases, verdicts, suites, specs)


def routed_results(state: RoutingState, routed: Mapping[str, SampleRouting]
                   ) -> list[PreparedResult]:
    """Each decided sample's results as its deciding tier gave them (every suite), with
    the usage of every tier that judged it, so that the run's usage counts every call; a
    sample left for a person is unscored (`FOR_A_PERSON`)."""
    out = []
    for case in state.cases:
        where = routed.get(case.sample_id)
        if where is None:
            continue
        tiers = [t for t in range(len(state.plan.tiers))
                 if (t, case.sample_id) in state.verdicts]
        for suite in state.suites:
            given = [state.verdicts[(t, case.sample_id)][suite] for t in tiers
                     if suite in state.verdicts[(t, case.sample_id)]]
            if not given:
                continue
            usage = sum((g.usage for g in given), Usage())
            if where.tier is None:
                result = given[-1].model_copy(update={"results": tuple(
                    m if m.unscored_reason in MISSING_INPUT else
                    MetricResult(name=m.name, value=None, unscored_reason=FOR_A_PERSON)
                    for m in given[-1].results), "reasoning": None})
            else:
                result = state.verdicts[(where.tier, case.sample_id)].get(suite, given[-1])
            out.append(prepare_result(result.model_copy(update={"usage": usage})))
    return out
