"""Leaderboard: a bench run's strategies ranked, with cost, latency and failed questions,
as `ragassay bench` stored them with the run."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragassay.report import (
    LEADERBOARD_COLUMNS,
    LEADERBOARD_HEADERS,
    LEADERBOARD_NOTE,
    VERSUS_COLUMNS,
    VERSUS_HEADERS,
    VERSUS_NOTE,
    leaderboard_notes,
    versus_rows,
)
from ragassay.store import StoreError
from ragassay.ui import data, state
from ragassay.ui.highlight import md_escape

st.title("Leaderboard")
try:
    benches = [r.run for r in data.list_runs(state.db()) if r.run.config.kind == "bench"]
except StoreError as exc:
    st.info(f"{md_escape(str(exc))}. Rank strategies with `ragassay bench CONFIG`.")
    st.stop()
if not benches:
    st.info("No bench run in this store yet. Rank chunking, retrieval and your own "
            "pipelines with `ragassay bench CONFIG`.")
    st.stop()

ids = [r.id for r in benches]
selected = st.session_state.get(state.RUN_KEY)
labels = {r.id: f"{r.id} · {r.dataset.removeprefix('bench:')}" for r in benches}
run_id = st.selectbox("Bench run", ids, index=ids.index(selected) if selected in ids else 0,
                      format_func=labels.__getitem__, key="leaderboard_run")
run, version = data.get_run(state.db(), run_id)
report = data.report(state.db(), run_id, version)
rows = report.leaderboard
if not rows:
    st.warning(md_escape(report.leaderboard_error or "This bench run stored no leaderboard "
                         "(it was made before leaderboards were stored, or did not "
                         "finish)."))
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script")


metric = rows[0].metric
spec = report.spec(metric)
label = (spec.label if spec is not None else "") or metric
# the leaderboard's columns, as the console and the HTML report show them
frame = pd.DataFrame([[c.value(r) for c in LEADERBOARD_COLUMNS] for r in rows],
                     columns=list(LEADERBOARD_HEADERS))
st.subheader(f"Ranked by {md_escape(label)}")
st.dataframe(frame, hide_index=True, key="leaderboard_table", column_config={
    c.header: st.column_config.NumberColumn(format=f"%.{c.digits}f")
    for c in LEADERBOARD_COLUMNS if c.numeric})
st.caption(LEADERBOARD_NOTE)
versus = versus_rows(rows)
if versus:
    st.subheader(f"Against the best ({rows[0].strategy})")
    st.dataframe(pd.DataFrame([[c.value(r) for c in VERSUS_COLUMNS] for r in versus],
                              columns=list(VERSUS_HEADERS)),
                 hide_index=True, key="leaderboard_versus", column_config={
        c.header: st.column_config.NumberColumn(format=f"%.{c.digits}f")
        for c in VERSUS_COLUMNS if c.numeric})
    st.caption(VERSUS_NOTE)
for note in leaderboard_notes(rows):
    st.info(note)
for s in report.bench.strategies if report.bench is not None else ():
    if s.failed:
        st.warning(md_escape(f"{s.name}: {s.failed} failed question(s); first: "
                             f"{(s.failures or ['?'])[0]}"))
with st.expander("Bench config"):
    st.json(report.bench_config or {}, expanded=False)
if st.button("Open this run", key="leaderboard_open"):
    state.select_run(run_id)
    state.go("overview", run=run_id)
