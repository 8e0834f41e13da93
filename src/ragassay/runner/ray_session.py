"""Connecting to Ray for `--engine ray`: a private local instance, or a cluster joined.

A local instance is started on loopback only, without dashboard, in a session folder
of its own (0700: Ray makes its own temporary folder world-writable, so it lives one
level down), and watched by a guard process (`ray_guard`) that stops its workers and
removes the folder if this process dies without cleaning up.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ragassay.runner.ray_guard import MARK, InstanceGuard


class RayEngineError(Exception):
    """Ray is missing, unreachable, or a worker cannot run: one line for the user."""


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide `--engine ray` runs.

    `address` None starts a private local Ray instance (loopback only, no dashboard,
    stopped at the end); otherwise it is joined: "auto", "HOST:PORT" or "ray://HOST:PORT".
    An instance this process already started (`ray.init` in a notebook or a test) is
    used as it is. `workers` defaults to the cluster's CPUs over `cpus_per_worker`.
    `batch_size` is the samples a worker judges in one task, whose results come back
    (and are saved) together: 128 for the offline judge; with an LLM judge an eighth of
    the worker's share of `--concurrency` (one sample up to a share of 15), so that a
    judgment reaches the store soon after it is made (a killed driver loses the calls
    in flight and few more). `depth` is the tasks in flight per worker: 2 for the
    offline judge; with an LLM judge enough for twice the worker's share.
    `writes` is who saves the judgments: "driver" (default: every store, one connection,
    the workers need no route to the database) or "workers" (a PostgreSQL store only:
    each worker saves its own tasks over its own connection, and the results never pass
    through the driver; docs/scale.md says when that pays).
    """

    address: str | None = None
    workers: int | None = None
    batch_size: int | None = None
    depth: int | None = None
    cpus_per_worker: float = 1.0
    temp_dir: str | None = None  # a local instance's session folder (kept afterwards)
    writes: Literal["driver", "workers"] = "driver"


def _ray() -> Any:
    """The ray module, or the one-line MissingExtra for the `ray` extra."""
    from ragassay.extras import require

    return require("ray", "ray", "the Ray engine (--engine ray)")


@contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """`values` set in this process's environment for the body, then restored."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _loopback() -> Iterator[None]:
    """While a local instance starts, bind it to 127.0.0.1: Ray resolves "127.0.0.1" to
    the host's address and listens on every interface unless told that this is not a
    cluster (its switch for Windows and macOS). Restored afterwards, so that a later
    `ray.init` of this process can join a real cluster."""
    constants: Any = None
    with suppress(ImportError):
        from ray._private import ray_constants as constants
    flag = getattr(constants, "ENABLE_RAY_CLUSTER", None)
    if flag is not None:
        constants.ENABLE_RAY_CLUSTER = False
    try:
        with _environment({"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}):
            yield
    finally:
        if flag is not None:
            constants.ENABLE_RAY_CLUSTER = flag


@contextmanager
def ray_session(options: RayOptions) -> Iterator[Any]:
    """Connected to Ray for the body: a local instance started (and stopped) here, a
    cluster joined (and left), or the caller's own connection left alone. A local
    instance's session folder is removed afterwards unless the body failed (its logs
    then say why) or `temp_dir` was given; its guard does the same when this process
    is killed, and stops the instance's processes first."""
    ray = _ray()
    if ray.is_initialized():
        yield ray
        return
    if options.address is not None:
        _init(ray, options, None)
        try:
            yield ray
        finally:
            ray.shutdown()
        return
    folder = Path(options.temp_dir or tempfile.mkdtemp(prefix="ragassay-ray-"))
    token = secrets.token_hex(16)
    guard = InstanceGuard(token, folder)
    keep = options.temp_dir is not None
    try:
        with _environment({MARK: token}):
            _init(ray, options, str(folder if keep else folder / "ray"))
        guard.say(f"node {ray.get_runtime_context().get_node_id()}")
        yield ray
    except BaseException:
        keep = True  # the logs say why
        raise
    finally:
        if ray.is_initialized():
            ray.shutdown()
        if keep:
            guard.say("keep")
        guard.close()  # what is left of the instance stopped, the folder removed


def _reachable(address: str) -> None:
    """Fail in one line, at once, for a HOST:PORT (or ray://HOST:PORT) nothing answers
    on: `ray.init` would retry for minutes."""
    hostport = address.removeprefix("ray://").rsplit("/", 1)[0]
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", or a form Ray resolves itself
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise RayEngineError(f"cannot reach Ray at {address}: "
                             f"{exc.strerror or exc}") from None


def _on_loopback(address: str) -> bool:
    """Whether a HOST:PORT address is this machine's loopback (a local instance started
    by another process): a driver joining it must not advertise the host's address."""
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def _init(ray: Any, options: RayOptions, temp: str | None) -> None:
    if options.address is not None:
        _reachable(options.address)
    sigterm = signal.getsignal(signal.SIGTERM)  # ray.init replaces it with sys.exit
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if options.address is None:
            with _loopback():
                ray.init(address="local", num_cpus=options.workers or os.cpu_count() or 1,
                         include_dashboard=False, _temp_dir=temp, **quiet)
        elif _on_loopback(options.address):  # this driver on loopback too, like the node
            with _loopback():
                ray.init(address=options.address, **quiet)
        else:
            ray.init(address=options.address, **quiet)
    except (AssertionError, ConnectionError, RuntimeError, ValueError) as exc:
        where = options.address or "a local instance"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "Could not find any running Ray instance" in first:
            first = ("no running Ray cluster found from here (start one with `ray start "
                     "--head`, or give --ray-address HOST:PORT, ray_address= in Python)")
        raise RayEngineError(f"cannot start or reach Ray ({where}): {first}") from None
    finally:
        with suppress(ValueError):  # not the main thread
            signal.signal(signal.SIGTERM, sigterm)
