"""The dashboard's Streamlit script: `streamlit run app.py -- --db PATH`.

Sets up the page, reads `--db`, draws the run selector and runs the selected page.
"""

from __future__ import annotations

import sys

import streamlit as st

from ragassay.store import StoreError, StoreUrl, is_url
from ragassay.ui import data, state

FAVICON = "\U0001f9ea"  # test tube

# the favicon is an emoji (a data: URL drawn in the page): a ":material/...:" one is
# fetched from fonts.gstatic.com, and a local tool makes no outside request
st.set_page_config(page_title="ragassay", page_icon=FAVICON, layout="wide")

if state.DB_KEY not in st.session_state:
    st.session_state[state.DB_KEY] = state.parse_args(sys.argv[1:])

navigation = st.navigation(state.pages())
state.apply_query_params()
st.sidebar.text(f"Store: {StoreUrl(state.db()) if is_url(state.db()) else state.db()}")
try:
    state.sidebar_run_picker(data.list_runs(state.db()))
except StoreError as exc:
    st.sidebar.text(str(exc))
navigation.run()
