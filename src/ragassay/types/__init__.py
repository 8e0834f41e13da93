"""Core types shared by every subpackage, one module per concept: frozen pydantic models
with no behaviour beyond small derived values (domain objects never save, judge or
aggregate themselves).

- `sample`: `Sample` (one RAG interaction), `content_key`, `InvalidRow`
- `spec`: a metric's declaration, `MetricSpec` (+ `Target`, `Rule`, `Condition`, `Composite`,
  `LinkedLabel`)
- `results`: `MetricResult` (with its typed readings: `RatingReading`, `SentenceMarks`
  and its `CheckedClaim`s, `JudgeFailure`), `SampleResult`, unscored reasons,
  abstentions, the prompt `Message`
- `usage`: `Usage`, a judge's cost counters
- `run`: `RunConfig` (what defines a run), `RunMeta` (what it records about itself),
  `is_offline`
- `backend`: `BackendOptions` (how to reach a judge server), `Price`
- `labels`: `HumanLabel`, `AnnotationPlan`, `LabelRule`, `LabelSource`
- `routing`: a routed run's plan (`RoutingPlan`: `Tier`s of judges, how thresholds are
  chosen) and what it did (`RoutingSummary`, `TierSummary`, `SampleRouting`)
- `reliability`: a judge's measured agreement with people (`Agreement`, `Reliability`,
  `RunReliability`)

The trace a sample was read from lives with the trace reader (`ragassay.dataset.traces`:
`SampleTrace`, `TraceHop` ...), the messages, requests and replies a backend exchanges with
the backends (`ragassay.llm.wire`).
"""

from ragassay.types.backend import BackendOptions, Price, StructuredOutput
from ragassay.types.base import JSON, Frozen
from ragassay.types.labels import (
    MAJORITY,
    UNNAMED,
    AnnotationPlan,
    HumanLabel,
    LabelRule,
    LabelSource,
    PlanKind,
)
from ragassay.types.reliability import Agreement, Reliability, RunReliability
from ragassay.types.results import (
    ABSTENTION_OUTCOMES,
    EMPTY_ANSWER,
    LACKING_INPUT,
    MISSING_INPUT,
    NO_CONTEXTS,
    NO_CONTEXTS_OR_REFERENCE,
    NO_REFERENCE,
    NO_REFERENCE_OR_ANSWER,
    TRANSPORT_FAILURES,
    Abstention,
    CheckedClaim,
    JudgeFailure,
    Message,
    MetricResult,
    RatingReading,
    SampleResult,
    SentenceMarks,
    Status,
    abstained_reason,
)
from ragassay.types.routing import (
    ConfidenceRanking,
    CostEstimate,
    JurorSummary,
    PendingCalls,
    RoutingPlan,
    RoutingSettings,
    RoutingSummary,
    SampleRouting,
    Tier,
    TierSummary,
)
from ragassay.types.run import OFFLINE_SPECS, Ratings, ReadAs, RunConfig, RunMeta, is_offline
from ragassay.types.sample import LABEL_PREFIX, InvalidRow, Sample, content_key
from ragassay.types.spec import (
    Composite,
    Condition,
    LinkedLabel,
    MetricSpec,
    Rule,
    Target,
    at_least,
    below,
    default_label,
)
from ragassay.types.usage import Usage

__all__ = [
    "ABSTENTION_OUTCOMES",
    "EMPTY_ANSWER",
    "JSON",
    "LACKING_INPUT",
    "MISSING_INPUT",
    "NO_CONTEXTS",
    "NO_CONTEXTS_OR_REFERENCE",
    "NO_REFERENCE",
    "NO_REFERENCE_OR_ANSWER",
    "OFFLINE_SPECS",
    "TRANSPORT_FAILURES",
    "Abstention",
    "Agreement",
    "AnnotationPlan",
    "BackendOptions",
    "CheckedClaim",
    "Composite",
    "Condition",
    "CostEstimate",
    "Frozen",
    "HumanLabel",
    "LabelRule",
    "LabelSource",
    "MAJORITY",
    "UNNAMED",
    "InvalidRow",
    "JudgeFailure",
    "JurorSummary",
    "LinkedLabel",
    "Message",
    "MetricResult",
    "MetricSpec",
    "PendingCalls",
    "PlanKind",
    "Price",
    "RatingReading",
    "Ratings",
    "ReadAs",
    "Reliability",
    "RoutingPlan",
    "RoutingSettings",
    "ConfidenceRanking",
    "RoutingSummary",
    "Rule",
    "RunConfig",
    "RunMeta",
    "RunReliability",
    "LABEL_PREFIX",
    "Sample",
    "SampleResult",
    "SampleRouting",
    "SentenceMarks",
    "Status",
    "StructuredOutput",
    "Target",
    "Tier",
    "TierSummary",
    "Usage",
    "abstained_reason",
    "at_least",
    "below",
    "content_key",
    "default_label",
    "is_offline",
]
