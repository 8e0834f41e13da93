"""Running a CLI subprocess and SIGKILLing it at a chosen point of a test server's traffic."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def sigint_setup(sigint: str) -> Any:
    """`preexec_fn` for a child that starts with SIGINT "default" (as in a terminal, where
    Ctrl-C reaches it) or "ignored" (as a background job of a non-interactive shell does).

    "default" is set, not inherited: a suite started in the background (`make test &`)
    passes SIGINT ignored to its children, and a test that sends SIGINT then waits for a
    process that never hears it."""
    disposition = signal.SIG_IGN if sigint == "ignored" else signal.SIG_DFL
    return lambda: signal.signal(signal.SIGINT, disposition)


@dataclass
class Finished:
    killed: bool
    returncode: int
    out: str
    err: str


def run_until(cmd: list[str], server: Any, target: int | None, env: Mapping[str, str], *,
              deadline_s: float = 90) -> Finished:
    """Run `cmd`; SIGKILL it (no cleanup runs) once `server.count` reaches `target`, or
    kill it after `deadline_s`. Waits a moment afterwards, so that the server records
    the requests already on the wire."""
    proc = subprocess.Popen(cmd, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    killed = False
    deadline = time.monotonic() + deadline_s
    while proc.poll() is None and time.monotonic() < deadline:
        if target is not None and server.count >= target:
            proc.send_signal(signal.SIGKILL)
            killed = True
            break
        time.sleep(0.002)
    if proc.poll() is None and not killed:
        proc.kill()
    out, err = proc.communicate(timeout=60)
    time.sleep(0.25)
    return Finished(killed, proc.returncode, out, err)
