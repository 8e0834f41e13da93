"""Shared state of the dashboard: the database, the selected run, pages and navigation.

Selections live in plain session-state keys (not widget keys, which Streamlit drops
when a page stops rendering the widget). A `?run=ID` (and on the sample explorer
`&sample=STRATEGY/ID`) query parameter is applied once each time it changes, so
links into the dashboard work and the widgets stay free to change the selection.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from ragassay.report import Report
from ragassay.store import DEFAULT_DB_PATH, StoreError
from ragassay.types import MAJORITY
from ragassay.ui import data, large
from ragassay.ui.highlight import md_escape

DB_KEY = "db"
RUN_KEY = "run_id"
COMPARE_KEY = "compare_runs"
SAMPLE_KEY = "sample"
PICKER_KEY = "_run_picker"
SAMPLE_PICKER_KEY = "samples_pick"
SEEN_RUN_KEY = "_seen_qp_run"  # the ?run= last applied
SEEN_SAMPLE_KEY = "_seen_qp_sample"  # the &sample= last applied
LINK_ERROR_KEY = "_qp_error"  # why the ?run= could not be applied
RUN_PARAM, SAMPLE_PARAM = "run", "sample"  # the query parameters


@dataclass(frozen=True)
class PageInfo:
    file: str  # relative to app.py
    title: str
    icon: str

    @property
    def path(self) -> str:
        """The page's URL path: its name as the navigation shows it (`Run overview` ->
        `run_overview`, Streamlit's own rule for titles)."""
        return re.sub(r"\s+", "_", self.title.strip().lower())


PAGES: dict[str, PageInfo] = {
    "runs": PageInfo("screens/runs.py", "Runs", ":material/list:"),
    "overview": PageInfo("screens/overview.py", "Run overview", ":material/dashboard:"),
    "charts": PageInfo("screens/charts.py", "Charts", ":material/bar_chart:"),
    "compare": PageInfo("screens/compare.py", "Compare", ":material/compare_arrows:"),
    "leaderboard": PageInfo("screens/leaderboard.py", "Leaderboard",
                            ":material/leaderboard:"),
    "samples": PageInfo("screens/samples.py", "Sample explorer", ":material/search:"),
    "annotate": PageInfo("screens/annotate.py", "Annotate", ":material/label:"),
    "evaluate": PageInfo("screens/evaluate.py", "Evaluate", ":material/play_arrow:"),
    "monitor": PageInfo("screens/monitor.py", "Monitor", ":material/monitor_heart:"),
    "downloads": PageInfo("screens/downloads.py", "Downloads", ":material/download:"),
}
"""Every page by name; its URL path is its title (see `PageInfo.path`)."""

OLD_PATHS = {"overview": "overview", "samples": "samples"}
"""URL paths of earlier versions (old name -> page name), still answered by a redirect."""


def _redirect(name: str) -> None:
    """A hidden page that only forwards to another, keeping the query (`?run=`)."""
    st.switch_page(PAGES[name].file, query_params=dict(st.query_params) or None)


def pages() -> list[Any]:
    """The st.Page objects for st.navigation, Runs first. The root URL is a hidden page
    that forwards to /runs, so that every page, Runs included, has its own path (a
    default page is only served at the root)."""
    ui_dir = Path(__file__).resolve().parent
    shown = [st.Page(str(ui_dir / p.file), title=p.title, icon=p.icon, url_path=p.path)
             for p in PAGES.values()]
    home = st.Page(functools.partial(_redirect, "runs"), title=PAGES["runs"].title,
                   url_path="home", default=True, visibility="hidden")
    old = [st.Page(functools.partial(_redirect, name), title=PAGES[name].title,
                   url_path=path, visibility="hidden")
           for path, name in OLD_PATHS.items() if path != PAGES[name].path]
    return [home, *shown, *old]


def go(name: str, **query: str) -> None:
    """Switch to a page by name (stops the current script run)."""
    st.switch_page(PAGES[name].file, query_params=query or None)


def parse_args(argv: Sequence[str]) -> str:
    """The database from `-- --db PATH` (else $RAGASSAY_DB, else the CLI default)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--db", default=os.environ.get("RAGASSAY_DB") or str(DEFAULT_DB_PATH))
    args, _ = parser.parse_known_args(list(argv))
    return str(args.db)


def db() -> str:
    return str(st.session_state[DB_KEY])


def apply_query_params() -> None:
    """Take `?run=` into the selection when it is new (applied once per change)."""
    qp = st.query_params.get(RUN_PARAM)
    if qp and qp != st.session_state.get(SEEN_RUN_KEY):
        st.session_state[SEEN_RUN_KEY] = qp
        try:
            run, _ = data.get_run(db(), qp)
        except StoreError as exc:
            st.session_state[LINK_ERROR_KEY] = str(exc)
        else:
            st.session_state[RUN_KEY] = run.id
            st.session_state.pop(LINK_ERROR_KEY, None)


def selected_run() -> str | None:
    return st.session_state.get(RUN_KEY)


def select_run(run_id: str) -> None:
    st.session_state[RUN_KEY] = run_id


def _picked() -> None:
    st.session_state[RUN_KEY] = st.session_state[PICKER_KEY]
    st.session_state.pop(LINK_ERROR_KEY, None)


def sidebar_run_picker(rows: Sequence[data.RunRow]) -> None:
    """The run selector shown on every page; the newest run when nothing is selected."""
    ids = [r.run.id for r in rows]
    if not ids:
        st.sidebar.caption("No runs yet.")
        return
    current = selected_run()
    if current not in ids:
        current = ids[0]
        select_run(current)
    if st.session_state.get(PICKER_KEY) != current:
        st.session_state[PICKER_KEY] = current
    names = {r.run.id: f"{r.run.id} · {Path(r.run.dataset).name}" for r in rows}
    st.sidebar.selectbox("Run", ids, key=PICKER_KEY, format_func=names.__getitem__,
                         on_change=_picked)
    current = st.session_state[RUN_KEY]
    if st.query_params.get(RUN_PARAM) != current:  # keep the URL shareable
        st.query_params[RUN_PARAM] = st.session_state[SEEN_RUN_KEY] = current


def require_run() -> tuple[str, str] | None:
    """(run id, version) of the selected run, or None after telling the user why."""
    error = st.session_state.get(LINK_ERROR_KEY)
    if error:
        st.error(md_escape(str(error)))
    run_id = selected_run()
    if run_id is None:
        st.info("No run in the store yet: evaluate a dataset on the Evaluate page "
                "or with `ragassay eval DATA`.")
        return None
    try:
        run, version = data.get_run(db(), run_id)
    except StoreError as exc:
        st.error(md_escape(str(exc)))
        return None
    if run.status == "running":
        st.info("This run is still being written; the figures grow as it proceeds "
                "(reload to refresh).", icon=":material/hourglass_top:")
    elif run.status != "complete":
        st.warning(md_escape(f"This run is {run.status}: its figures cover the samples "
                             "judged so far."))
    return run.id, version


def selected_report(page: str | None = None, what: str = "the full statistics"
                    ) -> tuple[str, str, Report]:
    """(run id, version, report) of the selected run; stops the page when there is none.
    With `page`, a large run (`data.LARGE_RUN`) shows its aggregates and a button
    first, and the page stops there until the user asks for `what`."""
    selected = require_run()
    if selected is None:
        st.stop()
        raise AssertionError("unreachable: st.stop() ends the script")
    run_id, version = selected
    if page and data.is_large(db(), run_id, version) and not large.asked(page, run_id):
        large.offer(page, db(), run_id, version, what)
        st.stop()
    return run_id, version, data.report(db(), run_id, version, label_rule())


LABEL_RULE_KEY = "label_rule"


def label_rule() -> str:
    """The rule the dashboard reads several people's labels by ("majority", or
    "annotator:NAME": the overview's choice, kept for the browser session)."""
    return str(st.session_state.get(LABEL_RULE_KEY, MAJORITY))
