"""Sentence embeddings: a protocol, local (MiniLM / static) and remote implementations.

The offline judge uses the static table (core install); "local", the transformer,
needs the `embed` extra. Every embedder returned here caches rows by text hash.
"""

from __future__ import annotations

import re
import threading

from .base import (
    CachedEmbedder,
    Embedder,
    EmbeddingCache,
    content_key,
    normalise_rows,
    text_key,
)
from .local import (
    MODEL_NAME,
    EmbedderUnavailable,
    LocalEmbedder,
    packaged_model_path,
    transformer_available,
)
from .remote import OpenAIEmbedder, RemoteEmbedderError
from .static import StaticEmbedder

__all__ = [
    "MODEL_NAME",
    "CachedEmbedder",
    "Embedder",
    "EmbedderUnavailable",
    "EmbeddingCache",
    "LocalEmbedder",
    "OpenAIEmbedder",
    "RemoteEmbedderError",
    "StaticEmbedder",
    "content_key",
    "canonical_spec",
    "get_embedder",
    "normalise_rows",
    "packaged_model_path",
    "text_key",
    "transformer_available",
    "sentence_embedder_spec",
]

_shared: dict[str, CachedEmbedder] = {}


def sentence_embedder_spec() -> str:
    """The embedder for comparing whole sentences where a run does not name one (RAGAS
    answer relevancy with an LLM judge): the transformer when the `embed` extra is
    installed, else the static table distilled from it (the report names which)."""
    return "local" if transformer_available() else "static"

_lock = threading.Lock()


def canonical_spec(spec: str) -> str:
    """A checked embedder spec in its one spelling, so equal specs share one instance:
    "local:256" (the default cut) and "minilm" are "local", "local:0128" is "local:128".
    A spec `get_embedder` cannot build is a one-line ValueError that names it (configs
    check theirs with this before any work starts)."""
    if spec in ("local", "minilm", MODEL_NAME):
        return "local"
    if spec.startswith("local:"):
        n = spec[len("local:") :]
        if not re.fullmatch(r"[0-9]{1,4}", n) or not 16 <= int(n) <= 512:
            raise ValueError(f"embedder spec {spec!r}: N in local:N is 16 to 512 word pieces")
        return "local" if int(n) == 256 else f"local:{int(n)}"
    if spec == "static":
        return spec
    if spec.startswith("openai:"):
        if "@" not in spec.split("#", 1)[0]:
            raise ValueError(f"embedder spec {spec!r}: expected 'openai:<model>@<base_url>'")
        return spec
    raise ValueError(f"unknown embedder spec {spec!r}; use local, local:N, static or openai:...")


def get_embedder(spec: str = "local", cache_entries: int | None = None) -> CachedEmbedder:
    """Build (once per process and spec) a cached embedder.

    Specs: "local" / "minilm" (the packaged all-MiniLM-L6-v2 transformer, texts cut at
    256 word pieces), "local:N" (the same, cut at N word pieces: "local:128" is the
    length the model was trained on, about 1.5x as fast on 150-word documents),
    "static" (a token table distilled from it, fast), or
    "openai:<model>@<base_url>" (an OpenAI-compatible endpoint; key from
    OPENAI_API_KEY, or "openai:<model>@<base_url>#ENV_NAME").
    The LRU holds `cache_entries` rows (default 200k; 20k for "static", whose
    own word cache already makes a repeat nearly free).
    """
    spec = canonical_spec(spec)
    with _lock:
        if spec in _shared:
            return _shared[spec]
        inner: Embedder
        if spec == "local":
            inner = LocalEmbedder()
        elif spec.startswith("local:"):
            inner = LocalEmbedder(max_seq_length=int(spec[len("local:") :]))
        elif spec.startswith("openai:"):
            rest = spec[len("openai:") :]
            env = "OPENAI_API_KEY"
            if "#" in rest:
                rest, env = rest.rsplit("#", 1)
            model, base_url = rest.split("@", 1)
            inner = OpenAIEmbedder(base_url=base_url, model=model, api_key_env=env)
        else:  # "static"
            inner = StaticEmbedder()
        if cache_entries is None:
            cache_entries = 20_000 if spec == "static" else 200_000
        emb = CachedEmbedder(inner, EmbeddingCache(cache_entries))
        _shared[spec] = emb
        return emb
