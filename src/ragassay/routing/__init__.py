"""Judge routing: which judge decides which sample (Trust or Escalate, Jung et al.,
ICLR 2025). A routed run's plan (`types.RoutingPlan`) is a list of tiers, each a judge
spec or a jury; a tier decides a sample when its confidence in its verdict on the routed
metric clears the tier's threshold, chosen by fixed-sequence testing on people's labels
(`stats.routing`) so that agreement with people is guaranteed, or by a budget. This
package reads verdicts and confidences (`verdicts`), decides (`decide`), reads a run's
state from the store (`state`) and summarises it (`summary`); the runner executes the
plan (`runner.cascade`)."""

from ragassay.routing.decide import Case, Routed, calibrate, calibrated_tiers, route
from ragassay.routing.state import (
    FOR_A_PERSON,
    RoutingError,
    RoutingState,
    load_state,
    routed_results,
)
from ragassay.routing.summary import (
    Decision,
    decide,
    pending_calls,
    summarise,
    write,
)
from ragassay.routing.verdicts import (
    Reading,
    Target,
    choose_target,
    confidence_basis,
    label_verdict,
    read,
    tier_kind,
)

__all__ = ["FOR_A_PERSON", "Case", "Decision", "Reading", "Routed", "RoutingError",
           "RoutingState", "Target", "calibrate", "calibrated_tiers", "choose_target",
           "confidence_basis", "decide", "label_verdict", "load_state", "pending_calls",
           "read", "route", "routed_results", "summarise", "tier_kind", "write"]
