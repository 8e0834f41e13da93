"""Retrievers over chunks: BM25 (bm25s), dense (cosine over normalised embeddings)
and hybrid (reciprocal rank fusion). Indexes are cached on disk by content hash."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from ragassay.corpus.chunking import Chunk
from ragassay.embed import CachedEmbedder, Embedder, content_key
from ragassay.text import tokens

RetrieverKind = Literal["bm25", "dense", "hybrid"]
RRF_K = 60


def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN

    return frozenset(STOPWORDS_EN)


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased words minus English stopwords (same for chunks and queries)."""
    stop = _stopwords()
    return [t for t in tokens(text) if t not in stop]


class Retriever(Protocol):
    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """The top-k (chunk index, score) pairs, best first."""
        ...


def _top(scores: np.ndarray, k: int) -> list[tuple[int, float]]:
    """Top-k by score, ties broken by chunk index (stable, deterministic)."""
    order = np.lexsort((np.arange(len(scores)), -scores))[:k]
    return [(int(i), float(scores[i])) for i in order]


class BM25Retriever:
    """bm25s over `bm25_tokens`; saved to and loaded from `cache_dir/bm25-<key>/`."""

    def __init__(self, texts: Sequence[str], cache_dir: Path | None = None) -> None:
        from ragassay.extras import require

        bm25s = require("bm25s", "bench", "the bm25 retriever")

        self.n = len(texts)
        path = cache_dir / f"bm25-{content_key(texts, 'bm25s')[:32]}" if cache_dir else None
        if path is not None and (path / "params.index.json").exists():
            self.model = bm25s.BM25.load(str(path), show_progress=False)
            return
        self.model = bm25s.BM25()
        corpus = [bm25_tokens(t) or [""] for t in texts]
        self.model.index(corpus, show_progress=False)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.model.save(str(path), show_progress=False)

    def scores(self, query: str) -> np.ndarray:
        vocab = self.model.vocab_dict
        q = [t for t in bm25_tokens(query) if t in vocab]
        if not q or self.n == 0:
            return np.zeros(self.n, dtype=np.float32)
        return np.asarray(self.model.get_scores(q), dtype=np.float32)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        scores = self.scores(query)
        return [(i, s) for i, s in _top(scores, k) if s > 0]


class DenseRetriever:
    """Cosine similarity between the query and chunk embeddings (rows are normalised)."""

    def __init__(
        self, texts: Sequence[str], embedder: Embedder, cache_dir: Path | None = None
    ) -> None:
        self.embedder = embedder  # queries are embedded uncached
        cached = CachedEmbedder(embedder, disk_dir=cache_dir)
        self.matrix = np.asarray(cached.embed(list(texts)), dtype=np.float32)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        if len(self.matrix) == 0:
            return []
        q = np.asarray(self.embedder.embed([query]), dtype=np.float32)[0]
        return _top(self.matrix @ q, k)


def rrf(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    """Reciprocal rank fusion: score(d) = sum over rankings of 1 / (k + rank), rank from 1.
    Ties are broken by the first ranking in which an item appears, then by index."""
    scores: dict[int, float] = {}
    first: dict[int, tuple[int, int]] = {}
    for r, ranking in enumerate(rankings):
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            first.setdefault(item, (rank, r))
    return sorted(scores.items(), key=lambda kv: (-kv[1], first[kv[0]], kv[0]))


class HybridRetriever:
    """RRF of BM25 and dense rankings, each taken to depth `depth` (default 4k, >= 20)."""

    def __init__(self, bm25: BM25Retriever, dense: DenseRetriever, depth: int | None = None):
        self.bm25, self.dense, self.depth = bm25, dense, depth

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        depth = self.depth or max(20, 4 * k)
        lexical = [i for i, _ in self.bm25.search(query, depth)]
        semantic = [i for i, _ in self.dense.search(query, depth)]
        return rrf([lexical, semantic])[:k]


def build_retriever(
    kind: RetrieverKind,
    chunks: Sequence[Chunk],
    embedder: Embedder | None,
    cache_dir: Path | None = None,
) -> Retriever:
    """Index `chunk.indexed_text` (heading path + text) with the named retriever."""
    texts = [c.indexed_text for c in chunks]
    if kind == "bm25":
        return BM25Retriever(texts, cache_dir)
    if embedder is None:
        raise ValueError(f"the {kind} retriever needs an embedder")
    dense = DenseRetriever(texts, embedder, cache_dir)
    if kind == "dense":
        return dense
    return HybridRetriever(BM25Retriever(texts, cache_dir), dense)
