"""The routing summary of a routed run (the report's `routing` section) from its state:
per tier its judge, confidence, threshold, samples judged and decided, calls, tokens and
cost, agreement with the labels; the share escalated, the guarantee's status, the cost
against the last tier alone, and what a re-routing would still need judged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ragassay.routing.decide import Case, calibrated_tiers
from ragassay.routing.state import RoutingState, load_state, routed_results
from ragassay.routing.verdicts import Reading, confidence_basis
from ragassay.store import Store
from ragassay.types import (
    ConfidenceRanking,
    CostEstimate,
    JurorSummary,
    PendingCalls,
    RoutingPlan,
    RoutingSummary,
    SampleRouting,
    TierSummary,
    Usage,
)

TierUsage = Mapping[int, tuple[int, Usage]]


DIGITS = 4  # agreements, bounds and shares as the report publishes them


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, DIGITS)


def _share(hits: Sequence[bool]) -> float | None:
    return _round(sum(hits) / len(hits)) if hits else None


def _agree(case: Case, reading: Reading | None) -> bool | None:
    if case.truth is None or reading is None or reading.decision is None:
        return None
    return reading.decision == case.truth


def _jurors(state: RoutingState, tier: int) -> tuple[JurorSummary, ...]:
    """Each juror's agreement with the labels, from its votes kept in the jury's verdict."""
    plan_tier = state.plan.tiers[tier]
    if not plan_tier.is_jury:
        return ()
    spec, suite = state.target.spec, state.target.spec.suite
    hits: dict[str, list[bool]] = {j: [] for j in plan_tier.judges}
    for case in state.cases:
        if case.truth is None:
            continue
        result = state.verdicts.get((tier, case.sample_id), {}).get(suite)
        metric = next((m for m in result.results if m.name == spec.name), None) \
            if result is not None else None
        votes = metric.details.get("jury", {}) if metric is not None else {}
        for juror, value in votes.items():
            if juror in hits and isinstance(value, bool | int | float):
                said = bool(value) if spec.kind == "bool" else \
                    float(value) >= (spec.low + spec.high) / 2
                hits[juror].append(said == case.truth)
    return tuple(JurorSummary(judge=j, labelled=len(h), agreement=_share(h))
                 for j, h in hits.items())


def _ranking(state: RoutingState, tier: int) -> ConfidenceRanking | None:
    """How well the tier's confidence ranks its own errors on the labelled samples it
    gave a verdict and a confidence on (None: none such)."""
    from ragassay.stats.agreement import auroc, auroc_ci

    pairs = [(r.confidence, r.decision == c.truth) for c in state.cases
             if c.truth is not None and (r := c.reading(tier)) is not None
             and r.decision is not None and r.confidence is not None]
    if not pairs:
        return None
    confs, right = [p[0] for p in pairs], [p[1] for p in pairs]
    area = auroc(confs, right)
    ci = auroc_ci(confs, right) if area is not None else None
    return ConfidenceRanking(labelled=len(pairs), wrong=right.count(False),
                             auroc=_round(area), auroc_low=_round(ci and ci[0]),
                             auroc_high=_round(ci and ci[1]))


def _tier(state: RoutingState, tier: int, usage: TierUsage) -> TierSummary:
    judged, used = usage.get(tier, (0, Usage()))
    readings = [c.reading(tier) for c in state.cases]
    labelled = [a for c in state.cases if (a := _agree(c, c.reading(tier))) is not None]
    decided = [c for c, r in zip(state.cases, state.routed, strict=True) if r.tier == tier]
    decided_hits = [a for c in decided if (a := _agree(c, c.reading(tier))) is not None]
    th = state.thresholds[tier]
    note = None
    if th is not None and th.value is None:
        note = th.reason
    elif tier >= calibrated_tiers(state.plan) and state.plan.mode != "single":
        note = "decides whatever reaches it"
    any_conf = any(r is not None and r.confidence is not None for r in readings)
    return TierSummary(
        tier=tier, judge=state.plan.tiers[tier].name,
        confidence=confidence_basis(state.kinds[tier], state.target.spec, any_conf),
        threshold=None if th is None else th.value, judged=judged, decided=len(decided),
        calls=used.calls, cache_hits=used.cache_hits, input_tokens=used.input_tokens,
        output_tokens=used.output_tokens, cost_usd=used.cost_usd, labelled=len(labelled),
        agreement=_share(labelled), labelled_decided=len(decided_hits),
        agreement_decided=_share(decided_hits),
        risk_bound=None if th is None or th.value is None else _round(th.bound),
        jurors=_jurors(state, tier), note=note, ranking=_ranking(state, tier))


def _guarantee(state: RoutingState, tiers: Sequence[TierSummary]) -> tuple[str, bool]:
    plan = state.plan
    if plan.mode == "single":
        return "none: one judge (or jury) decides every sample", False
    if plan.mode == "budget":
        return ("none: no agreement is guaranteed without people's labels (budget mode); "
                "for a guarantee, label a random share of the samples (ragassay annotate "
                "RUN, or --labels FILE) and route with --agreement 0.9"), False
    k = calibrated_tiers(plan)
    with_bar = [t for t in tiers[:k] if t.threshold is not None]
    target = f"agreement >= {plan.agreement:g} with probability >= {1 - plan.delta:g}"
    if state.target.label is None or not state.labelled:
        return (f"does not hold: no labelled sample for {state.target.metric} (needs "
                "people's labels: --labels FILE or ragassay annotate RUN)"), False
    if not with_bar:
        why = "; ".join(f"tier {t.tier}: {t.note}" for t in tiers[:k] if t.note)
        return f"does not hold: no tier could be given a threshold ({why})", False
    covered = sum(t.decided for t in with_bar)
    text = (f"holds: {target} on the {covered} samples decided by "
            + ", ".join(f"tier {t.tier}" for t in with_bar))
    if not plan.abstain:
        last = tiers[-1]
        measured = "" if last.agreement is None else \
            f"; its agreement on the labels {last.agreement:.3f}"
        text += (f"; the last tier decided {last.decided} without a guarantee{measured} "
                 "(--abstain leaves them for a person)")
    return text, True


def _alone(state: RoutingState, last: TierSummary) -> CostEstimate | None:
    """The same run with the last tier alone, from its measured cost per judged sample."""
    n = len(state.cases)
    if not last.judged:
        return CostEstimate(samples=n)
    per = n / last.judged
    return CostEstimate(samples=n, calls=round(last.calls * per),
                        tokens=round((last.input_tokens + last.output_tokens) * per),
                        cost_usd=None if last.cost_usd is None else last.cost_usd * per)


def pending_calls(state: RoutingState, tiers: Sequence[TierSummary]
                  ) -> tuple[PendingCalls, ...]:
    """What the routing still needs judged, per tier, priced at the tier's measured cost
    per judged sample (the tiers above learn theirs only once these are judged)."""
    need = state.needed()
    if need is None:
        return ()
    tier, ids = need
    t = tiers[tier]
    per_calls = t.calls / t.judged if t.judged else None
    per_cost = t.cost_usd / t.judged if t.judged and t.cost_usd is not None else None
    return (PendingCalls(tier=tier, judge=t.judge, samples=len(ids),
                         calls=None if per_calls is None else round(per_calls * len(ids)),
                         cost_usd=None if per_cost is None else per_cost * len(ids)),)


def summarise(state: RoutingState, usage: TierUsage
              ) -> tuple[RoutingSummary, dict[str, SampleRouting]]:
    """The run's routing summary and each decided sample's routing."""
    tiers = [_tier(state, t, usage) for t in range(len(state.plan.tiers))]
    routed = state.sample_routing()
    decided = [(c, r) for c, r in zip(state.cases, state.routed, strict=True)
               if r.tier is not None]
    hits = [a for c, r in decided if (a := _agree(c, c.reading(r.tier or 0))) is not None]
    guarantee, holds = _guarantee(state, tiers)
    total = sum((u for _, u in usage.values()), Usage())
    n = len(state.cases)
    escalated = sum(1 for r in state.routed if r.tier != 0 and r.pending is None)
    plan = state.plan
    summary = RoutingSummary(
        mode=plan.mode, verdict=state.target.metric, label=state.target.label, samples=n,
        tiers=tuple(tiers), escalated=escalated,
        escalated_share=_round(escalated / n) if n else None,
        abstained=sum(1 for r in state.routed if r.person),
        agreement_target=plan.agreement, delta=plan.delta if plan.agreement else None,
        escalate_share=plan.escalate_share, escalate_below=plan.escalate_below,
        labels=len(state.labelled), agreement_measured=_share(hits), guarantee=guarantee,
        guarantee_holds=holds, calls=total.calls, cost_usd=total.cost_usd,
        last_tier_alone=_alone(state, tiers[-1]), pending=pending_calls(state, tiers))
    return summary, routed



@dataclass(frozen=True)
class Decision:
    """A run's routing, decided from its stored verdicts: the state, the summary and each
    decided sample's routing; `complete` when no tier has anything left to judge."""

    state: RoutingState
    summary: RoutingSummary
    routed: dict[str, SampleRouting]

    @property
    def complete(self) -> bool:
        return not self.summary.pending


def decide(store: Store, run_id: str, plan: RoutingPlan) -> Decision:
    """Route a run's samples under `plan` from what the store holds (no call is made)."""
    state = load_state(store, run_id, plan)
    summary, routed = summarise(state, store.tier_usage(run_id))
    return Decision(state, summary, routed)


def write(store: Store, run_id: str, decision: Decision, plan: RoutingPlan) -> None:
    """The decision into the run: routed verdicts, per-sample routing, summary, plan."""
    store.save_routing(run_id, decision.summary, decision.routed,
                       routed_results(decision.state, decision.routed), plan)
