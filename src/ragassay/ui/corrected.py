"""The dashboard's view of a run's corrected estimates: people's figures from a few human
labels and every judge score (`report.corrected`), beside the judge's own mean."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from ragassay.report import Report
from ragassay.types import MetricSpec
from ragassay.ui.fmt import interval, metric_label, num, rows_height
from ragassay.ui.highlight import md_escape

WHY = ("What people would say about the whole run: the human labels on a sample, "
       "corrected by every judge score (prediction-powered inference). The interval is "
       "valid however biased the judge is; a better judge only narrows it.")


def show_corrected(report: Report, specs: Mapping[str, MetricSpec]) -> None:
    """A header, one card per whole-run estimate, a table of all of them (per strategy
    too) and a line per link without one; nothing when the run has no labels."""
    cor = report.corrected
    if cor is None:
        return
    st.header("People's figures, corrected from human labels")
    st.caption(WHY)
    whole = [e for e in cor.estimates if e.strategy is None]
    for col, e in zip(st.columns(max(1, min(4, len(whole)))), whole[:4], strict=False):
        col.metric(md_escape(f"{e.label} (people)"), num(e.estimate),
                   delta=None if e.judge_mean is None else md_escape(
                       f"judge's own {num(e.judge_mean)} via {metric_label(e.metric, specs)}"),
                   delta_color="off",
                   help=f"{cor.confidence:.0%} CI {interval(e.ci_low, e.ci_high)} from "
                        f"{e.n_labelled} of {e.n_total} samples labelled")
    if cor.estimates:
        st.dataframe(pd.DataFrame([
            {"label": e.label, "via metric": metric_label(e.metric, specs),
             "strategy": e.strategy or "all", "corrected": e.estimate,
             f"{cor.confidence:.0%} CI": interval(e.ci_low, e.ci_high),
             "labels only": interval(e.labels_only.ci_low, e.labels_only.ci_high),
             "judge's own mean": e.judge_mean, "labels": f"{e.n_labelled} of {e.n_total}"}
            for e in cor.estimates]), hide_index=True, height=rows_height(len(cor.estimates)),
            column_config={c: st.column_config.NumberColumn(format="%.3f")
                           for c in ("corrected", "judge's own mean")})
    for e in cor.estimates:
        if e.note:
            st.caption(md_escape(f"{e.label} via {e.metric} ({e.strategy or 'all'}): {e.note}"))
    for s in cor.skipped:
        if s.strategy is None:
            more = (f" Label more on the Annotate page, or `ragassay annotate "
                    f"{report.run.run_id}`." if s.too_few_labels else "")
            st.caption(md_escape(f"No corrected estimate of {s.label} via {s.metric}: "
                                 f"{s.reason}.") + more)
