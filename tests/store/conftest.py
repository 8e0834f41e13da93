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


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with Store(db_path) as s:
        yield s


@pytest.fixture
def config() -> RunConfig:
    return RunConfig(dataset="data.jsonl", judge="openai", metrics=("judge", "ragas"), seed=7)
