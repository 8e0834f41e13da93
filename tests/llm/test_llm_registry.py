from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from ragassay.llm import (
    BackendError,
    BackendOptions,
    get_backend,
    parse_judge_spec,
    register_backend,
    registry,
)
from ragassay.llm.openai_backend import OpenAIBackend
from ragassay.llm.wire import JudgeReply, JudgeRequest

LOCAL = BackendOptions(base_url="http://127.0.0.1:9/v1")  # never contacted


@pytest.fixture(autouse=True)
def _restore_registry() -> Iterator[None]:
    saved = dict(registry._registered)
    yield
    registry._registered.clear()
    registry._registered.update(saved)


class EchoBackend:
    name = "echo"

    def __init__(self, model: str, options: BackendOptions) -> None:
        self.model = model
        self.options = options

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        return JudgeReply(text=request.messages[-1].content)

    def cache_params(self) -> dict[str, Any]:
        return {"backend": self.name, "model": self.model}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("openai:gpt-4o-mini", ("openai", "gpt-4o-mini")),
        ("offline", ("offline", "")),
        ("  OpenAI : gpt-4o ", ("openai", "gpt-4o")),
        ("openai:llama3.1:8b", ("openai", "llama3.1:8b")),
        ("openai:", ("openai", "")),
    ],
)
def test_parse_judge_spec(spec: str, expected: tuple[str, str]) -> None:
    assert parse_judge_spec(spec) == expected


@pytest.mark.parametrize("spec", ["", "   ", ":gpt-4o"])
def test_parse_judge_spec_rejects_nonsense(spec: str) -> None:
    with pytest.raises(ValueError):
        parse_judge_spec(spec)


def test_get_openai_backend() -> None:
    backend = get_backend("openai:gpt-4o-mini", LOCAL)
    assert isinstance(backend.inner, OpenAIBackend)  # inside the policy layer
    assert (backend.name, backend.model) == ("openai", "gpt-4o-mini")


def test_openai_backend_needs_a_model() -> None:
    with pytest.raises(BackendError, match="no model given"):
        get_backend("openai", LOCAL)


def test_unknown_backend_lists_known_names() -> None:
    with pytest.raises(ValueError, match=r"unknown judge backend 'nope'.*known backends: .*openai"):
        get_backend("nope:model", LOCAL)


def test_offline_is_not_a_backend() -> None:
    with pytest.raises(ValueError, match="judge layer"):
        get_backend("offline", LOCAL)


def test_register_a_class() -> None:
    register_backend("Echo", EchoBackend)
    backend = get_backend("echo:m1", LOCAL)
    assert isinstance(backend.inner, EchoBackend) and backend.model == "m1"
    assert "echo" in registry.available_backends()


def test_string_targets_are_imported_lazily() -> None:
    register_backend("ghost", "ragassay_no_such_module:Backend")  # accepted without import
    with pytest.raises(BackendError, match="could not be loaded"):
        get_backend("ghost:m", LOCAL)
    register_backend("alias", "ragassay.llm.openai_backend:OpenAIBackend")
    assert isinstance(get_backend("alias:m", LOCAL).inner, OpenAIBackend)


def test_register_rejects_bad_names_and_duplicates() -> None:
    with pytest.raises(ValueError):
        register_backend("a:b", EchoBackend)
    with pytest.raises(ValueError):
        register_backend("x", "no_colon_here")
    with pytest.raises(ValueError, match="already registered"):
        register_backend("openai", EchoBackend, replace=False)


def test_entry_point_backends_are_discovered(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def fake_entry_points(*, group: str) -> list[importlib.metadata.EntryPoint]:
        calls.append(group)
        return [
            importlib.metadata.EntryPoint(
                name="thirdparty", value="ragassay.llm.openai_backend:OpenAIBackend", group=group
            )
        ]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    assert "thirdparty" in registry.available_backends()
    assert isinstance(get_backend("thirdparty:m", LOCAL).inner, OpenAIBackend)
    assert calls and set(calls) == {"ragassay.backends"}


def test_a_broken_entry_point_table_does_not_break_builtins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*, group: str) -> list[importlib.metadata.EntryPoint]:
        raise RuntimeError("corrupt metadata")

    monkeypatch.setattr(importlib.metadata, "entry_points", broken)
    assert isinstance(get_backend("openai:m", LOCAL).inner, OpenAIBackend)


def test_backend_without_the_protocol_is_refused() -> None:
    class Half:
        def __init__(self, model: str, options: BackendOptions) -> None:
            self.model = model

    register_backend("half", Half)
    with pytest.raises(BackendError, match="lacks name, complete, cache_params"):
        get_backend("half:m", LOCAL)


def test_importing_the_package_does_not_import_the_sdk() -> None:
    code = (
        "import sys, ragassay.llm\n"
        "print('openai' in sys.modules, 'ragassay.llm.openai_backend' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
