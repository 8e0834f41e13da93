"""Annotation sessions: a person labels a run's samples one at a time in the order of the
run's annotation plan, so that the labels are a random sample the corrected estimates can
use. The dashboard's Annotate page and `ragassay annotate` are two faces of one session.

    session = start(store, run_id, SessionOptions(kind="uniform"), annotator="ana")
    item = session.current()              # the next sample and the label to ask
    session.record(item, True, note="")   # checked against the label vocabulary
    session.skip(item); session.undo()
    progress(store, session.queue)        # labels so far, interval widths, labels to go

Reads and writes only through the store; depends on report, labels, stats and store.
"""

from ragassay.annotation.choose import (
    AnnotationError,
    LabelChoice,
    PlanConflict,
    SessionOptions,
    asked_labels,
    default_labels,
    describe,
    idle_labels,
    resolve_plan,
    unscored_everywhere,
)
from ragassay.annotation.progress import MetricProgress, Progress, labelled_table, progress
from ragassay.annotation.session import (
    Action,
    Choice,
    Item,
    Queue,
    QueueEntry,
    Session,
    Verdict,
    answer,
    build_queue,
    choices,
    default_annotator,
    start,
    value_text,
)

__all__ = [
    "Action",
    "AnnotationError",
    "Choice",
    "Item",
    "LabelChoice",
    "MetricProgress",
    "PlanConflict",
    "Progress",
    "Queue",
    "QueueEntry",
    "Session",
    "SessionOptions",
    "Verdict",
    "answer",
    "asked_labels",
    "build_queue",
    "choices",
    "default_annotator",
    "default_labels",
    "describe",
    "idle_labels",
    "labelled_table",
    "progress",
    "resolve_plan",
    "start",
    "unscored_everywhere",
    "value_text",
]
