"""The sample explorer over a large run (`data.LARGE_RUN`): a page of samples at a time,
filtered and sorted by the store (`Store.sample_page`, SQL), so that neither the run's
score table nor its report is built; the sample opened is read on its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

import pandas as pd
import streamlit as st

from ragassay.report import FailedEntry, SampleEntry
from ragassay.store import SampleQuery, StoreError
from ragassay.types import MetricSpec, abstained_reason
from ragassay.ui import data, state
from ragassay.ui.fmt import metric_label, sample_key
from ragassay.ui.samples import ANY, SCORED_ALL, UNSCORED_ANY

PAGE_ROWS = 200
Show = Callable[[SampleEntry | FailedEntry, Mapping[str, MetricSpec]], None]


def explore_if_large(show: Show) -> None:
    """On a large selected run, the paged explorer (then the page stops); else nothing."""
    run_id = state.selected_run()
    if run_id is None:
        return
    try:
        run, version = data.get_run(state.db(), run_id)
    except StoreError:
        return  # the page's own checks say why
    if data.is_large(state.db(), run.id, version):
        _explore(state.db(), run.id, version, show)
        st.stop()


def _filters(db: str, run_id: str, version: str, metrics: list[str],
             specs: Mapping[str, MetricSpec]) -> SampleQuery:
    with st.container(border=True):
        c1, c2, c3 = st.columns(3)
        picked = c1.multiselect("Strategy", data.strategies(db, run_id, version),
                                key="samples_strategies", placeholder="all strategies")
        reason = c2.selectbox("Unscored reason", [ANY, SCORED_ALL, UNSCORED_ANY,
                                                  *data.reason_names(db, run_id, version)],
                              key="samples_reason")
        text = c3.text_input("Search question, answer or id", key="samples_text")
        c4, c5, c6 = st.columns(3)
        sort = c4.selectbox("Sort by", metrics, key="samples_sort",
                            format_func=lambda m: metric_label(m, specs)) if metrics else None
        ascending = c5.radio("Order", ["lowest first", "highest first"], horizontal=True,
                             key="samples_order") == "lowest first"
        value_range = None
        if sort is not None:
            full = (float(specs[sort].low), float(specs[sort].high))
            if full[1] > full[0]:
                lo, hi = c6.slider("Value range", *full, full, key=f"samples_range_{sort}")
                value_range = None if (lo, hi) == full else (float(lo), float(hi))
    return SampleQuery(
        strategies=tuple(picked), text=text.strip(), sort_metric=sort, ascending=ascending,
        scored={SCORED_ALL: True, UNSCORED_ANY: False}.get(reason),
        reason=None if reason in (ANY, SCORED_ALL, UNSCORED_ANY) else reason,
        value_range=value_range, limit=PAGE_ROWS)


def _explore(db: str, run_id: str, version: str, show: Show) -> None:
    summary = data.summary(db, run_id, version)
    specs = dict(summary.run.spec_map())
    metrics = [m.metric for m in summary.metrics]
    for m in metrics:
        specs.setdefault(m, MetricSpec(name=m))
    query = _filters(db, run_id, version, metrics, specs)
    first = data.sample_page(db, run_id, version, query)  # page 1, and how many match
    pages = max(1, -(-first.total // PAGE_ROWS))
    if st.session_state.get("samples_page_no", 1) > pages:  # fewer pages since the filter
        st.session_state["samples_page_no"] = 1
    number = int(st.number_input(f"Page (of {pages:,}, {PAGE_ROWS} samples each)", 1, pages,
                                 key="samples_page_no")) if pages > 1 else 1
    shown = first if number == 1 else data.sample_page(
        db, run_id, version, dataclasses.replace(query, offset=(number - 1) * PAGE_ROWS))
    st.caption(f"{first.total:,} of {summary.samples:,} samples match; a large run is read "
               "a page at a time from the store")
    st.dataframe(pd.DataFrame([{
        "key": sample_key(r.strategy, r.sample_id), "strategy": r.strategy, "status": "ok",
        **{metric_label(m, specs): r.values.get(m) for m in metrics},
        "unscored": "; ".join([*(f"{metric_label(m, specs)}: {why}"
                                 for m, why in r.reasons.items()),
                               *(f"{metric_label(m, specs)}: {abstained_reason(how)}"
                                 for m, how in r.abstained.items())]),
        "question": " ".join(r.question.split())[:120],
    } for r in shown.rows]), hide_index=True, column_config={
        metric_label(m, specs): st.column_config.NumberColumn(format="%.3f") for m in metrics})
    ids = {sample_key(r.strategy, r.sample_id): r.sample_id for r in shown.rows}
    wanted = st.query_params.get("sample")
    if wanted and wanted != st.session_state.get("_seen_qp_sample"):
        st.session_state["_seen_qp_sample"] = wanted
        st.session_state["samples_pick"] = wanted
    picked = st.session_state.get("samples_pick")
    keys = list(ids) if picked in ids or picked is None else [picked, *ids]
    if not keys:
        st.info("No sample matches these filters.")
        return
    choice = st.selectbox("Open sample", keys, key="samples_pick")
    sample_id = ids.get(choice) or choice.split("/", 1)[-1]
    entry = data.sample(db, run_id, version, sample_id)
    if entry is None:
        st.warning("The linked sample is not in this run.")
    else:
        show(entry, specs)
