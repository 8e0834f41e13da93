"""Downloads: the run's full JSON report, a CSV of every (sample, metric) value, and
the self-contained HTML report."""

from __future__ import annotations

import streamlit as st

from ragassay.report import to_csv, to_html
from ragassay.report.csv import FIELDS
from ragassay.ui import export, state

st.title("Downloads")
run_id, version, report = state.selected_report()
st.text(f"Run {run_id}: {len(report.get('detailed_results', []))} samples")

st.download_button("Download JSON report", export.report_json(report),
                   file_name=f"ragassay-{run_id}.json", mime="application/json",
                   key="download_json", icon=":material/data_object:", on_click="ignore")
st.caption("Everything in the report: metadata, aggregates with intervals, statistics, "
           "strategies, flags, correlations, diagnostics, calibration, usage, per-sample "
           "results with details.")
st.download_button("Download CSV", to_csv(report), file_name=f"ragassay-{run_id}.csv",
                   mime="text/csv", key="download_csv", icon=":material/table:",
                   on_click="ignore")
st.caption("One row per sample and metric: " + ", ".join(FIELDS)
           + ". Unscored values are empty with their reason; booleans are 1/0.")
st.download_button("Download HTML report", to_html(report),
                   file_name=f"ragassay-{run_id}.html", mime="text/html",
                   key="download_html", icon=":material/description:", on_click="ignore")
st.caption("A self-contained page (tables and SVG charts, no script) to share or archive.")
