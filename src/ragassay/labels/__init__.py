"""Human labels: the vocabulary (what each label asks, its scale and the metrics it is
compared with), label files, and annotation plans (the queue that keeps a corrected
estimate valid). Depends only on `ragassay.types`; the store keeps the labels."""

from ragassay.labels.plan import (
    PLAN_KINDS,
    inclusion,
    labelled_probabilities,
    priority,
    queue,
    weights,
)
from ragassay.labels.vocabulary import (
    VOCABULARY,
    LabelKind,
    MetricLink,
    canonical,
    check_value,
    linked_metrics,
    lookup,
)

__all__ = [
    "PLAN_KINDS",
    "VOCABULARY",
    "LabelKind",
    "MetricLink",
    "canonical",
    "check_value",
    "inclusion",
    "labelled_probabilities",
    "linked_metrics",
    "lookup",
    "priority",
    "queue",
    "weights",
]
