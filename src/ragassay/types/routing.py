"""Judge routing: a run's plan (`RoutingPlan`: tiers of judge specs or juries, and how
thresholds are chosen) is part of its config; what the routing did (`RoutingSummary`,
per tier `TierSummary`, per sample `SampleRouting`) is stored with the run and is the
report's `routing` section."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ragassay.types.base import Frozen


class Tier(Frozen):
    """One tier of a routing plan: a judge spec, or several (a jury: every juror judges,
    ratings averaged, flags by majority)."""

    judges: tuple[str, ...] = Field(min_length=1)

    @property
    def is_jury(self) -> bool:
        return len(self.judges) > 1

    @property
    def name(self) -> str:
        """The tier as shown: its judge spec, or `jury(a, b, ...)`."""
        return f"jury({', '.join(self.judges)})" if self.is_jury else self.judges[0]


class RoutingPlan(Frozen):
    """Which judges decide which samples (`--escalate`, `--jury`, `--agreement`, ...).

    Tier 0 judges every sample; a sample goes up to the next tier when the tier below is
    not sure enough of its verdict on `verdict` (the yes/no metric routed on; None: the
    one the labels link to, else the first flag). With `agreement` (and human labels)
    each tier's threshold is chosen by fixed-sequence testing so that agreement with
    people is at least `agreement` with probability at least 1 - `delta`
    (`routing.calibrate`); without labels `escalate_share` (the least confident share
    goes up) or `escalate_below` (a confidence below it goes up) sets the budget. With
    `abstain` the last tier gets a threshold too and what it is not sure of is left for a
    person."""

    tiers: tuple[Tier, ...] = Field(min_length=1)
    agreement: float | None = Field(default=None, gt=0, lt=1)
    delta: float = Field(default=0.1, gt=0, lt=1)
    escalate_share: float | None = Field(default=None, ge=0, le=1)
    escalate_below: float | None = Field(default=None, ge=0, le=1)
    abstain: bool = False
    verdict: str | None = None
    labels_file: str | None = None  # where `--labels` came from (imported into the store)

    @property
    def mode(self) -> Literal["guarantee", "budget", "single"]:
        """guarantee: thresholds from labels; budget: a share or a confidence bar; single:
        one tier (a jury alone) decides everything."""
        if self.agreement is not None:
            return "guarantee"
        if len(self.tiers) == 1 and not self.abstain:
            return "single"
        return "budget"

    def judges(self) -> list[str]:
        """Every judge spec of every tier, in order (a juror once per tier)."""
        return [spec for tier in self.tiers for spec in tier.judges]

    def updated(self, settings: RoutingSettings) -> RoutingPlan:
        """The plan with a resume's new settings: --agreement replaces a budget and a
        budget replaces --agreement (one way of choosing thresholds at a time); its tiers
        stay (the stored verdicts are theirs)."""
        changes = settings.given()
        if changes.get("agreement") is not None:
            changes.update(escalate_share=None, escalate_below=None)
        if changes.get("escalate_share") is not None:
            changes.update(agreement=None, escalate_below=None)
        if changes.get("escalate_below") is not None:
            changes.update(agreement=None, escalate_share=None)
        return self.model_copy(update=changes)


class RoutingSettings(Frozen):
    """How a routed run's thresholds are chosen, as given again on a resume (None: not
    given, the stored plan's stays): `RoutingPlan.updated`."""

    agreement: float | None = Field(default=None, gt=0, lt=1)
    delta: float | None = Field(default=None, gt=0, lt=1)
    escalate_share: float | None = Field(default=None, ge=0, le=1)
    escalate_below: float | None = Field(default=None, ge=0, le=1)
    abstain: bool | None = None
    verdict: str | None = None
    labels_file: str | None = None

    def given(self) -> dict[str, float | bool | str | None]:
        """The settings given, by the plan's field names."""
        return {k: v for k, v in self.model_dump().items() if v is not None}


class JurorSummary(Frozen):
    """One juror of a jury tier: its agreement with the labels on its own verdicts."""

    judge: str
    labelled: int = 0
    agreement: float | None = None


class ConfidenceRanking(Frozen):
    """How well a tier's confidence tells its right verdicts from its wrong ones on the
    labelled samples it judged (`labelled`, of which `wrong` disagree with people): the
    AUROC of its confidence for its own correctness with a 95% bootstrap interval (None
    when all are right, or all wrong). Near 0.5, escalating its least sure verdicts
    catches its errors about at random (trial 73)."""

    labelled: int
    wrong: int
    auroc: float | None = None
    auroc_low: float | None = None
    auroc_high: float | None = None


class TierSummary(Frozen):
    """What one tier of a routed run did: its judge, the confidence it gave (`confidence`
    says which), its threshold, the samples it judged and decided, its calls, tokens and
    cost, and its agreement with the labels (on every labelled sample it judged, and on
    those above its threshold, with the binomial upper bound on disagreement there), and
    how well its confidence ranks its own errors there (`ranking`, since report_version
    2.26.0)."""

    tier: int
    judge: str
    confidence: str
    threshold: float | None = None
    judged: int = 0
    decided: int = 0
    calls: int = 0
    cache_hits: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    labelled: int = 0
    agreement: float | None = None
    labelled_decided: int = 0
    agreement_decided: float | None = None
    risk_bound: float | None = None
    jurors: tuple[JurorSummary, ...] = ()
    note: str | None = None
    ranking: ConfidenceRanking | None = None


class PendingCalls(Frozen):
    """Samples a re-routing needs a tier to judge that it has not judged yet, with the
    cost that would take at the tier's measured cost per sample."""

    tier: int
    judge: str
    samples: int
    calls: int | None = None
    cost_usd: float | None = None


class CostEstimate(Frozen):
    """Calls, tokens and dollars a run would take (estimated from measured costs)."""

    samples: int
    calls: int | None = None
    tokens: int | None = None
    cost_usd: float | None = None


class RoutingSummary(Frozen):
    """A routed run's routing (the report's `routing` section): the plan's mode, the
    verdict routed on and the label it is compared with, each tier's figures, how many
    samples went up and how many were left for a person, the target agreement and delta,
    the labels used, the guarantee's status, and the cost against the last tier alone."""

    mode: Literal["guarantee", "budget", "single"]
    verdict: str
    label: str | None = None
    samples: int
    tiers: tuple[TierSummary, ...]
    escalated: int = 0
    escalated_share: float | None = None
    abstained: int = 0
    agreement_target: float | None = None
    delta: float | None = None
    escalate_share: float | None = None
    escalate_below: float | None = None
    labels: int = 0
    agreement_measured: float | None = None
    guarantee: str
    guarantee_holds: bool = False
    calls: int = 0
    cost_usd: float | None = None
    last_tier_alone: CostEstimate | None = None
    pending: tuple[PendingCalls, ...] = ()
    notes: tuple[str, ...] = ()


class SampleRouting(Frozen):
    """Which tier decided one sample (None: left for a person), with the confidence of
    each tier that judged it, in tier order (None: the tier gave none)."""

    tier: int | None
    judge: str | None
    confidences: tuple[float | None, ...] = ()
