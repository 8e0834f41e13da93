"""The embedder protocol and a text-hash LRU cache shared by every implementation.

Contexts repeat across samples and strategies, so embeddings are cached by a
hash of the text: each unique sentence is embedded once per process.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from ragassay.files import atomic_write


@runtime_checkable
class Embedder(Protocol):
    """Maps texts to L2-normalised float32 rows of shape (len(texts), dim)."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def text_key(text: str) -> bytes:
    """A compact, collision-safe cache key for a text."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def normalise_rows(x: np.ndarray) -> np.ndarray:
    """L2-normalise rows as float32; zero rows stay zero (never NaN)."""
    x = np.asarray(x, dtype=np.float32)
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {x.shape}")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (x / norms).astype(np.float32, copy=False)


class EmbeddingCache:
    """A thread-safe in-memory LRU of text hash -> embedding row, bounded by entry count."""

    def __init__(self, max_entries: int = 200_000) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: bytes) -> np.ndarray | None:
        with self._lock:
            row = self._data.get(key)
            if row is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return row

    def put(self, key: bytes, row: np.ndarray) -> None:
        if self.max_entries <= 0:
            return
        with self._lock:
            self._data[key] = row
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0


def content_key(texts: Sequence[str], model: str) -> str:
    """sha256 of the model name and the texts (length-prefixed so joins are unambiguous)."""
    h = hashlib.sha256(model.encode())
    for t in texts:
        b = t.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


class CachedEmbedder:
    """Wraps an embedder: de-duplicates a batch, serves repeats from the LRU cache, and
    with `disk_dir` keeps whole batches on disk (`emb-<key>.npy`) across processes (the
    bench's index embeddings).

    Only texts not seen before reach the wrapped embedder, in one call.
    """

    def __init__(self, inner: Embedder, cache: EmbeddingCache | None = None,
                 disk_dir: Path | None = None) -> None:
        self.inner = inner
        self.cache = cache if cache is not None else EmbeddingCache()
        self.disk_dir = disk_dir
        self.name = str(getattr(inner, "name", None) or type(inner).__name__)
        self.dim = int(getattr(inner, "dim", 0) or 0)
        self.disk_hits = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.disk_dir is None:
            return self._embed(texts)
        path = self.disk_dir / f"emb-{content_key(texts, self.name)[:32]}.npy"
        if path.exists():
            self.disk_hits += 1
            return np.load(path)
        vecs = np.asarray(self._embed(texts), dtype=np.float32)
        with atomic_write(path, binary=True) as fh:
            np.save(fh, vecs)
        return vecs

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        out: np.ndarray | None = None
        rows: dict[int, np.ndarray] = {}
        todo: dict[bytes, list[int]] = {}
        todo_text: dict[bytes, str] = {}
        for i, t in enumerate(texts):
            k = text_key(t)
            if k in todo:
                todo[k].append(i)
                continue
            row = self.cache.get(k)
            if row is None:
                todo[k] = [i]
                todo_text[k] = t
            else:
                rows[i] = row
        if todo:
            keys = list(todo)
            fresh = np.asarray(self.inner.embed([todo_text[k] for k in keys]), dtype=np.float32)
            self.dim = self.dim or int(fresh.shape[1])
            for k, row in zip(keys, fresh, strict=True):
                self.cache.put(k, row)
                for i in todo[k]:
                    rows[i] = row
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, row in rows.items():
            out[i] = row
        return out
