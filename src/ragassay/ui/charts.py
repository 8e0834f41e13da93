"""Plotly figures for the dashboard, built from report sections and score tables.

User strings (strategy names, sample ids, metric labels) are HTML-escaped before they reach a
figure: plotly renders a few tags (links, bold) inside labels, entities as text.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from ragassay.report import TrendMark
from ragassay.stats import CorrelationMatrix, ScoreTable, StrategySummary, TrendPoint
from ragassay.types import MetricSpec
from ragassay.ui.fmt import metric_label as _label


def metric_label(name: str) -> str:
    """The metric's label as a figure shows it (escaped: plotly renders a few tags)."""
    return html.escape(_label(name))


def long_frame(table: ScoreTable) -> pd.DataFrame:
    """One row per (sample, metric): strategy, sample, metric, value, normalised value."""
    rows = []
    for r in table.rows:
        for m, spec in table.specs.items():
            v = r.values.get(m)
            rows.append({
                "strategy": html.escape(r.strategy), "sample": html.escape(r.id),
                "metric": m, "label": metric_label(m), "value": v,
                "normalised": None if v is None else spec.normalise(v),
            })
    return pd.DataFrame(rows, columns=["strategy", "sample", "metric", "label", "value",
                                       "normalised"])


def distribution(frame: pd.DataFrame, metric: str) -> go.Figure:
    """Histogram of one metric's scored values per strategy, with box plots above."""
    sub = frame[(frame["metric"] == metric) & frame["value"].notna()]
    fig = px.histogram(sub, x="value", color="strategy", marginal="box", barmode="overlay",
                       opacity=0.7, nbins=20, hover_data=["sample"],
                       labels={"value": metric_label(metric), "strategy": "strategy"})
    fig.update_layout(yaxis_title="samples", margin={"t": 30, "b": 10})
    return fig


def all_boxes(frame: pd.DataFrame) -> go.Figure:
    """Every metric's distribution on its declared range mapped onto 0-1."""
    sub = frame[frame["normalised"].notna()]
    fig = px.box(sub, x="label", y="normalised", color="strategy", points="all",
                 hover_data=["sample", "value"],
                 labels={"label": "", "normalised": "score (normalised to 0-1)"})
    fig.update_layout(margin={"t": 30, "b": 10})
    return fig


def strategy_bars(strategies: Mapping[str, StrategySummary], specs: Mapping[str, MetricSpec]
                  ) -> go.Figure:
    """Mean per metric and strategy (normalised to 0-1) with 95% interval error bars."""
    rows = []
    for strategy, summary in strategies.items():
        for m, e in summary.metrics.items():
            if e.mean is None or m not in specs:
                continue
            low, high = specs[m].low, specs[m].high
            span = (high - low) or 1.0

            def norm(x: float | None, low: float = low, span: float = span) -> float | None:
                return None if x is None else (float(x) - low) / span

            mean = norm(e.mean)
            lo, hi = norm(e.ci_low), norm(e.ci_high)
            rows.append({
                "strategy": html.escape(strategy), "metric": metric_label(m), "mean": mean,
                "plus": None if hi is None or mean is None else hi - mean,
                "minus": None if lo is None or mean is None else mean - lo,
                "n": e.count,
            })
    frame = pd.DataFrame(rows, columns=["strategy", "metric", "mean", "plus", "minus", "n"])
    fig = px.bar(frame, x="metric", y="mean", color="strategy", barmode="group",
                 error_y="plus", error_y_minus="minus", hover_data=["n"],
                 labels={"metric": "", "mean": "mean (normalised to 0-1)"})
    fig.update_layout(margin={"t": 30, "b": 10})
    return fig


def correlation_heatmap(correlations: CorrelationMatrix) -> go.Figure:
    """The metrics' rank correlation matrix (pairs with too few samples left blank)."""
    names = correlations.metrics
    z = [[correlations.value(a, b) for b in names] for a in names]
    labels = [metric_label(n) for n in names]
    fig = px.imshow(pd.DataFrame(z, index=labels, columns=labels, dtype=float),
                    zmin=-1, zmax=1, color_continuous_scale="RdBu", text_auto=".2f",
                    aspect="auto")
    fig.update_layout(margin={"t": 30, "b": 10},
                      coloraxis_colorbar_title=correlations.method)
    return fig


def _judge_cell(mark: TrendMark | None) -> str:
    """A point's judge as the trend table's judge column says it (`TrendMark.cells`)."""
    return "?" if mark is None else mark.cells()[1]


def trend_lines(points: Mapping[str, list[TrendPoint]], metrics: list[str],
                marks: Mapping[str, TrendMark] | None = None) -> go.Figure:
    """Each metric's mean across runs (by creation time) with 95% interval error bars; with
    the runs' `marks` (`report.trend_marks`), each point's judge in its hover and a dotted
    line at each run whose judge changed, as `ragassay trend` marks it."""
    marks = marks or {}
    fig = go.Figure()
    shown: set[str] = set()
    for m in metrics:
        pts = [(p, p.mean) for p in points.get(m, []) if p.mean is not None]
        if not pts:
            continue
        shown.update(p.run_id for p, _ in pts)
        fig.add_trace(go.Scatter(
            x=[p.run_id for p, _ in pts], y=[mean for _, mean in pts], mode="lines+markers",
            name=metric_label(m),
            error_y={"type": "data", "symmetric": False,
                     "array": [(p.ci_high or mean) - mean for p, mean in pts],
                     "arrayminus": [mean - (p.ci_low or mean) for p, mean in pts]},
            customdata=[[p.count, p.delta, _judge_cell(marks.get(p.run_id))]
                        for p, _ in pts],
            hovertemplate="%{x}<br>mean %{y:.3f}<br>n=%{customdata[0]}"
                          "<br>judge %{customdata[2]}<extra></extra>",
        ))
    for run_id, mark in marks.items():
        if mark.judge_changed and run_id in shown:
            fig.add_shape(type="line", x0=run_id, x1=run_id, xref="x", y0=0, y1=1,
                          yref="paper", line={"dash": "dot", "color": "gray"})
            fig.add_annotation(x=run_id, xref="x", y=1, yref="paper", showarrow=False,
                               yanchor="bottom", text=f"judge changed: {mark.judge}")
    fig.update_layout(xaxis_title="run (oldest first)", yaxis_title="mean",
                      xaxis_type="category", margin={"t": 30, "b": 10})
    return fig
