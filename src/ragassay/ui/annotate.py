"""The Annotate page's logic: the run's queue (read once per plan and run version), the
session's actions as button callbacks, and the keyboard shortcuts.

Every action opens the store for writing only while it writes; reading the page opens it
read-only. A callback acts only on the sample the page showed: a second click (or key)
that arrives after the page moved on does nothing, so a quick double press never labels
the next sample unseen. The undo steps live in the browser session (`HISTORY_KEY`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import streamlit as st

from ragassay.annotation import (
    Action,
    AnnotationError,
    Item,
    Progress,
    Queue,
    Session,
    build_queue,
    choices,
    progress,
)
from ragassay.report import run_table
from ragassay.store import Store, StoreError
from ragassay.types import AnnotationPlan
from ragassay.ui.data import reading

HISTORY_KEY = "annotate_history"  # run id -> undo steps (Action)
REVEAL_KEY = "annotate_revealed"  # run id -> the entry of the sample labelled last
NOTE_KEY = "annotate_note"
ANNOTATOR_KEY = "annotate_annotator"
ERROR_KEY = "annotate_error"


def plan_key(plan: AnnotationPlan) -> str:
    """The plan as far as the queue's order depends on it (not its skips or time)."""
    return plan.model_copy(update={"skipped": (), "created": ""}).model_dump_json()


@st.cache_resource(show_spinner="Reading the run's queue...", max_entries=8)
def queue(db: str, run_id: str, version: str, plan_json: str, asked: tuple[str, ...]) -> Queue:
    """The run's annotation queue under a plan, shared, not copied, between reruns (it is
    never changed, and holds the run's table): it changes only with the run."""
    with reading(db) as store:
        rt = run_table(store, run_id, keys=True)
        return build_queue(store, rt, AnnotationPlan.model_validate_json(plan_json), asked)


def labels_stamp(db: str) -> tuple[int, int]:
    """Changes whenever a label is given, replaced or removed: (count, last row id)."""
    with reading(db) as store:
        return store.labels_stamp()


@st.cache_data(show_spinner="Estimating...", max_entries=32)
def progress_of(db: str, run_id: str, version: str, plan_json: str, asked: tuple[str, ...],
                stamp: tuple[int, int], skipped: str, annotator: str | None = None
                ) -> Progress:
    """The annotation's progress (the samples `annotator` labelled, when given), cached
    per run version, plan, labels (`labels_stamp`), skips (a digest of them) and
    annotator."""
    q = queue(db, run_id, version, plan_json, asked)
    with reading(db) as store:
        return progress(store, q, annotator)


def skipped_digest(plan: AnnotationPlan) -> str:
    return hashlib.sha256("\n".join(plan.skipped).encode()).hexdigest()[:16]


def history(run_id: str) -> list[Action]:
    """This browser session's undo steps for the run."""
    steps: dict[str, list[Action]] = st.session_state.setdefault(HISTORY_KEY, {})
    return steps.setdefault(run_id, [])


@contextmanager
def session(db: str, q: Queue, *, write: bool = False) -> Iterator[Session]:
    """A session over the store (writable only for an action), closed on exit."""
    store = Store(db, readonly=not write)
    try:
        yield Session(store, q, annotator=str(st.session_state.get(ANNOTATOR_KEY, "")),
                      history=history(q.run_id))
    finally:
        store.close()


def _act(db: str, q: Queue, shown: Item | None, step: str, value: Any = None) -> None:
    """A button's action on the sample the page showed (`shown`), if it is still the
    current one; one-line problems go to ERROR_KEY for the page to show."""
    st.session_state.pop(ERROR_KEY, None)
    reveal: dict[str, Any] = st.session_state.setdefault(REVEAL_KEY, {})
    try:
        with session(db, q, write=True) as s:
            if step == "undo":
                undone = s.undo()
                if undone is not None and reveal.get(q.run_id) == undone.entry:
                    reveal.pop(q.run_id)
                return
            if shown is None or s.current() != shown:  # a late press: the page moved on
                return
            if step == "skip":
                s.skip(shown)
                return
            s.record(shown, value, note=str(st.session_state.get(NOTE_KEY, "")))
            st.session_state[NOTE_KEY] = ""
            if len(shown.missing) == 1:  # every asked label is given: show the verdict
                reveal[q.run_id] = shown.entry
    except (AnnotationError, StoreError) as exc:
        st.session_state[ERROR_KEY] = str(exc)


def on_choice(db: str, q: Queue, shown: Item, value: Any) -> None:
    _act(db, q, shown, "label", value)


def on_skip(db: str, q: Queue, shown: Item) -> None:
    _act(db, q, shown, "skip")


def on_undo(db: str, q: Queue, shown: Item | None) -> None:
    _act(db, q, shown, "undo")


CHOICE_KEY = "annotate_choice_{}"
SKIP_KEY = "annotate_skip"
UNDO_KEY = "annotate_undo"


def shortcut_map(label: str) -> dict[str, str]:
    """Keyboard key -> the key of the button it presses."""
    keys = {c.key: CHOICE_KEY.format(i) for i, c in enumerate(choices(label))}
    return {**keys, "s": SKIP_KEY, "u": UNDO_KEY}


SHORTCUTS = """<script>
(() => {
  const top = window.parent, doc = top.document, keys = %s;
  if (top.__ragassayAnnotate) doc.removeEventListener("keydown", top.__ragassayAnnotate);
  const press = (ev) => {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) {
      if (ev.key === "Escape") t.blur();  // leave the note field; keys work again
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat) return;
    const key = keys[ev.key.toLowerCase()];
    const button = key && doc.querySelector(".st-key-" + key + " button");
    if (button && !button.disabled) { ev.preventDefault(); button.click(); }
  };
  top.__ragassayAnnotate = press;
  doc.addEventListener("keydown", press);
})();
</script>"""


def shortcut_script(keys: Mapping[str, str]) -> str:
    """A script for `components.html` that presses the page's buttons from the keyboard:
    it listens on the dashboard's document (the component's parent, same origin) and
    replaces the listener an earlier run of the page left there."""
    return SHORTCUTS % json.dumps(dict(keys))


def inject(script: str) -> None:
    """Run `script` in a same-origin frame of the page: `st.iframe` where Streamlit has it
    (newer releases deprecate `components.v1.html` for it), else `components.v1.html`."""
    frame = getattr(st, "iframe", None)
    if frame is not None:
        frame(script, height=1)
        return
    import streamlit.components.v1 as components

    components.html(script, height=0)
