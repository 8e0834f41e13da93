"""How far an annotation has got: labels so far, and for each metric an asked label is
compared with, the corrected interval's width now and about how many more labels reach
the target width (below the minimum: how many labels are missing before there is one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ragassay.annotation.session import Queue
from ragassay.labels import canonical
from ragassay.report import LabelPages, RunTable, corrected_for
from ragassay.stats.corrected import CorrectedEstimate, CorrectedOptions
from ragassay.store import Store
from ragassay.terminal import counted


@dataclass(frozen=True)
class MetricProgress:
    """One linked metric: its corrected estimate so far, or why there is none yet."""

    label: str
    metric: str
    title: str  # the metric's display label
    n_labelled: int  # the run's samples with the label (a shared content key counts each)
    n_total: int  # the run's samples
    estimate: CorrectedEstimate | None
    missing: int  # labels short of the minimum; 0 once there
    reason: str = ""  # why there is no estimate, when there is none

    def text(self, min_labels: int) -> str:
        """`interval width 0.182 (target 0.100): about 84 more labels`, or what is missing."""
        e = self.estimate
        if e is None:
            if self.missing and self.n_total < min_labels:
                return (f"{counted(self.n_labelled, 'label')}; the run has {self.n_total} "
                        f"samples, fewer than the {min_labels} labels a corrected interval needs")
            if self.missing:
                return (f"{counted(self.n_labelled, 'label')}: {self.missing} more before a "
                        f"corrected interval ({min_labels} minimum)")
            return self.reason
        head = (f"{e.estimate:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}], width {e.width:.3f} "
                f"(target {e.target_width:.3g})")
        if e.more_labels is None:
            return f"{head}: the run has too few samples to reach the target"
        if e.more_labels == 0:
            return f"{head}: target reached"
        return f"{head}: about {counted(e.more_labels, 'label')} more"


@dataclass(frozen=True)
class Progress:
    """Labels so far over the queue, and every linked metric's progress."""

    total: int  # samples in the queue
    labelled: Mapping[str, int]  # asked label -> queue samples that have it
    complete: int  # samples with every asked label
    skipped: int
    metrics: tuple[MetricProgress, ...]
    min_labels: int
    annotator: str | None = None  # whose labels `labelled` and `complete` count (None: anyone's)
    # asked label -> queue samples whose data gives it; and those labelled in the store
    # (by `annotator`, else by anyone, beyond the data's), when the data gives some
    data: Mapping[str, int] = field(default_factory=dict)
    added: Mapping[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        """`12 of 24 samples labelled (hallucinated 12, relevance 11); 1 skipped`, by one
        person when counted for one (`... labelled by ana ...`). Where the data gives some
        asked labels itself, those first and what the annotation adds apart (trial 74: `0
        of 144 samples labelled by root (hallucinated 144, relevance 0)` read as nothing
        labelled): `the data's own labels: hallucinated on 144 of 144 samples; labelled by
        root here: hallucinated 0, relevance 0; 0 of 144 samples have every label asked
        (hallucinated, relevance)`."""
        skipped = f"; {self.skipped} skipped" if self.skipped else ""
        by = f" by {self.annotator or 'an unnamed annotator'}" if self.annotator is not None \
            else ""
        if not any(self.data.values()):
            per = ", ".join(f"{name} {n}" for name, n in self.labelled.items())
            return f"{self.complete} of {self.total} samples labelled{by} ({per}){skipped}"
        own = ", ".join(f"{name} on {n}" for name, n in self.data.items() if n)
        added = ", ".join(f"{name} {n}" for name, n in self.added.items())
        return (f"the data's own labels: {own} of {self.total} samples; labelled{by} here: "
                f"{added}; {self.complete} of {self.total} samples have every label asked "
                f"({', '.join(self.labelled)}){skipped}")


def labelled_table(store: Store, queue: Queue) -> RunTable:
    """The queue's run table with the labels as stored now on top of the data's own
    (`LabelPages`, the one place that lays them): the run is not read again, only its
    stored labels."""
    rt = queue.base
    rows = rt.table.rows  # a row without a content key ("") has no stored label
    _, _, merged = LabelPages(store, rt.rule, queue.spelling).page(
        [rt.content_keys.get(r.key, "") for r in rows],
        [queue.own_labels.get(r.key, {}) for r in rows])
    rows = tuple(replace(r, labels=labels) for r, labels in zip(rows, merged, strict=True))
    return replace(rt, table=replace(rt.table, rows=rows))


def progress(store: Store, queue: Queue, annotator: str | None = None) -> Progress:
    """The progress of the run's annotation, with the labels and skips stored now; the
    samples labelled are one person's (with the data's own labels) when `annotator` is
    given, as that person's queue asks them, else anyone's. The corrected intervals read
    everyone's labels (by the run table's rule)."""
    rt = labelled_table(store, queue)
    plan = store.get_plan(queue.run_id)
    skipped = set(plan.skipped) if plan else set()
    mine: dict[str, set[str]] = {}  # content key -> the labels `annotator` gave it
    if annotator is None:
        merged = {rt.content_keys.get(r.key, ""): {canonical(n) for n, v in r.labels.items()
                                                  if v is not None} for r in rt.table.rows}
    else:
        keys = [e.content_key for e in queue.entries]
        mine = {k: {canonical(n) for n in v}
                for k, v in store.labels_for(keys, annotator).items()}
        merged = {k: set(queue.data_labels.get(k, frozenset())) | mine.get(k, set())
                  for k in keys}
    counts = dict.fromkeys(queue.asked, 0)
    data, added = dict(counts), dict(counts)  # the data's own; those the store adds
    complete = 0
    for e in queue.entries:
        have = merged.get(e.content_key, set())
        given = queue.data_labels.get(e.content_key, frozenset())
        for name in queue.asked:
            counts[name] += name in have
            data[name] += name in given
            added[name] += name in (mine.get(e.content_key, set()) if annotator is not None
                                    else have - given)
        complete += all(name in have for name in queue.asked)
    out = corrected_for(store, queue.run_id, rt=rt,
                        options=CorrectedOptions(per_strategy=False))
    lines: list[MetricProgress] = []
    for label, metric, _ in queue.links:
        names = {n for n in rt.table.label_names if canonical(n) == label}
        n = sum(any(r.labels.get(x) is not None for x in names) for r in rt.table.rows)
        est = next((e for e in out.estimates if e.metric == metric and e.strategy is None
                    and canonical(e.label) == label), None)
        why = next((s.reason for s in out.skipped if s.metric == metric
                    and s.strategy is None and canonical(s.label) == label), "")
        spec = rt.specs.get(metric)
        missing = max(0, out.min_labels - n) if est is None else 0
        lines.append(MetricProgress(label, metric, spec.display_label if spec else metric, n,
                                    len(rt.table.rows), est, missing, why))
    return Progress(total=len(queue.entries), labelled=counts, complete=complete,
                    skipped=len(skipped & {e.content_key for e in queue.entries}),
                    metrics=tuple(lines), min_labels=out.min_labels, annotator=annotator,
                    data=data, added=added)
