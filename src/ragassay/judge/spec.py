"""The one rule for a judge spec: `offline`, `offline:accurate` or `BACKEND:MODEL`.

The CLI and the Python API both ask `judge_spec_problem`; each raises its own error
type with the same text.
"""

from __future__ import annotations

from ragassay.llm import available_backends
from ragassay.types import is_offline

# providers LiteLLM reaches that users type as a backend name
LITELLM_PROVIDERS = frozenset({"anthropic", "bedrock", "vertex_ai", "vertex", "gemini", "azure",
                               "azure_ai", "cohere", "mistral", "groq", "ollama", "together_ai",
                               "deepseek", "xai", "huggingface", "watsonx", "sagemaker"})


def judge_spec_problem(spec: str | None, name: str = "judge") -> str | None:
    """None when `spec` names a judge this install can build, else one line saying why
    not and what to type, naming the setting as `name` ("judge", or the CLI's
    "--judge"), e.g. "--judge 'anthropic:claude': unknown judge backend 'anthropic'
    (did you mean litellm:anthropic/claude?); ..."."""
    text = (spec or "").strip()
    if text and is_offline(text):
        return None
    known = ", ".join(available_backends()) or "none"
    syntax = (f"use offline (or offline:accurate), or BACKEND:MODEL with a known backend "
              f"({known}), e.g. openai:gpt-4o-mini")
    if not text:
        return f"{name}: empty judge spec; {syntax}"
    said = f"{name} {spec!r}"
    if is_offline(text.lower()):
        return f"{said}: write it in lower case, {text.lower()}"
    backend, _, model = text.partition(":")
    backend, model = backend.strip().lower(), model.strip()
    if not backend:
        return f"{said}: no backend name before ':'; {syntax}"
    if backend == "offline":
        return f"{said}: the offline judge's only mode is offline:accurate; {syntax}"
    if backend not in available_backends():
        hint = (f" (did you mean litellm:{backend}/{model}?)"
                if model and backend in LITELLM_PROVIDERS and "litellm" in available_backends()
                else "")
        return f"{said}: unknown judge backend {backend!r}{hint}; {syntax}"
    if not model:
        return f"{said}: no model after '{backend}:'; {syntax}"
    return None
