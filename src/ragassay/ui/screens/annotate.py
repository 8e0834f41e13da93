"""Annotate: label a run's samples one at a time, in the order of its annotation plan, so
that the labels are a random sample the corrected estimates can use.

The judge's verdict, scores and sentence highlights stay hidden while a sample is being
labelled (they would anchor the label: a label that leans on the judge corrects nothing)
and are shown beside the person's labels once the sample has them all. Keyboard: y/n or
the grade's number, s skip, u undo (Esc leaves the note field). All user text is shown
escaped (st.html over html.escape'd text), never as Markdown or live HTML.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ragassay.annotation import (
    AnnotationError,
    Item,
    LabelChoice,
    PlanConflict,
    Progress,
    Session,
    SessionOptions,
    asked_labels,
    choices,
    default_annotator,
    describe,
    start,
    unscored_everywhere,
    value_text,
)
from ragassay.labels import PLAN_KINDS, VOCABULARY, linked_metrics
from ragassay.report import SampleEntry
from ragassay.report.highlight import (
    CSS,
    LEGEND,
    Marks,
    answer_html,
    contexts_html,
    marks_of,
    text_html,
)
from ragassay.stats import ScoreTable
from ragassay.store import Store, StoreError
from ragassay.types import AnnotationPlan
from ragassay.ui import annotate as logic
from ragassay.ui import data, state
from ragassay.ui.fmt import metric_label, rows_height
from ragassay.ui.highlight import md_escape

KINDS = {"uniform": "uniform random (the default: a simple random sample at any point)",
         "uncertainty": "more often where the judge is unsure (weighted by a score metric)",
         "stratified": "an equal share of labels for each strategy"}

QUESTIONS = {k.name: k.question for k in VOCABULARY}


def block(body: str) -> None:
    st.html(CSS + body)


def label_choice(table: ScoreTable, run_id: str, labels: tuple[str, ...] = ()
                 ) -> LabelChoice:
    """The session's rule for which labels to ask (`asked_labels`, as `ragassay annotate`
    applies it): the defaults, or `labels` as picked, with the lines to show about labels
    compared only with metrics unscored on every sample."""
    try:
        return asked_labels(SessionOptions(labels=labels), list(table.specs.values()),
                            list(table.label_names), run_id, unscored_everywhere(table))
    except AnnotationError as exc:  # nothing to ask by default: said, none preselected
        st.warning(md_escape(str(exc)))
        return LabelChoice([])


def plan_chooser(db: str, run_id: str, table: ScoreTable, plan: AnnotationPlan | None
                 ) -> None:
    """The plan's settings; starting (or replacing) a plan writes it to the store."""
    specs = list(table.specs.values())
    offered = [k.name for k in VOCABULARY if linked_metrics(k.name, specs)]
    title = md_escape(f"Plan: {describe(plan)}") if plan else "Plan: none yet"
    with st.expander(title, expanded=plan is None):
        st.caption("The plan fixes the order in which samples are offered, so that the "
                   "labels, wherever you stop, are a random sample with known chances.")
        kind = st.radio("Order", PLAN_KINDS, format_func=KINDS.__getitem__,
                        index=PLAN_KINDS.index(plan.kind) if plan else 0,
                        key=f"annotate_kind_{run_id}")
        defaults = label_choice(table, run_id)
        for note in defaults.notes():
            st.caption(md_escape(note))
        wanted = list(plan.labels) if plan else defaults.asked
        labels = st.multiselect("Labels to ask", offered, key=f"annotate_labels_{run_id}",
                                default=[x for x in wanted if x in offered],
                                format_func=lambda x: f"{x}: {QUESTIONS[x]}")
        for note in label_choice(table, run_id, tuple(labels)).notes() if labels else ():
            st.warning(md_escape(note))
        metric = None
        if kind == "uncertainty":
            scored = [m for x in labels for m, _ in linked_metrics(x, specs)
                      if not table.specs[m].gives_verdict]
            metric = st.selectbox("Weighted by the judge's uncertainty on",
                                  list(dict.fromkeys(scored)), key=f"annotate_metric_{run_id}",
                                  format_func=lambda m: metric_label(m, table.specs))
        seed = st.number_input("Seed", min_value=0, step=1, value=plan.seed if plan else 0,
                               key=f"annotate_seed_{run_id}")
        replace = plan is not None and st.checkbox(
            "Replace the run's plan (a new order; the labels given so far stay, the skips "
            "are forgotten)", key=f"annotate_replace_{run_id}")
        if st.button("Start annotating" if plan is None else "Apply", type="primary",
                     key="annotate_start"):
            if not labels:
                st.error("Pick at least one label to ask.")
                return
            options = SessionOptions(kind=kind, seed=int(seed), metric=metric,
                                     labels=tuple(labels), replace=replace)
            try:
                with Store(db) as store:
                    start(store, run_id, options)
            except PlanConflict as exc:
                st.error(md_escape(f"{exc}: tick 'Replace the run's plan' to replace it."))
            except (AnnotationError, StoreError) as exc:
                st.error(md_escape(str(exc)))
            else:
                st.rerun()


def show_progress(p: Progress) -> None:
    """Labels so far, and per linked metric the corrected interval or what it lacks."""
    st.progress(p.complete / p.total if p.total else 0.0, text=md_escape(p.summary()))
    ready = sum(m.estimate is not None for m in p.metrics)
    with st.expander(f"Corrected intervals: {ready} of {len(p.metrics)} linked metrics "
                     f"have one ({p.min_labels} labels at least)", expanded=False):
        st.dataframe(pd.DataFrame([
            {"label": m.label, "metric": m.title, "labels": m.n_labelled,
             "corrected estimate [95% CI], width, labels to go": m.text(p.min_labels)}
            for m in p.metrics]), hide_index=True, height=rows_height(len(p.metrics)))


def show_texts(entry: SampleEntry | None, marks: Marks, *, keys: bool) -> None:
    st.markdown("**Question**")
    block(text_html(entry.question if entry else ""))
    st.markdown("**Answer**")
    block(answer_html(entry.answer if entry else "", marks, show_keys=keys))
    contexts = list(entry.contexts) if entry else []
    st.markdown(f"**Contexts** ({len(contexts)})")
    if not marks.empty:
        block(LEGEND)
    for i, html_block in enumerate(contexts_html(contexts, marks, show_keys=keys), 1):
        st.caption(f"Context {i}")  # 1-based, as citation markers are
        block(html_block)
    if not contexts:
        st.caption("(no contexts)")


def show_verdict(s: Session, entry_of: Any) -> None:
    """The sample labelled last: the person's labels beside the judge's values."""
    entry = s.entry(entry_of)
    given = s.stored(entry_of.content_key)
    mine = ", ".join(f"{n} {value_text(n, given[n].value)}" for n in s.queue.asked
                     if n in given)
    judge = " · ".join(f"{v.title} {v.text}" for v in s.verdict(entry, given))
    with st.container(border=True, key="annotate_verdict"):
        st.markdown(md_escape(f"Labelled {entry_of.name}: you said {mine or '-'}"))
        st.caption(md_escape(f"The judge: {judge or '-'}"))
        with st.expander("The judge's highlights on this sample"):
            show_texts(entry, marks_of(entry.marks if entry else None), keys=True)


def show_item(db: str, q: Any, s: Session, item: Item) -> None:
    """The sample to label: the question to answer, its buttons, and its texts."""
    entry = s.entry(item.entry)
    st.subheader(f"Sample {item.position + 1} of {len(q.entries)}")
    st.caption(md_escape(item.entry.name))
    step = f" (then {', '.join(item.missing[1:])})" if len(item.missing) > 1 else ""
    st.markdown(f"**{md_escape(item.label)}**{md_escape(step)}: "
                f"{md_escape(item.kind.question)}")
    options = choices(item.label)
    texts = [f"{c.text} ({c.key})" for c in options]
    cols = st.columns([len(t) + 6 for t in texts] + [14, 14])  # room for each button's text
    for i, (c, text) in enumerate(zip(options, texts, strict=True)):
        cols[i].button(text, key=logic.CHOICE_KEY.format(i), on_click=logic.on_choice,
                       args=(db, q, item, c.value))
    cols[-2].button("Skip (s)", key=logic.SKIP_KEY, on_click=logic.on_skip,
                    args=(db, q, item))
    cols[-1].button("Undo (u)", key=logic.UNDO_KEY, on_click=logic.on_undo,
                    args=(db, q, item), disabled=not logic.history(q.run_id))
    st.text_input("Note (saved with the next label; Esc leaves the field)",
                  key=logic.NOTE_KEY)
    logic.inject(logic.shortcut_script(logic.shortcut_map(item.label)))
    marks = st.toggle("Show the judge's highlights while labelling (they may anchor "
                      "your label)", key="annotate_marks")
    show_texts(entry, marks_of(entry.marks if entry else None) if marks else Marks(),
               keys=False)


st.title("Annotate")
selected = state.require_run()
if selected is None:
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script")
run_id, version = selected
db = state.db()
table = data.table(db, run_id, version)
if not [k for k in VOCABULARY if linked_metrics(k.name, table.specs.values())]:
    st.error("No metric of this run is compared with a human label (hallucinated, faithful, "
             "correct, relevance): annotate a run of the judge, trace or ragas suite.")
    st.stop()
with data.reading(db) as store:
    plan = store.get_plan(run_id)
st.session_state.setdefault(logic.ANNOTATOR_KEY, default_annotator())
st.text_input("Annotator", key=logic.ANNOTATOR_KEY)
plan_chooser(db, run_id, table, plan)
if plan is None:
    st.info("Choose the labels and the order above, then start annotating.")
    st.stop()
    raise AssertionError("unreachable")
asked = tuple(plan.labels)
for line in label_choice(table, run_id, asked).notes():  # a label asked in vain: said
    st.warning(md_escape(line))
key = logic.plan_key(plan)
q = logic.queue(db, run_id, version, key, asked)
show_progress(logic.progress_of(db, run_id, version, key, asked, logic.labels_stamp(db),
                                logic.skipped_digest(plan),
                                str(st.session_state.get(logic.ANNOTATOR_KEY, ""))))
if st.session_state.get(logic.ERROR_KEY):
    st.error(md_escape(str(st.session_state.pop(logic.ERROR_KEY))))
with logic.session(db, q) as s:
    revealed = st.session_state.get(logic.REVEAL_KEY, {}).get(run_id)
    if revealed is not None:
        show_verdict(s, revealed)
    try:
        item = s.current()
    except AnnotationError as exc:
        st.error(md_escape(str(exc)))
        st.stop()
        raise AssertionError("unreachable") from None
    if item is None:
        st.success("Every sample of the queue has its labels (or was skipped).")
        st.button("Undo (u)", key=logic.UNDO_KEY, on_click=logic.on_undo, args=(db, q, None),
                  disabled=not logic.history(run_id))
    else:
        show_item(db, q, s, item)
