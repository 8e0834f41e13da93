"""A local Ray instance for a test module, and the Ray worker processes it runs.

    @pytest.fixture(scope="module")
    def ray_address() -> Iterator[str]:
        yield from local_ray()

starts Ray the way `--engine ray` does by itself (2 CPUs, loopback, no dashboard),
yields its GCS address (a CLI subprocess joins it with `--ray-address`), and stops it.
`judge_workers()` lists the PIDs of the `JudgeWorker` actors of THIS process's
instance (descendants of this process: other users' Ray sessions are never touched);
`processes_using(folder)` the processes that still hold files in a session folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from ragassay.runner.ray_session import RayOptions, ray_session

CPUS = 2


def local_ray(cpus: int = CPUS) -> Iterator[str]:
    with ray_session(RayOptions(workers=cpus)) as ray:
        yield str(ray.get_runtime_context().gcs_address)


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def _descends_from_me(pid: int) -> bool:
    me = os.getpid()
    for _ in range(8):
        pid = _parent(pid)
        if pid in (0, 1):
            return False
        if pid == me:
            return True
    return False


def judge_workers() -> list[int]:
    """PIDs of this process's live JudgeWorker actors (from their process titles)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if title.startswith("ray::JudgeWorker") and _descends_from_me(int(entry.name)):
            found.append(int(entry.name))
    return sorted(found)


def processes_using(folder: Path) -> list[int]:
    """PIDs of this user's processes with a file (or their working folder) under
    `folder`: a local Ray instance's processes all hold logs in its session folder."""
    inside = str(folder.resolve()) + "/"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [entry / "cwd", *(entry / "fd").iterdir()]
        except OSError:  # another user's process, or gone
            continue
        for link in links:
            try:
                target = os.readlink(link)
            except OSError:
                continue
            if target.startswith(inside):
                found.append(int(entry.name))
                break
    return sorted(found)
