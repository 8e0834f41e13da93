"""The dashboard's pages: Streamlit scripts run by `st.navigation` (not imported)."""
