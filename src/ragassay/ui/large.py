"""A large run's pages before its full report is asked for.

Above `data.LARGE_RUN` samples, the pages that need the full report (bootstrap
intervals, distributions, correlations and diagnostics over every sample: minutes at
100,000 samples) first show what SQL aggregates in seconds (the run, each metric's
mean, counts and observed range, usage) and a button; a click builds the report for
this run, and the page shows it from then on (cached, per session and run).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from ragassay.ui import data
from ragassay.ui.fmt import headline, metric_label, num, rows_height


def _key(page: str, run_id: str) -> str:
    return f"_full_{page}_{run_id}"


def asked(page: str, run_id: str) -> bool:
    """Whether the user asked for the full report of this run on this page."""
    return bool(st.session_state.get(_key(page, run_id)))


def gate(page: str, ident: str, label: str, note: str) -> None:
    """Stop the page with `note` and a button, until the user clicks it (for `ident`:
    a run, or a pair of runs); the click reruns the page past the gate."""
    if asked(page, ident):
        return
    st.info(note, icon=":material/speed:")
    if st.button(label, key=f"large_{page}", type="primary"):
        st.session_state[_key(page, ident)] = True
        st.rerun()
    st.stop()


def offer(page: str, db: str, run_id: str, version: str, what: str) -> None:
    """The run's aggregates, and a button that reruns the page with `what` built."""
    s = data.summary(db, run_id, version)
    run, specs = s.run, s.run.spec_map()
    st.info(f"This run has {s.samples:,} samples: shown here are its aggregates, read "
            f"from the store in seconds. {what.capitalize()} read every sample and take "
            "longer (about a minute per 50,000 samples).", icon=":material/speed:")
    if st.button(f"Compute {what}", key=f"large_{page}", type="primary"):
        st.session_state[_key(page, run_id)] = True
        st.rerun()
    st.dataframe(pd.DataFrame([
        ("run", run.id), ("status", run.status), ("dataset", Path(run.dataset).name),
        ("judge", f"{run.config.judge} ({run.judge_model})"),
        ("metrics", ", ".join(run.config.metrics)),
        ("created", run.created.isoformat(timespec="seconds")),
        ("samples", f"{s.samples:,} ({s.invalid:,} invalid)"),
    ], columns=["field", "value"]), hide_index=True)
    names = [m.metric for m in s.metrics]
    cards = headline(names, specs, limit=4)
    by_name = {m.metric: m for m in s.metrics}
    for col, name in zip(st.columns(max(1, len(cards))), cards, strict=False):
        col.metric(metric_label(name, specs), num(by_name[name].mean),
                   help=f"n={by_name[name].scored:,}, {by_name[name].unscored:,} unscored")
    st.dataframe(pd.DataFrame([
        {"metric": metric_label(m.metric, specs), "mean": m.mean, "scored": m.scored,
         "unscored": m.unscored, "lowest": m.low, "highest": m.high,
         "better": "higher" if getattr(specs.get(m.metric), "higher_is_better", True)
         else "lower"}
        for m in s.metrics
    ]), hide_index=True, height=rows_height(len(s.metrics)), column_config={
        c: st.column_config.NumberColumn(format="%.3f") for c in ("mean", "lowest", "highest")})
    total = s.usage.get("total")
    if total is not None and total.calls:
        st.caption(f"Judge calls: {total.calls:,} ({total.cache_hits:,} from the cache), "
                   f"{total.input_tokens:,} input and {total.output_tokens:,} output tokens.")
