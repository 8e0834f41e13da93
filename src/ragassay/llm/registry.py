"""Backends by name, imported lazily, plus third-party ones from entry points.

A judge spec is "backend:model", e.g. "openai:gpt-4o-mini" (the model may itself
contain colons: "openai:llama3.1:8b"). Built-in backends are "module:Class" strings
imported on first use; packages can add backends through the `ragassay.backends`
entry-point group. A backend class is constructed as `cls(model=..., options=...)`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import random
from collections.abc import Callable
from typing import Any, cast

from ragassay.llm.base import Backend, BackendError, BackendOptions
from ragassay.llm.batch import BatchProvider
from ragassay.llm.policy import Policy

ENTRY_POINT_GROUP = "ragassay.backends"

BackendFactory = Callable[..., Any]

_BUILTIN: dict[str, str] = {
    "openai": "ragassay.llm.openai_backend:OpenAIBackend",
    "litellm": "ragassay.llm.litellm_backend:LiteLLMBackend",
    "llamacpp": "ragassay.llm.llamacpp_backend:LlamaCppBackend",
}
_registered: dict[str, str | BackendFactory] = {}


def parse_judge_spec(spec: str) -> tuple[str, str]:
    """Split "backend:model" at the first colon; "offline" gives ("offline", "")."""
    text = (spec or "").strip()
    if not text:
        raise ValueError("empty judge spec: expected 'backend:model', e.g. 'openai:gpt-4o-mini'")
    backend, sep, model = text.partition(":")
    backend = backend.strip().lower()
    if not backend:
        raise ValueError(f"judge spec {spec!r} has no backend name before ':'")
    return backend, model.strip() if sep else ""


def register_backend(name: str, target: str | BackendFactory, *, replace: bool = True) -> None:
    """Register a backend under `name`: a "module:Class" string (imported lazily) or a class."""
    key = name.strip().lower()
    if not key or ":" in key:
        raise ValueError(f"invalid backend name {name!r}")
    if isinstance(target, str) and ":" not in target:
        raise ValueError(f"backend target {target!r} must look like 'package.module:Class'")
    if not replace and key in _known_targets():
        raise ValueError(f"backend {key!r} is already registered")
    _registered[key] = target


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    try:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # a broken distribution must not break the built-ins
        return {}
    return {ep.name.strip().lower(): ep for ep in found}


def _known_targets() -> dict[str, str | BackendFactory | importlib.metadata.EntryPoint]:
    """Everything by name; explicit registrations win over built-ins over entry points."""
    targets: dict[str, str | BackendFactory | importlib.metadata.EntryPoint] = {}
    targets.update(_entry_points())
    targets.update(_BUILTIN)
    targets.update(_registered)
    return targets


def available_backends() -> list[str]:
    """Sorted names of every backend that `get_backend` can build."""
    return sorted(_known_targets())


def _load(name: str, target: str | BackendFactory | importlib.metadata.EntryPoint) -> Any:
    try:
        if isinstance(target, importlib.metadata.EntryPoint):
            return target.load()
        if isinstance(target, str):
            module_name, _, attr = target.partition(":")
            obj: Any = importlib.import_module(module_name)
            for part in attr.split("."):
                obj = getattr(obj, part)
            return obj
    except (ImportError, AttributeError) as exc:
        raise BackendError(f"backend {name!r} could not be loaded: {exc}") from None
    return target


def get_backend(spec: str, options: BackendOptions | None = None, *,
                rng: random.Random | None = None) -> Policy:
    """Build the backend named in `spec` ("backend:model") with `options`, wrapped in
    the policy layer (`ragassay.llm.policy.Policy`: retries, limits, probing, stops).

    Unknown names raise `ValueError` listing the known ones; configuration problems
    (no key, no model) raise `BackendError`. The "offline" judge is not a backend:
    the judge layer handles it before calling this.
    """
    name, model = parse_judge_spec(spec)
    targets = _known_targets()
    if name not in targets:
        known = ", ".join(sorted(targets)) or "none"
        hint = " ('offline' is handled by the judge layer)" if name == "offline" else ""
        raise ValueError(f"unknown judge backend {name!r}{hint}; known backends: {known}")
    factory = _load(name, targets[name])
    options = options or BackendOptions()
    backend = factory(model=model, options=options)
    required = ("name", "model", "complete", "cache_params")
    missing = [attr for attr in required if not hasattr(backend, attr)]
    if missing:
        raise BackendError(f"backend {name!r} lacks {', '.join(missing)}")
    return Policy(cast(Backend, backend), options, rng=rng,
                  endpoint=getattr(backend, "endpoint", None))


BATCH_BACKENDS = ("openai",)
"""Judge backends whose provider batch API is built in."""


def get_batch_provider(spec: str, options: BackendOptions) -> BatchProvider:
    """The batch client for a judge spec (`openai:MODEL`, at `options.base_url`);
    BackendError for a backend without one."""
    backend, _, model = spec.partition(":")
    if backend.strip().lower() == "openai":
        from ragassay.llm.openai_batches import OpenAIBatches

        return OpenAIBatches(model, options)
    raise BackendError(f"--batch needs a judge with a provider batch API ("
                       f"{', '.join(s + ':MODEL' for s in BATCH_BACKENDS)}), not {spec}")
