"""An annotation session: the next sample of a run's plan to label, recording a label,
skipping a sample, and undoing either.

The queue (`Queue`: the plan's order, the labels the run's data carries, the metrics the
asked labels are compared with) does not change while people label, so a dashboard can
build it once; everything that does change (stored labels, skips) is read from the store
at each step, so a session never offers a sample that another has labelled since.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ragassay.annotation.choose import (
    AnnotationError,
    SessionOptions,
    resolve_plan,
    unscored_everywhere,
)
from ragassay.labels import LabelKind, canonical, linked_metrics, lookup
from ragassay.report import (
    RunTable,
    SampleEntry,
    label_spelling,
    plan_queue,
    run_table,
    sample_entry,
)
from ragassay.store import Store
from ragassay.terminal import storable
from ragassay.types import AnnotationPlan, HumanLabel, MetricSpec

PAGE = 500  # queue entries whose stored labels are read in one query


@dataclass(frozen=True)
class QueueEntry:
    """One sample of the queue: where it is in the run, and its content key."""

    strategy: str
    sample_id: str
    content_key: str

    @property
    def name(self) -> str:
        return f"{self.strategy}/{self.sample_id}"


@dataclass(frozen=True)
class Choice:
    """One answer to a label's question: its text, its value, and its key."""

    text: str
    value: bool | float
    key: str


def choices(label: str) -> tuple[Choice, ...]:
    """The answers a label takes: Yes (y) / No (n), or a grade's named values (0-3)."""
    kind = lookup(label)
    if kind is None:
        raise AnnotationError(f"'{label}' is not a label of the vocabulary")
    if kind.kind == "bool":
        return (Choice("Yes", True, "y"), Choice("No", False, "n"))
    return tuple(Choice(text, float(v), f"{v:g}") for text, v in kind.choices)


BOOL_WORDS = {"y": True, "yes": True, "true": True, "1": True,
              "n": False, "no": False, "false": False, "0": False}


def answer(label: str, text: str) -> Choice | None:
    """The choice a typed answer names (`y`, `yes`, `1`; a grade's number or its name), or
    None."""
    word = text.strip().casefold()
    options = choices(label)
    if isinstance(options[0].value, bool):
        if word not in BOOL_WORDS:
            return None
        return next(c for c in options if c.value is BOOL_WORDS[word])
    return next((c for c in options if word in (c.key, c.text.casefold())), None)


@dataclass(frozen=True)
class Queue:
    """What a session reads from the run once: the plan's order (samples without a content
    key left out), the labels the data itself gives (content key -> vocabulary names),
    (label, metric, inverted) for each metric an asked label is compared with, and the
    run's table as read (`base`, with each row's own labels in `own_labels` and the data's
    spelling of each label), so that progress re-reads only the stored labels."""

    run_id: str
    plan: AnnotationPlan
    asked: tuple[str, ...]
    entries: tuple[QueueEntry, ...]
    data_labels: Mapping[str, frozenset[str]]
    links: tuple[tuple[str, str, bool], ...]
    base: RunTable
    own_labels: Mapping[tuple[str, str], Mapping[str, Any]] = field(default_factory=dict)
    spelling: Mapping[str, str] = field(default_factory=dict)

    @property
    def specs(self) -> Mapping[str, MetricSpec]:
        return self.base.specs


def _own_labels(store: Store, rt: RunTable) -> dict[tuple[str, str], dict[str, Any]]:
    """Each row's labels as its data gives them: the table's are the data's with the
    store's on top, so a sample with stored labels is read again."""
    keys = {r.key: rt.content_keys.get(r.key, "") for r in rt.table.rows}
    stored = {lab.content_key for lab in store.people_labels(k for k in keys.values() if k)}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rt.table.rows:
        labels: Mapping[str, Any] = r.labels
        if keys[r.key] in stored:
            sample = store.get_sample(rt.run.id, r.id)
            labels = getattr(sample, "labels", {}) or {}
        if labels:
            out[r.key] = dict(labels)
    return out


def first_for_a_person(store: Store, run_id: str, entries: list[QueueEntry]
                       ) -> list[QueueEntry]:
    """The queue with the samples a routed run left for a person (no judge was sure
    enough: --abstain) first, in the plan's order: a label is their only verdict."""
    person = {sid for sid, r in store.routed_samples(run_id).items() if r.tier is None}
    if not person:
        return entries
    return ([e for e in entries if e.sample_id in person]
            + [e for e in entries if e.sample_id not in person])


def build_queue(store: Store, rt: RunTable, plan: AnnotationPlan,
                asked: tuple[str, ...]) -> Queue:
    """The session's queue for `plan` over the run's table."""
    entries = first_for_a_person(store, rt.run.id, [
        QueueEntry(strategy, sid, key) for (strategy, sid), key in plan_queue(rt, plan) if key])
    links: list[tuple[str, str, bool]] = []
    for label in asked:
        links += [(label, m, inv) for m, inv in linked_metrics(label, rt.table.specs.values())]
    own = _own_labels(store, rt)
    given: dict[str, frozenset[str]] = {}
    for e in entries:
        names = own.get((e.strategy, e.sample_id), {})
        found = frozenset(canonical(n) for n, v in names.items() if v is not None)
        if found:
            given[e.content_key] = found
    return Queue(run_id=rt.run.id, plan=plan, asked=asked, entries=tuple(entries),
                 data_labels=given, links=tuple(links), base=rt, own_labels=own,
                 spelling=label_spelling(store.sample_label_names(rt.run.id)))


@dataclass(frozen=True)
class Item:
    """The sample to label now and the label to ask about it (its first missing one)."""

    position: int  # in the queue, from 0
    entry: QueueEntry
    missing: tuple[str, ...]  # asked labels it lacks, in the order they are asked

    @property
    def label(self) -> str:
        return self.missing[0]

    @property
    def kind(self) -> LabelKind:
        found = lookup(self.label)
        assert found is not None  # asked labels are vocabulary names (choose.check_labels)
        return found


@dataclass(frozen=True)
class Action:
    """One step that `undo` reverses: a label (with the label it replaced and whether the
    sample had been skipped) or a skip (`label` None)."""

    entry: QueueEntry
    label: str | None
    previous: HumanLabel | None = None
    was_skipped: bool = False


@dataclass(frozen=True)
class Verdict:
    """The judge's value of one metric linked to an asked label, or why it has none;
    `text`: as shown (`yes`, `7.233 (1-10)`, `unscored: empty answer`, `DECLINED`)."""

    metric: str
    title: str
    value: float | bool | None
    text: str


def value_text(label: str, value: Any) -> str:
    """A label's value as a person reads it: yes / no, or a grade with its name."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    kind = lookup(label)
    names = {float(v): text for text, v in kind.choices} if kind else {}
    name = names.get(float(value)) if isinstance(value, int | float) else None
    return f"{value:g} {name}" if name else str(value)


DECLINED = "abstained (declined)"
"""What the judge's side says of a metric whose answer declined: neither a value nor
unscored (`MetricResult.abstention`; trial 68 read `unscored: no value` there)."""


def _judge_text(spec: MetricSpec | None, value: Any, reason: str, declined: bool) -> str:
    if declined:
        return DECLINED
    if value is None:
        return f"unscored: {reason or 'no value'}"
    if isinstance(value, bool) or (spec is not None and spec.kind == "bool"):
        return "yes" if value else "no"
    span = f" ({spec.low:g}-{spec.high:g})" if spec is not None else ""
    return f"{float(value):.3f}{span}"


def _same_order(a: AnnotationPlan, b: AnnotationPlan) -> bool:
    return (a.kind, a.seed, a.metric if a.kind == "uncertainty" else None) == (
        b.kind, b.seed, b.metric if b.kind == "uncertainty" else None)


class Session:
    """Label a run's samples in its plan's order. `history` (the undo steps) may be kept
    by the caller, e.g. in a dashboard's session state, across Session objects."""

    def __init__(self, store: Store, queue: Queue, *, annotator: str = "",
                 history: list[Action] | None = None, notes: Iterable[str] = ()) -> None:
        self.store = store
        self.queue = queue
        self.annotator = annotator
        self.history: list[Action] = history if history is not None else []
        self.notes = list(notes)  # labels left out or asked in vain (`LabelChoice.notes`)

    @property
    def source(self) -> str:
        return f"annotate:{self.queue.run_id}"

    def plan(self) -> AnnotationPlan:
        """The run's plan as stored now (with its skips); AnnotationError when another
        session replaced it since this one started."""
        plan = self.store.get_plan(self.queue.run_id)
        if plan is None or not _same_order(plan, self.queue.plan):
            raise AnnotationError(f"the annotation plan of run {self.queue.run_id} was "
                                  "replaced since this session started; open it again")
        return plan

    def stored(self, key: str) -> dict[str, HumanLabel]:
        """The labels this session's annotator gave the sample with this content key, by
        name (other people's are theirs: each person's label is kept)."""
        return self.store.labels_for([key], self.annotator).get(key, {})

    def current(self) -> Item | None:
        """The first sample of the queue, not skipped, that lacks an asked label from
        this session's annotator (a sample other people labelled still needs theirs;
        a label the data itself carries counts as given); None when every sample has
        them all (or was skipped)."""
        skipped = set(self.plan().skipped)
        entries = self.queue.entries
        for start in range(0, len(entries), PAGE):
            page = entries[start:start + PAGE]
            stored = self.store.labels_for((e.content_key for e in page), self.annotator)
            for i, e in enumerate(page, start):
                if e.content_key in skipped:
                    continue
                have = self.queue.data_labels.get(e.content_key, frozenset()) | {
                    canonical(n) for n in stored.get(e.content_key, {})}
                missing = tuple(x for x in self.queue.asked if x not in have)
                if missing:
                    return Item(i, e, missing)
        return None

    def record(self, item: Item, value: Any, *, label: str | None = None,
               note: str = "") -> HumanLabel:
        """Store a label for the item's sample (its first missing label, or `label`),
        checked against the vocabulary; a skip of the sample is lifted."""
        name = canonical(label or item.label)
        kind = lookup(name)
        if kind is None or name not in self.queue.asked:
            raise AnnotationError(f"'{name}' is not a label this session asks "
                                  f"({', '.join(self.queue.asked)})")
        checked = kind.check(value)
        if isinstance(checked, str):
            raise AnnotationError(f"{name}: {checked}")
        key = item.entry.content_key
        plan = self.plan()
        previous = self.stored(key).get(name)
        new = HumanLabel(content_key=key, name=name,
                         value=bool(checked) if kind.kind == "bool" else checked,
                         annotator=storable(self.annotator), source=self.source,
                         note=storable(note.strip()))
        self.store.set_labels([new])
        was_skipped = key in plan.skipped
        if was_skipped:
            self._save_skips(plan, tuple(k for k in plan.skipped if k != key))
        self.history.append(Action(item.entry, name, previous, was_skipped))
        return new

    def skip(self, item: Item) -> None:
        """Pass over the item's sample (kept in the plan: non-response, not a label)."""
        plan = self.plan()
        key = item.entry.content_key
        if key not in plan.skipped:
            self._save_skips(plan, (*plan.skipped, key))
            self.history.append(Action(item.entry, None))

    def undo(self) -> Action | None:
        """Reverse the last label or skip: a replaced label comes back, a skip lifted by
        the label is restored; None when there is nothing to undo."""
        if not self.history:
            return None
        action = self.history.pop()
        key = action.entry.content_key
        plan = self.plan()
        if action.label is None:
            self._save_skips(plan, tuple(k for k in plan.skipped if k != key))
            return action
        if action.previous is not None:
            self.store.set_labels([action.previous])
        else:
            self.store.delete_label(key, action.label, self.annotator)
        if action.was_skipped and key not in plan.skipped:
            self._save_skips(plan, (*plan.skipped, key))
        return action

    def _save_skips(self, plan: AnnotationPlan, skipped: tuple[str, ...]) -> None:
        self.store.save_plan(plan.model_copy(update={"skipped": skipped}))

    def entry(self, entry: QueueEntry) -> SampleEntry | None:
        """The sample's report entry: texts, the judge's values, details and reasoning
        (None for a sample not in the run, or one whose judgment failed)."""
        found = sample_entry(self.store, self.queue.run_id, entry.sample_id)
        return found if isinstance(found, SampleEntry) else None

    def verdict(self, report_entry: SampleEntry | None,
                labels: Iterable[str] | None = None) -> list[Verdict]:
        """The judge's values of the metrics linked to the asked labels (to `labels` of
        them, when given), for a sample's report entry (`entry`): what the page shows
        once the sample is labelled."""
        values = report_entry.metrics if report_entry else {}
        unscored = report_entry.unscored if report_entry else {}
        declined = (report_entry.abstained or {}) if report_entry else {}
        wanted = set(self.queue.asked if labels is None else labels)
        out: list[Verdict] = []
        for metric in dict.fromkeys(m for x, m, _ in self.queue.links if x in wanted):
            if metric in values:
                spec = self.queue.specs.get(metric)
                title = spec.display_label if spec else metric
                out.append(Verdict(metric, title, values[metric],
                                   _judge_text(spec, values[metric], unscored.get(metric, ""),
                                               metric in declined)))
        return out


def default_annotator() -> str:
    """Who labels when nobody says: $RAGASSAY_ANNOTATOR, else the login name, else ""."""
    name = os.environ.get("RAGASSAY_ANNOTATOR", "").strip()
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name (a container without a passwd entry)
        return ""


def start(store: Store, run_id: str, options: SessionOptions | None = None, *,
          annotator: str = "", rt: RunTable | None = None) -> Session:
    """Start or resume the run's annotation (see `choose.resolve_plan`); the plan is
    saved before the first label, so the queue is fixed from the start. A label compared
    only with metrics unscored on every sample is not asked unless named (`notes`)."""
    rt = rt or run_table(store, run_id, keys=True)
    stored = store.get_plan(rt.run.id)
    plan, choice = resolve_plan(stored, options or SessionOptions(), rt.run.id,
                                rt.table.specs, list(rt.table.label_names),
                                unscored_everywhere(rt.table))
    if plan != stored:
        store.save_plan(plan)
        plan = store.get_plan(rt.run.id) or plan
    notes = choice.notes()
    person = sum(1 for r in store.routed_samples(rt.run.id).values() if r.tier is None)
    if person:
        notes.append(f"{person} sample{'s' if person != 1 else ''} the routing left for a "
                     "person come first (no judge was sure enough): a label is their only "
                     "verdict; those labels are the hard cases, not a random draw")
    return Session(store, build_queue(store, rt, plan, tuple(choice.asked)),
                   annotator=annotator, notes=notes)
