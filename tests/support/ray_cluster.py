"""A local Ray instance for a test module, and the Ray worker processes it runs.

    @pytest.fixture(scope="module")
    def ray_address() -> Iterator[str]:
        yield from local_ray()

starts Ray the way `--engine ray` does by itself (2 CPUs, loopback, no dashboard),
yields its GCS address (a CLI subprocess joins it with `--ray-address`), and stops it.
`two_nodes()` starts a Ray cluster of two nodes on this machine (a head and one more
raylet, 1 CPU each, all on 127.0.0.1, Ray's files in a short temp folder of its own),
yields its address and stops every process of it (checked by PID: none may be left).
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


def two_nodes(cpus_each: int = 1) -> Iterator[str]:
    """A two-node Ray cluster on loopback for the body: its GCS address. Each node has
    `cpus_each` CPUs, so workers of one CPU each land one per node. Ray writes its
    "current cluster" file into its temp folder: a folder of our own (short, for Ray's
    socket paths), so no other Ray user on this machine is redirected to it."""
    import shutil
    import signal
    import tempfile
    import time

    from ray.cluster_utils import Cluster

    from ragassay.runner.ray_session import _environment, _loopback

    folder = Path(tempfile.mkdtemp(prefix="rg2n-", dir="/tmp"))
    cluster = None
    try:
        with _environment({"RAY_TMPDIR": str(folder)}), _loopback():
            cluster = Cluster(initialize_head=True, head_node_args={
                "num_cpus": cpus_each, "node_ip_address": "127.0.0.1",
                "include_dashboard": False})
            cluster.add_node(num_cpus=cpus_each, node_ip_address="127.0.0.1")
            yield str(cluster.address)
    finally:
        if cluster is not None:
            cluster.shutdown()
        def left() -> list[int]:
            return [pid for pid in processes_using(folder) if pid != os.getpid()]

        for _ in range(50):  # Ray's processes end within seconds of the shutdown
            if not left():
                break
            time.sleep(0.2)
        for pid in left():  # what did not: by PID
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


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
