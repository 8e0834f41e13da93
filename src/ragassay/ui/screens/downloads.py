"""Downloads: the run's full JSON report, a CSV of every (sample, metric) value, and
the self-contained HTML report, each built when asked for (a large run's report takes
minutes: a page that built all three before any click never rendered)."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from ragassay.report.csv import FIELDS
from ragassay.report.model import METADATA_KEYS_MAX
from ragassay.ui import data, state

FORMATS: tuple[tuple[Literal["json", "csv", "html"], str, str, str, str], ...] = (
    # format, what, mime, icon, caption
    ("json", "JSON report", "application/json", ":material/data_object:",
     "Everything in the report: metadata, aggregates with intervals, statistics, "
     "strategies, flags, correlations, diagnostics, calibration, usage, per-sample "
     "results with details."),
    ("csv", "CSV", "text/csv", ":material/table:",
     "One row per sample and metric: " + ", ".join(FIELDS)
     + ", then metadata.<key> per key of the samples' metadata (beyond "
     f"{METADATA_KEYS_MAX} keys, one metadata column of JSON text). Unscored values are "
     "empty with their reason; booleans are 1/0."),
    ("html", "HTML report", "text/html", ":material/description:",
     "A self-contained page (tables and SVG charts, no script) to share or archive."),
)

st.title("Downloads")
selected = state.require_run()
if selected is None:
    st.stop()
run_id, version = selected
db = state.db()
st.text(f"Run {run_id}: {data.samples_in(db, run_id, version):,} samples")
st.caption(f"Each file is built from the store when you ask for it. For a large run, "
           f"`ragassay report {run_id} --db {db} --format json --out FILE` writes the "
           "same file a page at a time, without holding it in the dashboard's memory.")
for fmt, what, mime, icon, caption in FORMATS:
    built = f"_built_{fmt}"
    if st.session_state.get(built) == (db, run_id, version):
        st.download_button(f"Download {what}", data.download(db, run_id, version, fmt,
                                                           state.label_rule()),
                           file_name=f"ragassay-{run_id}.{fmt}", mime=mime,
                           key=f"download_{fmt}", icon=icon, on_click="ignore")
    elif st.button(f"Build the {what}", key=f"build_{fmt}", icon=icon):
        st.session_state[built] = (db, run_id, version)
        st.rerun()
    st.caption(caption)
