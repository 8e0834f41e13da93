"""Sample explorer: filter and sort samples; view one with its evidence highlighted.

All user text (question, answer, contexts, reference, reasoning, raw replies) is
shown escaped (st.html over html.escape'd text, st.code, st.dataframe, st.json),
never as Markdown or live HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from ragassay.dataset.traces import (
    DOCUMENT_RELEVANCE,
    HOP_RELEVANCE,
    HOP_UTILIZATION,
    HOPS_NOTE,
)
from ragassay.report import FailedEntry, SampleEntry
from ragassay.report.highlight import (
    CSS,
    LEGEND,
    answer_html,
    claims_title,
    contexts_html,
    marks_of,
    text_html,
    unmatched_claims,
)
from ragassay.terminal import counted
from ragassay.types import MetricSpec
from ragassay.ui import data, paged, state
from ragassay.ui import samples as logic
from ragassay.ui.fmt import metric_label, metric_range, num, rows_height
from ragassay.ui.highlight import md_escape
from ragassay.ui.routing import routing_line


def block(body: str) -> None:
    st.html(CSS + body)


def show_sample(d: SampleEntry | FailedEntry, specs: Mapping[str, MetricSpec]) -> None:
    st.subheader("Sample")
    st.code(f"{d.strategy}/{d.id}", language=None, wrap_lines=True)
    if isinstance(d, FailedEntry):
        st.error("This input row was invalid and was not evaluated.")
        st.code(d.error, language=None, wrap_lines=True)
        return
    metrics, unscored = d.metrics, d.unscored
    st.dataframe(pd.DataFrame([
        {"metric": metric_label(m, specs), "value": num(v) if v is not None else "unscored",
         "unscored reason": unscored.get(m, ""), "range": metric_range(specs.get(m))}
        for m, v in metrics.items()
    ]), hide_index=True, height=rows_height(len(metrics)))

    details: dict[str, Any] = d.details
    marks = marks_of(d.marks)
    st.markdown("**Question**")
    block(text_html(d.question))
    st.markdown("**Answer**")
    block(answer_html(d.answer, marks))
    if marks.claims:
        st.caption(md_escape(claims_title(marks)) + ":")
        block("".join(text_html(f"{c.text}: {c.verdict_text()}") for _, c in marks.claims))
    elif claims := unmatched_claims(d.answer, marks):
        st.caption("Unsupported claims (not sentences of the answer as written):")
        block("".join(text_html(c) for c in claims))
    contexts = d.contexts
    st.markdown(f"**Contexts** ({len(contexts)})")
    if marks.empty:
        st.caption("No sentence-level evidence recorded for this sample (the trace and "
                   "ragas suites record it); sentences are keyed as the judges see them.")
    else:
        st.caption("Highlights from: "
                   + md_escape(", ".join(metric_label(m, specs) for m in marks.sources)))
        block(LEGEND)
    for i, html_block in enumerate(contexts_html(contexts, marks), 1):  # as markers count
        st.caption(f"Context {i}")
        block(html_block)
    if not contexts:
        st.caption("(no contexts)")
    refs = d.references
    st.markdown("**Reference**" + (f" ({len(refs)} acceptable)" if len(refs) > 1 else ""))
    block("".join(text_html(str(r)) for r in refs) if refs else text_html("(none given)"))
    st.markdown("**Judge's reasoning**")
    if (routed := routing_line(d)) is not None:
        st.caption(md_escape(routed))
    block(text_html(d.reasoning or "(none recorded)"))
    replies = [(m, f) for m, f in (d.failures or {}).items()
               if m in unscored and (f.raw_reply or f.prompt)]
    if replies:
        st.markdown("**Raw judge replies for unscored metrics**")
        for m, failure in replies:
            with st.expander(md_escape(f"{metric_label(m, specs)}: {unscored[m][:80]}")):
                st.code(failure.raw_reply or "(no reply)", language=None, wrap_lines=True)
                if failure.prompt:
                    st.caption("Prompt")
                    st.code("\n\n".join(f"[{p.role}]\n{p.content}" for p in failure.prompt),
                            language=None, wrap_lines=True)
    if d.trace is not None:
        show_trace(d)
    if d.labels:
        st.markdown("**Human labels**")
        st.json(d.labels, expanded=True)
    if d.metadata:
        st.markdown("**Metadata**")
        st.json(d.metadata, expanded=True)
    if details:
        with st.expander("All metric details (JSON)"):
            st.json(details, expanded=False)


def show_trace(d: SampleEntry) -> None:
    """The trace the sample was read from: its span tree with the hops' scores, the
    relevant documents later hops lost, each hop's documents."""
    trace = d.trace
    assert trace is not None
    st.markdown("**Trace**")
    st.code(f"trace {trace.trace_id}  root span {trace.span_id}", language=None)
    rows = logic.span_tree(trace)
    st.dataframe(pd.DataFrame(rows), hide_index=True, height=rows_height(len(rows)),
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in (HOP_RELEVANCE, HOP_UTILIZATION)})
    st.caption(HOPS_NOTE)
    for lost in trace.lost:
        st.warning(f"A later hop lost what hop {lost.hop} found: a document with "
                   f"{DOCUMENT_RELEVANCE} {lost.relevance:.2f} is missing from the final contexts.")
        st.code(lost.document, language=None, wrap_lines=True)
    for i, hop in enumerate(trace.hops):
        with st.expander(f"Hop {i + 1}: {hop.kind}, {counted(len(hop.documents), 'document')}"):
            st.caption("Span")
            st.code(hop.name, language=None, wrap_lines=True)
            st.caption("Query")
            st.code(hop.query or "(none recorded)", language=None, wrap_lines=True)
            st.dataframe(pd.DataFrame(logic.hop_documents(hop)), hide_index=True)


st.title("Sample explorer")
paged.explore_if_large(show_sample)  # a large run: a page at a time, from the store
run_id, version, report = state.selected_report()
db = state.db()
table = data.table(db, run_id, version)
specs = report.metric_specs
metrics = list(report.aggregate_metrics.metrics) or list(specs)
frame = logic.sample_frame(table, metrics, specs)
if frame.empty:
    st.info("This run has no samples yet.")
    st.stop()

with st.container(border=True):
    c1, c2, c3 = st.columns(3)
    strategies = sorted(frame[logic.STRATEGY].unique())
    picked_strategies = c1.multiselect("Strategy", strategies, key="samples_strategies",
                                       placeholder="all strategies")
    reason = c2.selectbox("Unscored reason", logic.reasons(frame), key="samples_reason")
    text = c3.text_input("Search question, answer or id", key="samples_text")
    c4, c5, c6 = st.columns(3)
    sort_metric = c4.selectbox("Sort by", metrics, format_func=lambda m: metric_label(m, specs),
                               key="samples_sort") if metrics else None
    ascending = c5.radio("Order", ["lowest first", "highest first"], horizontal=True,
                         key="samples_order") == "lowest first"
    value_range = None
    if sort_metric is not None:
        spec = specs.get(sort_metric)
        low, high = (spec.low, spec.high) if spec is not None else (0.0, 1.0)
        if high > low:
            value_range = c6.slider("Value range", low, high, (low, high),
                                    key=f"samples_range_{sort_metric}")
found = data.matching(db, run_id, version, text.strip()) if text.strip() else None
filtered = logic.apply_filters(frame, logic.Filters(
    strategies=tuple(picked_strategies), reason=reason, text=text, sort_metric=sort_metric,
    ascending=ascending, value_range=value_range), found, specs)
st.caption(f"{len(filtered)} of {len(frame)} samples")
st.dataframe(filtered.drop(columns=[logic.ID, logic.REASONS]), hide_index=True,
             column_config={metric_label(m, specs): st.column_config.NumberColumn(
                 format="%.3f") for m in metrics})

# The sample to show: a new ?sample= link wins once; then the selector decides.
wanted = st.query_params.get(state.SAMPLE_PARAM)
if wanted and wanted != st.session_state.get(state.SEEN_SAMPLE_KEY):
    st.session_state[state.SEEN_SAMPLE_KEY] = wanted
    key = logic.resolve(wanted, frame)
    if key is None:
        st.warning("The linked sample is not in this run.")
    else:
        st.session_state[state.SAMPLE_KEY] = key
keys = list(filtered[logic.KEY])
current = st.session_state.get(state.SAMPLE_KEY)
if current is not None and current not in keys and current in set(frame[logic.KEY]):
    keys = [current, *keys]  # a linked sample stays visible even when filtered out
if not keys:
    st.info("No sample matches these filters.")
    st.stop()
if current not in keys:
    current = keys[0]
if st.session_state.get(state.SAMPLE_PICKER_KEY) != current:
    st.session_state[state.SAMPLE_PICKER_KEY] = current


def _picked() -> None:
    st.session_state[state.SAMPLE_KEY] = st.session_state[state.SAMPLE_PICKER_KEY]


choice = st.selectbox("Open sample", keys, key=state.SAMPLE_PICKER_KEY, on_change=_picked)
st.session_state[state.SAMPLE_KEY] = choice
picked_id = str(frame.loc[frame[logic.KEY] == choice, logic.ID].iloc[0])
entry = data.sample(db, run_id, version, picked_id)
if entry is not None:
    show_sample(entry, specs)
