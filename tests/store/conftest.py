"""Shared fixtures for the store tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragassay.store import Store
from ragassay.types import RunConfig


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "ragassay.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """The store's contract holds on both backends: every test that takes `store` (or
    `store_location`) runs on each."""
    return str(request.param)


@pytest.fixture
def store_location(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """Where the test's store is: a SQLite file, or a new database in the session's
    PostgreSQL cluster."""
    if backend == "sqlite":
        return db_path
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(store_location: str | Path) -> Iterator[Store]:
    with Store(store_location) as s:
        yield s


@pytest.fixture
def sqlite_store(db_path: Path) -> Iterator[Store]:
    """A SQLite store, for what only SQLite has (pragmas, page limits)."""
    with Store(db_path) as s:
        yield s


@pytest.fixture
def config() -> RunConfig:
    return RunConfig(dataset="data.jsonl", judge="openai", metrics=("judge", "ragas"), seed=7)
