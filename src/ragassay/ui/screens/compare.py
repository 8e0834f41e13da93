"""Compare: two runs, or two strategies of one run, with paired differences."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from ragassay.stats import Comparison, MetricComparison, magnitude
from ragassay.store import StoreError
from ragassay.types import MetricSpec
from ragassay.ui import data, large, state
from ragassay.ui.fmt import interval, metric_label, rows_height
from ragassay.ui.highlight import md_escape

VERDICT_ICON = {"better": "▲ better", "worse": "▼ worse", "equivalent": "= equivalent"}
LARGE_NOTE = ("A large run: the paired tests and bootstrap intervals read every sample "
              "(about a minute per 50,000 samples).")


def comparison_frame(result: Comparison) -> pd.DataFrame:
    return pd.DataFrame([
        {"metric": metric_label(m), "n (paired)": r.n, "mean A": r.mean_a,
         "mean B": r.mean_b, "B - A": r.diff,
         "95% CI of B - A (unadjusted)": interval(r.ci_low, r.ci_high, n=r.n),
         "Cohen's d": r.effect_size,
         "effect": "identical" if r.constant else magnitude(r.effect_size),
         "Wilcoxon p": r.wilcoxon_p, "Holm-adjusted p": r.p_adjusted,
         "margin": r.margin, "equivalence p (Holm)": r.tost_p_adjusted,
         "verdict (B vs A)": VERDICT_ICON.get(r.verdict, r.verdict)
         + r.verdict_text.removeprefix(r.verdict)}
        for m, r in result.metrics.items()
    ])


def diff_chart(result: Comparison, specs: Mapping[str, MetricSpec]) -> go.Figure:
    """Paired differences on each metric's range mapped onto 0-1, with 95% intervals."""
    items = [(m, r) for m, r in result.metrics.items() if r.diff is not None]
    colours = {"better": "#21c354", "worse": "#ff4b4b", "equivalent": "#1c83e1"}

    def span(m: str) -> float:
        spec = specs.get(m)
        return ((spec.high - spec.low) or 1.0) if spec is not None else 1.0

    def scaled(m: str, r: MetricComparison, value: float | None) -> float:
        return float(value if value is not None else r.diff or 0.0) / span(m)

    fig = go.Figure(go.Bar(
        x=[scaled(m, r, r.diff) for m, r in items],
        y=[html.escape(metric_label(m)) for m, _ in items],  # plotly renders a few tags
        orientation="h", marker_color=[colours.get(r.verdict, "#9aa0a6") for _, r in items],
        customdata=[r.diff for _, r in items],
        hovertemplate="%{y}: B - A = %{customdata:.4f}<extra></extra>",
        error_x={"type": "data", "symmetric": False,
                 "array": [scaled(m, r, r.ci_high) - scaled(m, r, r.diff) for m, r in items],
                 "arrayminus": [scaled(m, r, r.diff) - scaled(m, r, r.ci_low)
                                for m, r in items]},
    ))
    fig.add_vline(x=0, line_color="#888")
    fig.update_layout(xaxis_title="mean paired difference B - A, as a share of the metric's "
                                  "range (95% CI); green better, red worse, blue equivalent",
                      margin={"t": 20, "b": 10}, height=120 + 32 * len(items))
    return fig


def show(result: Comparison, specs: Mapping[str, MetricSpec]) -> None:
    cols = st.columns(4)
    cols[0].metric("Paired samples", result.paired_samples)
    cols[1].metric("Only in A", result.only_in_a)
    cols[2].metric("Only in B", result.only_in_b)
    cols[3].metric("Duplicates dropped", result.duplicates_dropped)
    st.caption(f"Paired by {result.paired_by}. Equivalent: the two one-sided tests "
               "(Holm-adjusted) put the difference within the metric's practical-equivalence "
               "margin. Else better or worse when the Holm-adjusted Wilcoxon p < "
               f"{result.alpha} and the paired-bootstrap interval of the difference excludes "
               "0 (direction respects the metric); else unclear; not scored when no paired "
               "sample has a value on both sides. Cohen's d: the difference "
               "over the two sides' average SD. The intervals are per metric, not adjusted "
               "for multiple metrics.")
    if not result.paired_samples:
        st.error("No paired samples: these share no sample (different datasets?), so "
                 "nothing can be compared.")
        return
    if not result.metrics:
        st.info("No metric in common.")
        return
    st.dataframe(comparison_frame(result), hide_index=True,
                 height=rows_height(len(result.metrics)), column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("mean A", "mean B", "B - A", "Wilcoxon p", "Holm-adjusted p", "margin",
                  "equivalence p (Holm)")} | {
        "Cohen's d": st.column_config.NumberColumn(format="%.2f")})
    st.plotly_chart(diff_chart(result, specs), key="chart_compare")
    constant = [metric_label(m) for m, r in result.metrics.items() if r.constant and r.n]
    if constant:
        st.info(f"Constant: {', '.join(constant)}: A and B score every paired sample alike, "
                "so these metrics cannot separate them.")
    for key, only in (("metrics only in a", result.metrics_only_in_a),
                      ("metrics only in b", result.metrics_only_in_b)):
        if only:
            st.caption(md_escape(f"{key}: {', '.join(map(metric_label, only))}"))


st.title("Compare")
db = state.db()
try:
    rows = data.list_runs(db)
except StoreError as exc:
    st.info(md_escape(str(exc)))
    st.stop()
if not rows:
    st.info("No runs to compare yet.")
    st.stop()
mode = st.radio("Compare", ["Two runs", "Two strategies of one run"], horizontal=True,
                key="compare_mode")
alpha = st.select_slider("Significance level", [0.01, 0.05, 0.1], value=0.05,
                         key="compare_alpha")
versions = {r.run.id: r.version for r in rows}
labels = {r.run.id: f"{r.run.id} · {Path(r.run.dataset).name}" for r in rows}
ids = list(versions)

if mode == "Two runs":
    if len(ids) < 2:
        st.info("The store has one run: evaluate another (or compare two strategies).")
        st.stop()
    pair = st.session_state.get(state.COMPARE_KEY) or (ids[1], ids[0])
    a_default = ids.index(pair[0]) if pair[0] in ids else 1
    b_default = ids.index(pair[1]) if pair[1] in ids else 0
    left, right = st.columns(2)
    a = left.selectbox("A (baseline)", ids, index=a_default, format_func=labels.__getitem__,
                       key="compare_a")
    b = right.selectbox("B (candidate)", ids, index=b_default, format_func=labels.__getitem__,
                        key="compare_b")
    st.session_state[state.COMPARE_KEY] = (a, b)
    if a == b:
        st.warning("Pick two different runs.")
        st.stop()
    if data.is_large(db, a, versions[a]) or data.is_large(db, b, versions[b]):
        large.gate("compare", f"{a} {b}", "Compare these runs", LARGE_NOTE)
    result = data.compare_runs(db, (a, versions[a]), (b, versions[b]), alpha)
    show(result, data.table(db, b, versions[b]).specs)
else:
    run_id = state.selected_run() or ids[0]
    if run_id not in versions:
        run_id = ids[0]
    if data.is_large(db, run_id, versions[run_id]):
        large.gate("compare", run_id, "Compare its strategies", LARGE_NOTE)
    table = data.table(db, run_id, versions[run_id])
    strategies = list(table.strategies)
    st.text(f"Run {run_id}")
    if len(strategies) < 2:
        st.info("This run has a single strategy; pick another run in the sidebar.")
        st.stop()
    left, right = st.columns(2)
    s1 = left.selectbox("A (baseline strategy)", strategies, index=0, key="compare_s1")
    s2 = right.selectbox("B (candidate strategy)", strategies, index=1, key="compare_s2")
    if s1 == s2:
        st.warning("Pick two different strategies.")
        st.stop()
    result = data.compare_within(db, (run_id, versions[run_id]), s1, s2, alpha)
    show(result, table.specs)
