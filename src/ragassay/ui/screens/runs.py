"""Runs: every run in the store; open one, or compare two."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ragassay.store import StoreError
from ragassay.types import is_offline
from ragassay.ui import data, state
from ragassay.ui.fmt import headline, metric_label
from ragassay.ui.highlight import md_escape

st.title("Runs")
try:
    rows = data.list_runs(state.db())
except StoreError as exc:
    st.info(f"{md_escape(str(exc))}. Evaluate a dataset on the Evaluate page or with "
            "`ragassay eval DATA`.")
    st.stop()
if not rows:
    st.info("The store has no runs yet. Evaluate a dataset on the Evaluate page "
            "or with `ragassay eval DATA`.")
    st.stop()

datasets = sorted({r.run.dataset for r in rows})
if len(datasets) > 1:
    chosen = st.selectbox("Dataset", ["(all)", *datasets], key="runs_dataset")
    if chosen != "(all)":
        rows = [r for r in rows if r.run.dataset == chosen]

metrics = list(dict.fromkeys(m for r in rows for m in r.means))
specs = {name: spec for r in rows for name, spec in r.run.spec_map().items()}
shown = headline(metrics, specs, limit=5)
frame = pd.DataFrame([
    {
        "run": r.run.id,
        "status": r.run.status,
        "kind": r.run.config.kind,
        "dataset": Path(r.run.dataset).name,
        "judge": r.run.judge_model if is_offline(r.run.judge) else r.run.judge,
        "metrics": ",".join(r.run.config.metrics),
        "created": r.run.created.strftime("%Y-%m-%d %H:%M:%S"),
        "samples": r.samples,
        **{metric_label(m, specs): r.means.get(m) for m in shown},
    }
    for r in rows
])
st.dataframe(frame, hide_index=True, column_config={
    metric_label(m, specs): st.column_config.NumberColumn(format="%.3f") for m in shown})
st.caption("Headline metrics are means of the scored samples (booleans as rates).")

ids = [r.run.id for r in rows]
labels = {r.run.id: f"{r.run.id} · {Path(r.run.dataset).name}" for r in rows}
picked = st.multiselect("Select one run to open, or two to compare", ids, key="runs_pick",
                        format_func=labels.__getitem__, max_selections=2)
left, right = st.columns(2)
if left.button("Open run", disabled=len(picked) != 1, type="primary"):
    state.select_run(picked[0])
    state.go("overview", run=picked[0])
if right.button("Compare runs", disabled=len(picked) != 2):
    st.session_state[state.COMPARE_KEY] = (picked[0], picked[1])
    state.select_run(picked[0])
    state.go("compare")
