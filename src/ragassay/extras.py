"""Optional extras: what each one adds, and the one-line error when it is missing.

`pip install ragassay` is the core (the offline judge with its static embedding table,
the OpenAI-compatible judge, reports, statistics, the store). Everything heavier is an
extra, imported only when asked for; a missing one raises `MissingExtra`, an
ImportError whose message is the one line to act on (the CLI prints it, exit 2).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

EXTRAS: dict[str, str] = {
    "embed": "the transformer embedder on onnxruntime (no torch)",
    "ui": "the Streamlit dashboard",
    "bench": "the bench's BM25 index and HTML/PDF corpora",
    "hf": "Hugging Face datasets as input",
    "local": "the in-process llama.cpp judge",
    "ray": "the Ray engine",
    "litellm": "the LiteLLM judge backend (Anthropic, Bedrock, Vertex AI, Azure, ...)",
    "monitor": "OTLP/protobuf traces for `ragassay monitor`",
    "postgres": "a PostgreSQL store (--db postgresql://...)",
}


class MissingExtra(ImportError):
    """`what` needs an extra that is not installed; the message says how to install it."""

    def __init__(self, extra: str, what: str, module: str | None = None,
                 then: str = "") -> None:
        self.extra = extra
        self.what = what
        fix = f"pip install 'ragassay[{extra}]'" + (f"; then {then}" if then else "")
        super().__init__(f"{what} needs the {extra} extra: {fix}", name=module)


def installed(module: str) -> bool:
    """Whether `module` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a broken entry
        return False


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import `module`, or raise MissingExtra naming `extra` when it is not installed.

    Only a module that is absent becomes MissingExtra; an installed module whose import
    fails raises its own error (a broken install is not a missing extra).
    """
    if not installed(module):
        raise MissingExtra(extra, what, module)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:  # one of its own dependencies is absent
        raise MissingExtra(extra, what, exc.name or module) from None


__all__ = ["EXTRAS", "MissingExtra", "installed", "require"]
