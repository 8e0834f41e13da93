"""People's labels and how an annotation queue is drawn."""

from __future__ import annotations

from typing import Literal

from ragassay.types.base import Frozen


class HumanLabel(Frozen):
    """A person's label for one interaction (by its content key): a name from the label
    vocabulary (or any other), a bool or a number, who gave it, where from, and when."""

    content_key: str
    name: str
    value: bool | float
    annotator: str = ""
    source: str = ""  # "annotate:RUN", "import:labels.jsonl", ...
    note: str = ""
    created: str = ""  # ISO time; set by the store when empty


PlanKind = Literal["uniform", "uncertainty", "stratified"]


class AnnotationPlan(Frozen):
    """How a run's annotation queue is drawn, so that the labels are a random sample with
    known inclusion probabilities: the order is fixed by `seed` and the samples' content
    keys; `uncertainty` weights by the judge's score of `metric`, `stratified` gives each
    strategy an equal share. `skipped`: content keys a person passed over (non-response)."""

    run_id: str
    kind: PlanKind = "uniform"
    seed: int = 0
    metric: str | None = None
    labels: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    created: str = ""
