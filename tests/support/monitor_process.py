"""`ragassay monitor` as a subprocess, the way a deployment runs it: its events read from
stdout as they come, requests sent with httpx, health polled, stopped with SIGTERM."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[2]


class MonitorProcess:
    """One monitor process; `events` holds every JSON line it wrote so far. Every one
    started is in `started`: `kill_left()` ends those a failed test left running."""

    started: list[MonitorProcess] = []

    @classmethod
    def kill_left(cls) -> None:
        for mon in cls.started:
            if mon.proc.poll() is None:
                mon.proc.kill()
                mon.proc.wait(30)
        cls.started.clear()

    def __init__(self, db: Path, *args: str, listen: bool = True) -> None:
        cmd = [sys.executable, "-m", "ragassay", "monitor", "--db", str(db),
               "--stats-every", "0", *args]
        if listen:
            cmd += ["--listen", "127.0.0.1:0"]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)
        MonitorProcess.started.append(self)
        self.events: list[dict[str, Any]] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stderr = ""
        threading.Thread(target=self._read, daemon=True).start()
        start = self.wait_event("start", timeout=60)
        self.run_id = start["run"]
        self.base = f"http://{start['listen']}" if start.get("listen") else ""
        self.client = httpx.Client(timeout=30)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _pump(self, timeout: float) -> bool:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return True
        if line is None:
            return False
        self.events.append(json.loads(line))
        return True

    def wait_event(self, kind: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [e for e in self.events if e["event"] == kind]
            if found:
                return found[-1]
            if not self._pump(0.1) and self.proc.poll() is not None:
                break
        raise AssertionError(f"no {kind!r} event; stderr: {self.finish_err()}")

    def finish_err(self) -> str:
        if self.proc.poll() is not None and self.proc.stderr is not None:
            self.stderr += self.proc.stderr.read()
        return self.stderr

    def post(self, body: bytes, ctype: str = "application/json", **headers: str
             ) -> httpx.Response:
        return self.client.post(f"{self.base}/v1/traces", content=body,
                                headers={"content-type": ctype, **headers})

    def send(self, body: bytes, ctype: str = "application/json") -> None:
        """POST until accepted (429/503: wait Retry-After), as an exporter does."""
        for _ in range(600):
            reply = self.post(body, ctype)
            if reply.status_code == 200:
                return
            assert reply.status_code in (429, 503), reply.text
            time.sleep(float(reply.headers["retry-after"]) / 10)
        raise AssertionError("never accepted")

    def health(self) -> dict[str, Any]:
        return self.client.get(f"{self.base}/health").json()

    def wait_scored(self, n: int, timeout: float = 300) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.health()
            if got["traces"]["scored"] >= n:
                return got
            time.sleep(0.2)
        raise AssertionError(f"not {n} scored: {self.health()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 120) -> int:
        """Signal the process, collect what it wrote; its exit status."""
        self.proc.send_signal(sig)
        code = self.proc.wait(timeout)
        while self._pump(0.05):
            pass
        self.finish_err()
        self.client.close()
        return code
