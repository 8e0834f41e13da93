"""Monitor: a monitor run live (`ragassay monitor`): traces counted by state, each
watched metric's trend (its windows with their confidence-sequence band) against its
baseline, the newest window so far, the alarms. Refreshes itself while on."""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from ragassay.monitor.view import Band, MetricView, MonitorView
from ragassay.store import StoreError
from ragassay.ui import data, state

REFRESH_S = 5

st.title("Monitor")
try:
    monitors = [r.run for r in data.list_runs(state.db()) if r.run.config.kind == "monitor"]
except StoreError as exc:
    st.info(f"{exc}. Start one with `ragassay monitor --listen 127.0.0.1:4318`.")
    st.stop()
if not monitors:
    st.info("No monitor run in this store yet. Start one with `ragassay monitor --listen "
            "127.0.0.1:4318 --db DB` and point an OpenTelemetry exporter at it "
            "(docs/monitoring.md).")
    st.stop()

ids = [r.id for r in monitors]
selected = st.session_state.get(state.RUN_KEY)
labels = {r.id: f"{r.id} · {r.dataset.removeprefix('monitor:')} ({r.status})"
          for r in monitors}
run_id = st.selectbox("Monitor run", ids, index=ids.index(selected) if selected in ids else 0,
                      format_func=labels.__getitem__, key="monitor_run")
live = st.toggle(f"Refresh every {REFRESH_S} s", value=True, key="monitor_live")


def band_text(band: Band | None) -> str:
    if band is None or band.mean is None or band.low is None or band.high is None:
        return "-"
    return f"{band.mean:.3f} [{band.low:.3f}, {band.high:.3f}]"


def trend(metric: MetricView) -> go.Figure:
    """The windows' means with their bands, the baseline's mean and band, alarms."""
    fig = go.Figure()
    xs = [w.window for w in metric.windows]
    if metric.baseline is not None and metric.baseline.low is not None:
        top = len(xs) and max(xs) or 1
        fig.add_hrect(y0=metric.baseline.low, y1=metric.baseline.high, opacity=0.15,
                      fillcolor="green", line_width=0)
        fig.add_hline(y=metric.baseline.mean, line_dash="dash", line_color="green",
                      annotation_text="baseline", annotation_position="top left")
        fig.update_xaxes(range=[0.5, top + 0.5])
    if xs:
        fig.add_trace(go.Scatter(x=xs + xs[::-1], y=[w.band.high for w in metric.windows]
                                 + [w.band.low for w in metric.windows][::-1],
                                 fill="toself", line={"width": 0}, opacity=0.25,
                                 name="interval", hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=xs, y=[w.band.mean for w in metric.windows],
                                 mode="lines+markers", name="window mean"))
    for alarm in metric.alarms:
        fig.add_vline(x=alarm.get("window", 0), line_color="red",
                      annotation_text="alarm", annotation_position="bottom right")
    fig.update_layout(height=260, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      title=metric.label, xaxis_title="window", showlegend=False)
    return fig


def draw(view: MonitorView) -> None:
    t = view.traces
    cols = st.columns(6)
    for col, (name, key) in zip(cols, (("accepted", "accepted"), ("scored", "scored"),
                                       ("queued", "queued"), ("open", "open"),
                                       ("unsampled", "unsampled"), ("invalid", "invalid")),
                                strict=True):
        col.metric(name, f"{t[key]:,}")
    s = view.settings
    st.caption(f"Run {view.run_id} ({view.status}). A sample of {s.sample:g} of the traces "
               f"(by trace id) is scored; windows of {s.window} scored traces; alarms at "
               f"alpha {s.alpha:g}: the chance of any false alarm over the run's whole life, "
               "all metrics together. Bands are anytime-valid confidence sequences.")
    if view.alarms:
        st.error(f"{len(view.alarms)} alarm(s); the newest: {view.alarms[0].get('message')}")
    rows: list[dict[str, Any]] = [{
        "metric": m.label, "baseline": m.skipped and f"not tested: {m.skipped}"
        or band_text(m.baseline), "last window": band_text(m.windows[-1].band)
        if m.windows else "-", "now": band_text(m.current), "windows": len(m.windows),
        "alarms": len(m.alarms), "baseline values": "-" if m.asked is None else
        f"{m.baseline.n if m.baseline else 0} of {m.asked}",
        "smallest detectable change": "-" if m.detectable is None else f"{m.detectable:.3g}"}
        for m in view.metrics]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="monitor_table")
    for m in view.metrics:  # the baseline's size, as the console says it
        if m.size_line:
            (st.warning if m.size_warns else st.caption)(m.size_line)
    for m in view.metrics:
        if m.windows or m.baseline is not None:
            st.plotly_chart(trend(m), key=f"monitor_trend_{m.metric}")
        for w in m.windows:
            for c in w.corrected:
                st.caption(f"Window {w.window}: people's {c.label} {c.estimate:.3f} "
                           f"[{c.ci_low:.3f}, {c.ci_high:.3f}] from {c.n_labelled} labels "
                           "(corrected estimate)")
    if view.alarms:
        st.subheader("Alarms")
        st.dataframe(pd.DataFrame([{
            "time": a.get("time", "")[:19], "metric": a.get("label"),
            "message": a.get("message"),
            "traces": f"{a.get('traces', {}).get('first_trace', '')}.."
                      f"{a.get('traces', {}).get('last_trace', '')}",
            "worst": ", ".join(w["trace_id"][:12] for w in a.get("worst", []))}
            for a in view.alarms]), hide_index=True, key="monitor_alarms")


@st.fragment(run_every=REFRESH_S if live else None)
def page() -> None:
    view = data.monitor(state.db(), run_id)
    if view is None:
        st.warning("This run is no monitor run.")
        return
    draw(view)


page()
