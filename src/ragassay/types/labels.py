"""People's labels and how an annotation queue is drawn."""

from __future__ import annotations

from typing import Literal

from ragassay.types.base import Frozen

UNNAMED = "unnamed"
"""The annotator the store gives a label given without a name (and labels stored before
each person's label was kept, migration m0018, that named nobody)."""


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


MAJORITY = "majority"


class LabelRule(Frozen):
    """How the labels several people gave one sample become the one value a corrected
    estimate and a judge's agreement read: `majority` (`annotator` None: the value most
    of the sample's annotators gave; a tie, no single most given value, leaves the
    sample's label out and is counted) or one person's (`annotator`: only their labels;
    a sample they did not label has none from the store). Labels the data itself carries
    are not people's: they stand where the store has no label for the sample."""

    annotator: str | None = None

    @classmethod
    def parse(cls, text: str) -> LabelRule:
        """`majority` or `annotator:NAME`; ValueError (one line) for anything else."""
        text = text.strip()
        if text == MAJORITY:
            return cls()
        if text.startswith("annotator:") and text.removeprefix("annotator:").strip():
            return cls(annotator=text.removeprefix("annotator:").strip())
        raise ValueError(f"label rule {text!r} is not 'majority' or 'annotator:NAME'")

    def __str__(self) -> str:
        return MAJORITY if self.annotator is None else f"annotator:{self.annotator}"


class LabelSource(Frozen):
    """Where one label's values came from under a rule: samples by how many people's
    labels they had (`by_count`: {"1": 40, "2": 12}, keyed as the JSON keys them), `ties`
    (majority: samples left out, their people disagreed evenly), `data` (samples with
    none of people's labels in the store, whose own label in the data stands: the store's
    labels are shared by every run of the same interaction, so without it a fully
    labelled run said `hallucinated: 40 samples` beside `144/144 labelled`, trial 72);
    `used`: the samples the figures read a value of."""

    by_count: dict[str, int] = {}
    ties: int = 0
    data: int = 0

    @property
    def used(self) -> int:
        return sum(self.by_count.values()) + self.data

    def describe(self) -> str:
        """`142 samples: 40 from 1 label, 12 from 2 labels, 90 from the data's labels; 3
        ties left out`."""
        counts = sorted((int(k), n) for k, n in self.by_count.items())
        parts = [f"{n} from {k} label{'s' if k != 1 else ''}" for k, n in counts]
        parts += [f"{self.data} from the data's labels"] if self.data else []
        text = f"{self.used} sample{'s' if self.used != 1 else ''}"
        text += f": {', '.join(parts)}" if parts else ""
        if self.ties:
            text += f"; {self.ties} tie{'s' if self.ties != 1 else ''} left out"
        return text
