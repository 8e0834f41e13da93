"""Leaderboard: a bench run's strategies ranked, with cost, latency and failed questions,
as `ragassay bench` stored them with the run."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragassay.bench import BenchResult
from ragassay.store import StoreError
from ragassay.ui import data, state

st.title("Leaderboard")
try:
    benches = [r.run for r in data.list_runs(state.db()) if r.run.config.kind == "bench"]
except StoreError as exc:
    st.info(f"{exc}. Rank strategies with `ragassay bench CONFIG`.")
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
    st.warning(report.leaderboard_error or "This bench run stored no leaderboard "
               "(it was made before leaderboards were stored, or did not finish).")
    st.stop()
    raise AssertionError("unreachable: st.stop() ends the script")


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


metric = rows[0].metric
spec = report.spec(metric)
label = (spec.label if spec is not None else "") or metric
frame = pd.DataFrame([{
    "#": r.rank, "strategy": r.strategy, "kind": r.kind,
    "mean": r.mean, "CI low": r.ci_low, "CI high": r.ci_high,
    "vs best": r.vs_best, "failed": r.failed,
    "recall": r.retrieval_recall, "MRR": r.retrieval_mrr, "nDCG": r.retrieval_ndcg,
    "no-answer": r.no_answer_rate, "answer p50 ms": _ms(r.answer_p50_s),
    "answer p95 ms": _ms(r.answer_p95_s), "estimated $": r.cost_estimate_usd,
    "measured $": r.cost_measured_usd,
} for r in rows])
st.subheader(f"Ranked by {label}")
st.dataframe(frame, hide_index=True, key="leaderboard_table", column_config={
    c: st.column_config.NumberColumn(format="%.3f")
    for c in ("mean", "CI low", "CI high", "recall", "MRR", "nDCG", "no-answer")})
st.caption("Mean of the ranking metric with its 95% bootstrap CI; 'vs best' is the paired "
           "verdict against the top strategy (Holm-adjusted Wilcoxon). Failed: questions "
           "whose pipeline call failed (failed rows, left out of the mean). Empty cost: "
           "unpriced, not free.")
bench = BenchResult.model_validate(report.bench)
for s in bench.strategies:
    if s.failed:
        st.warning(f"{s.name}: {s.failed} failed question(s); first: "
                   f"{(s.failures or ['?'])[0]}")
with st.expander("Bench config"):
    st.json(report.bench_config or {}, expanded=False)
if st.button("Open this run", key="leaderboard_open"):
    state.select_run(run_id)
    state.go("overview", run=run_id)
