"""Downloads: the run's full JSON report, a CSV of every (sample, metric) value, and
the self-contained HTML report."""

from __future__ import annotations

import streamlit as st

from ragassay.report.csv import FIELDS
from ragassay.ui import data, state

st.title("Downloads")
run_id, version, report = state.selected_report()
db = state.db()
st.text(f"Run {run_id}: {report.run.total_samples} samples")

st.download_button("Download JSON report", data.download(db, run_id, version, "json"),
                   file_name=f"ragassay-{run_id}.json", mime="application/json",
                   key="download_json", icon=":material/data_object:", on_click="ignore")
st.caption("Everything in the report: metadata, aggregates with intervals, statistics, "
           "strategies, flags, correlations, diagnostics, calibration, usage, per-sample "
           "results with details.")
st.download_button("Download CSV", data.download(db, run_id, version, "csv"),
                   file_name=f"ragassay-{run_id}.csv", mime="text/csv", key="download_csv",
                   icon=":material/table:", on_click="ignore")
st.caption("One row per sample and metric: " + ", ".join(FIELDS)
           + ". Unscored values are empty with their reason; booleans are 1/0.")
st.download_button("Download HTML report", data.download(db, run_id, version, "html"),
                   file_name=f"ragassay-{run_id}.html", mime="text/html",
                   key="download_html", icon=":material/description:", on_click="ignore")
st.caption("A self-contained page (tables and SVG charts, no script) to share or archive.")
