"""`ragassay ui`: a Streamlit dashboard over the run store.

The app itself is `app.py` (a Streamlit script with one page per file under
`screens/`); this module only knows how to start it. Streamlit and plotly are
imported by the app, never here, so the CLI stays importable without the `ui` extra.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

APP_PATH = Path(__file__).resolve().parent / "app.py"
"""The Streamlit script `ragassay ui` runs."""

MAX_UPLOAD_MB = 20
"""Largest dataset the Evaluate page accepts (Streamlit's server limit and our own check)."""

DEFAULT_HOST = "127.0.0.1"


def streamlit_command(db: Path, port: int, host: str = DEFAULT_HOST) -> list[str]:
    """The command line that serves the dashboard for `db` on host:port (headless)."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_PATH),
        "--server.address", host,
        "--server.port", str(int(port)),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--server.maxUploadSize", str(MAX_UPLOAD_MB),
        "--", "--db", str(db),
    ]


def launch(db: Path, port: int, host: str = DEFAULT_HOST) -> int:
    """Serve the dashboard until interrupted; return Streamlit's exit code.

    Binds to 127.0.0.1 unless another host is asked for explicitly. Ctrl-C stops
    the server and returns 0 (a normal way to end it, not an error).
    """
    try:
        import streamlit  # noqa: F401
    except ImportError:
        print("the dashboard needs the ui extra: pip install 'ragassay[ui]'", file=sys.stderr)
        return 2
    try:
        return subprocess.call(streamlit_command(Path(db), port, host))
    except KeyboardInterrupt:
        return 0


__all__ = ["APP_PATH", "DEFAULT_HOST", "MAX_UPLOAD_MB", "launch", "streamlit_command"]
