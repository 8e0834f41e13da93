"""`ragassay ui`: a Streamlit dashboard over the run store.

The app itself is `app.py` (a Streamlit script with one page per file under
`screens/`); this module only knows how to start it. Streamlit and plotly are
imported by the app, never here, so the CLI stays importable without the `ui` extra.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from ragassay.store import StoreUrl

APP_PATH = Path(__file__).resolve().parent / "app.py"
"""The Streamlit script `ragassay ui` runs."""

MAX_UPLOAD_MB = 20
"""Largest dataset the Evaluate page accepts (Streamlit's server limit and our own check)."""

DEFAULT_HOST = "127.0.0.1"


def streamlit_command(db: Path | str, port: int, host: str = DEFAULT_HOST) -> list[str]:
    """The command line that serves the dashboard for `db` on host:port (headless); a
    PostgreSQL store's URL is not on it (a command line is visible to every user of the
    machine): `launch` hands it over in RAGASSAY_DB."""
    store = [] if isinstance(db, StoreUrl) else ["--", "--db", str(db)]
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_PATH),
        "--server.address", host,
        "--server.port", str(int(port)),
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "minimal",  # no Deploy button: nothing to deploy to
        "--server.maxUploadSize", str(MAX_UPLOAD_MB),
        *store,
    ]


STOP_GRACE_S = 10.0
"""How long the server may take to stop after a forwarded signal before it is killed."""


def launch(db: Path | StoreUrl, port: int, host: str = DEFAULT_HOST) -> int:
    """Serve the dashboard until interrupted; return Streamlit's exit code.

    Binds to 127.0.0.1 unless another host is asked for explicitly. SIGTERM, SIGHUP and
    Ctrl-C are forwarded to the Streamlit server, which is waited for (and killed if it
    does not stop within STOP_GRACE_S), so stopping `ragassay ui` never leaves a server
    holding the port. Stopping it that way returns 0 (a normal way to end it). If the
    launcher is killed outright (SIGKILL, out of memory), Linux kills the server with it
    (its parent-death signal).
    """
    from ragassay.extras import MissingExtra, installed

    for module in ("streamlit", "plotly"):
        if not installed(module):
            print(f"error: {MissingExtra('ui', 'the dashboard', module)}", file=sys.stderr)
            return 2
    env = {**os.environ, "RAGASSAY_DB": db.url} if isinstance(db, StoreUrl) else None
    child = subprocess.Popen(streamlit_command(db if isinstance(db, StoreUrl) else Path(db),
                                               port, host),
                             preexec_fn=dies_with_this_process(), env=env)
    stopped: list[int] = []

    def forward(signum: int, frame: object) -> None:
        stopped.append(signum)
        if child.poll() is None:
            child.send_signal(signum)

    previous = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        try:
            previous[signum] = signal.signal(signum, forward)
        except ValueError:  # not the main thread: the caller owns signals
            break
    try:
        while True:
            try:
                code = child.wait(STOP_GRACE_S if stopped else None)
                return 0 if stopped else code
            except KeyboardInterrupt:
                forward(signal.SIGINT, None)
            except subprocess.TimeoutExpired:  # asked to stop and still serving
                child.kill()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _stop(child)


def dies_with_this_process() -> Callable[[], None] | None:
    """A `preexec_fn` that has Linux SIGKILL the child when this process ends, however it
    ends (`prctl(PR_SET_PDEATHSIG)`); None elsewhere. A child whose parent died before
    the call ends itself at once."""
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork
    parent = os.getpid()

    def preexec() -> None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec


def _stop(child: subprocess.Popen[bytes]) -> None:
    """Make sure the server is gone: terminate, wait, kill."""
    if child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


__all__ = ["APP_PATH", "DEFAULT_HOST", "MAX_UPLOAD_MB", "launch", "streamlit_command"]
