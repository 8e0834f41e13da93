"""The guard of a local Ray instance: what is left when its driver dies is stopped and removed.

A local instance (`--engine ray` without `--ray-address`) belongs to the driver that
started it. When the driver ends normally, `ray.shutdown()` stops it and the driver
removes its session folder. When the driver is killed (SIGKILL, out of memory), no
cleanup runs in it: Ray's GCS and raylet die with it, but its workers go on calling the
judge until they notice (about 2 s), its agents stay for good, and the session folder
stays in the temporary directory.

So the driver starts this guard first, as a small process of its own (stdlib only, run
by path in its own session, so that a Ctrl-C for the terminal's process group is not
its business). It holds the read end of a pipe from the driver; the kernel closes the
write end whatever way the driver ends. At end of file the guard SIGKILLs every process
of the instance, then removes the folder, unless the driver said `keep` (a failed
run's logs). The instance's processes are recognised by a random token that the driver
puts in the environment while `ray.init` starts them (the raylet's workers inherit it),
and by their node id (Ray starts its agents with an environment of their own): never by
name, so that no other Ray session is touched. Needs /proc (Linux); elsewhere the folder
is still removed.

    python ray_guard.py TOKEN FOLDER   (stdin: "node NODE_ID" / "keep" lines)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from typing import IO

MARK = "RAGASSAY_RAY_GUARD"  # the environment variable holding the instance's token
KILL_FOR_S = 10.0  # how long the guard keeps looking for the instance's processes
QUIET_S = 2.0  # none seen for this long: gone (a dying raylet may start one more agent)


class InstanceGuard:
    """The driver's side: the guard process and the pipe it watches."""

    def __init__(self, token: str, folder: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).resolve()), token, str(folder)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, text=True)
        self.pipe: IO[str] | None = self.proc.stdin

    def say(self, line: str) -> None:
        if self.pipe is not None:
            self.pipe.write(line + "\n")
            self.pipe.flush()

    def close(self, wait_s: float = KILL_FOR_S + 5) -> None:
        """The driver is done: the guard stops what is left, then ends; waited for."""
        if self.pipe is not None:
            self.pipe.close()
            self.pipe = None
        try:
            self.proc.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _environ(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # another user's process, or gone
        return b""


def instance_pids(marks: list[bytes]) -> list[int]:
    """PIDs of live processes whose environment holds one of `marks` (`NAME=value`)."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit() and entry != me:
            env = _environ(entry).split(b"\0")
            if any(mark in env for mark in marks):
                found.append(int(entry))
    return found


def stop_instance(marks: list[bytes], within_s: float = KILL_FOR_S,
                  quiet_s: float = QUIET_S) -> None:
    """SIGKILL the marked processes until none has been seen for `quiet_s` (or
    `within_s` has passed): one that a dying process starts a moment after the others
    were killed (seen once under load: Ray's dashboard agent) is killed too."""
    now = time.monotonic()
    deadline, quiet_until = now + within_s, now + quiet_s
    while (now := time.monotonic()) < deadline:
        pids = instance_pids(marks)
        if not pids and now >= quiet_until:
            return
        if pids:
            quiet_until = now + quiet_s
        for pid in pids:
            with suppress(OSError):  # gone meanwhile
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)


def main(token: str, folder: str) -> None:
    for name in ("SIGINT", "SIGHUP"):  # the terminal's signals are the driver's to handle
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    marks = [f"{MARK}={token}".encode()]
    keep = False
    for line in sys.stdin:  # until the driver ends, whatever way
        word, _, value = line.strip().partition(" ")
        if word == "node" and value:
            marks.append(f"RAY_NODE_ID={value}".encode())
        elif word == "keep":
            keep = True
    stop_instance(marks)
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
