"""The Ray guard's stop: every marked process is killed, also one started a moment after
the others were (a full-suite run once left Ray's dashboard agent behind)."""

from __future__ import annotations

import os
import subprocess
import threading
import time

import pytest

from ragassay.runner.ray_guard import instance_pids, stop_instance

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")


def _marked(mark: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "60"], env={**os.environ, "GUARD_TEST": mark})


def test_a_process_started_just_after_the_others_were_killed_is_killed_too() -> None:
    mark = f"late-{os.getpid()}"
    first, late = _marked(mark), []

    def start_late() -> None:
        first.wait()  # the guard killed it: a dying parent starts one more
        time.sleep(0.5)
        late.append(_marked(mark))

    starter = threading.Thread(target=start_late)
    starter.start()
    try:
        stop_instance([f"GUARD_TEST={mark}".encode()], within_s=10.0, quiet_s=2.0)
        starter.join(5)
        assert late, "the late process was never started"
        assert late[0].wait(timeout=5) == -9  # SIGKILLed by the guard, not left running
        assert instance_pids([f"GUARD_TEST={mark}".encode()]) == []
    finally:
        for proc in (first, *late):
            proc.kill()
            proc.wait()


def test_with_nothing_marked_the_stop_ends_after_its_quiet_time() -> None:
    started = time.monotonic()
    stop_instance([b"GUARD_TEST=nothing-has-this"], within_s=10.0, quiet_s=0.3)
    assert 0.3 <= time.monotonic() - started < 5
