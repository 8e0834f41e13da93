"""Fixtures for the llm tests: the scripted server factory and a clean environment."""

from __future__ import annotations

import pytest

TEST_KEY_ENV = "RAGASSAY_LLM_TEST_KEY"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No real key or base URL from the developer's shell leaks into a test."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", TEST_KEY_ENV):
        monkeypatch.delenv(name, raising=False)
