"""Evaluate: upload a dataset file and score it with the offline judge."""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from ragassay.dataset import DatasetError
from ragassay.runner import suite_choices
from ragassay.store import StoreError
from ragassay.ui import MAX_UPLOAD_MB, state
from ragassay.ui import evaluate as logic

st.title("Evaluate a dataset")
st.caption(f"JSONL, JSON, CSV or Parquet (.gz for the text formats), up to {MAX_UPLOAD_MB} MB, "
           "one RAG interaction per row (question, contexts, answer, optional reference). "
           "The file is read as data only. Scoring uses the offline judge: no network, no key.")

upload = st.file_uploader("Dataset file", type=list(logic.UPLOAD_TYPES), key="eval_upload",
                          max_upload_size=MAX_UPLOAD_MB)
suites = list(suite_choices())
chosen = st.multiselect("Metric suites", suites, default=suites, key="eval_suites")
skip_invalid = st.checkbox("Record bad rows as invalid instead of stopping at the first one",
                           key="eval_skip_invalid")

if upload is None:
    st.stop()
with tempfile.TemporaryDirectory(prefix="ragassay-upload-") as folder:
    try:
        path = logic.save_upload(upload.getvalue(), upload.name, Path(folder))
        plan = logic.plan_upload(path, chosen, state.db(), skip_invalid=skip_invalid)
        checked = plan.check
    except DatasetError as exc:
        st.error("The dataset cannot be evaluated:")
        st.code(str(exc), language=None, wrap_lines=True)
        st.stop()
    assert checked is not None  # a file is checked in full before its run
    st.text(f"{path.name}: {checked.total} rows"
            + (f" ({checked.invalid} invalid, recorded as failed)" if checked.invalid else ""))
    if not chosen:
        st.warning("Pick at least one metric suite.")
        st.stop()
    if st.button("Evaluate with the offline judge", type="primary", key="eval_run"):
        bar = st.progress(0.0, text="waiting...")
        try:
            run_id = logic.run_offline(plan, logic.StreamlitProgress(bar))
        except (DatasetError, StoreError) as exc:
            st.error("The evaluation stopped:")
            st.code(str(exc), language=None, wrap_lines=True)
            st.stop()
        st.success(f"Run {run_id} complete.")
        state.select_run(run_id)
        state.go("overview", run=run_id)
