"""The bench's one door to embeddings: `ragassay.embed.get_embedder` plus an on-disk cache."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ragassay.bench.chunking import Embedder
from ragassay.files import atomic_write


def get_embedder(name: str = "local") -> Embedder:
    """The embedder named `name` ("local" = packaged MiniLM), from `ragassay.embed`."""
    from ragassay.embed import get_embedder as shared

    embedder: Embedder = shared(name)
    return embedder


def embedder_name(embedder: Embedder) -> str:
    """A stable name for cache keys."""
    return str(getattr(embedder, "name", None) or getattr(embedder, "model_name", None)
               or type(embedder).__name__)


def content_key(texts: Sequence[str], model: str) -> str:
    """sha256 of the model name and the texts (length-prefixed so joins are unambiguous)."""
    h = hashlib.sha256(model.encode())
    for t in texts:
        b = t.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


class CachedEmbedder:
    """Wraps an embedder: whole batches are cached on disk under `cache_dir/emb-<key>.npy`."""

    def __init__(self, inner: Embedder, cache_dir: Path | None) -> None:
        self.inner = inner
        self.cache_dir = cache_dir
        self.name = embedder_name(inner)
        self.hits = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.cache_dir is None:
            return self.inner.embed(texts)
        path = self.cache_dir / f"emb-{content_key(texts, self.name)[:32]}.npy"
        if path.exists():
            self.hits += 1
            return np.load(path)
        vecs = np.asarray(self.inner.embed(texts), dtype=np.float32)
        with atomic_write(path, binary=True) as fh:
            np.save(fh, vecs)
        return vecs
