"""Charts: distributions, per-strategy means with intervals, correlations, trends."""

from __future__ import annotations

import streamlit as st

from ragassay.report import judge_changes_text
from ragassay.ui import charts, data, state
from ragassay.ui.fmt import headline, metric_label
from ragassay.ui.highlight import md_escape

st.title("Charts")
run_id, version, report = state.selected_report("charts", "the charts")
db = state.db()
table = data.table(db, run_id, version)
if not table.specs:
    st.info("This run has no metric values yet.")
    st.stop()
frame = charts.long_frame(table)

st.header("Distribution per metric")
st.plotly_chart(charts.all_boxes(frame), key="chart_boxes")
metric = st.selectbox("Metric", list(table.specs),
                      format_func=lambda m: metric_label(m, table.specs),
                      key="charts_metric")
st.plotly_chart(charts.distribution(frame, metric), key="chart_hist")

st.header("Per-strategy means")
st.caption("Bars: mean per strategy on the metric's range mapped onto 0-1; "
           "error bars: 95% bootstrap confidence intervals.")
st.plotly_chart(charts.strategy_bars(report.strategies, report.metric_specs),
                key="chart_strategies")

st.header("Metric correlations")
correlations = report.correlations
if len(correlations.metrics) < 2:
    st.info("Correlations need at least two metrics.")
else:
    st.plotly_chart(charts.correlation_heatmap(correlations), key="chart_corr")

st.header("Trends across runs of this dataset")
run, _ = data.get_run(db, run_id)
history = data.trend_history(db, run)  # eval runs, as `ragassay trend` follows them
if history.left_out:
    st.caption(md_escape(history.left_out[0].upper() + history.left_out[1:] + "."))
if len(history.runs) < 2:
    st.info(f"{len(history.runs) or 'No'} complete eval run of this dataset so far: trends "
            "appear from the second.")
else:
    points = data.run_trends(db, history.runs)
    shown = headline(list(points), run.spec_map(), 3)
    chosen = st.multiselect("Metrics", list(points), default=shown,
                            format_func=lambda m: metric_label(m, run.spec_map()),
                            key="charts_trend_metrics")
    marks = history.judge_changes()
    judges = sum(m.judge_changed for m in marks.values())
    if judges:  # as `ragassay trend` says it
        st.caption(judge_changes_text(judges, "judge changed").capitalize() + ".")
    st.plotly_chart(charts.trend_lines(points, chosen, marks), key="chart_trends")
