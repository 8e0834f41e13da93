"""Retrieval metrics on hand-worked cases, RRF, and the retrievers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ragassay.bench.questions import GoldPassage, Question
from ragassay.bench.retrieval import BM25Retriever, build_retriever, rrf
from ragassay.bench.retrieval_metrics import (
    GoldMatcher,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
    retrieval_scores,
)
from ragassay.corpus.chunking import Chunk

from .conftest import HashEmbedder

E: frozenset[str] = frozenset()


def s(*items: str) -> frozenset[str]:
    return frozenset(items)


def test_metrics_hand_worked() -> None:
    # ranks: 1 miss, 2 hits g1, 3 miss, 4 hits g1+g2; 3 gold items in total
    matches = [E, s("g1"), E, s("g1", "g2")]
    assert recall_at_k(matches, 3, 4) == pytest.approx(2 / 3)
    assert recall_at_k(matches, 3, 2) == pytest.approx(1 / 3)
    assert precision_at_k(matches, 4) == pytest.approx(0.5)
    assert precision_at_k(matches, 2) == pytest.approx(0.5)
    assert reciprocal_rank(matches) == pytest.approx(0.5)
    # DCG = 1/log2(3) + 1/log2(5); with 2 relevant chunks, IDCG = 1 + 1/log2(3)
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    assert ndcg_at_k(matches, 4, 2) == pytest.approx(dcg / (1 + 1 / math.log2(3)))


def test_metrics_edge_cases() -> None:
    assert reciprocal_rank([E, E]) == 0.0
    assert ndcg_at_k([E, E], 2, 0) == 0.0
    assert ndcg_at_k([s("a")], 3, 1) == pytest.approx(1.0)
    assert precision_at_k([s("a")], 4) == pytest.approx(0.25)  # missing slots are misses
    with pytest.raises(ValueError):
        recall_at_k([s("a")], 0, 1)


def chunk(doc: str, start: int, end: int, text: str, index: int = 0) -> Chunk:
    return Chunk(doc_id=doc, index=index, start=start, end=end, text=text,
                 n_tokens=len(text.split()))


def test_gold_passage_needs_half_the_quote() -> None:
    text = "aaaa bbbb cccc dddd"
    q = Question(id="q", question="?", gold_passages=(GoldPassage(doc="d", quote="BBBB  cccc"),))
    match = GoldMatcher(q, {"d": text})  # the quote spans characters 5..14
    assert match(chunk("d", 0, 14, text[:14])) == {"p0"}
    assert match(chunk("d", 9, 19, text[9:])) == {"p0"}  # 5 of the quote's 9 characters
    assert match(chunk("d", 10, 19, text[10:])) == set()  # 4 of 9: less than half
    assert match(chunk("e", 0, 19, text)) == set()


def test_retrieval_scores_by_document() -> None:
    q = Question(id="q", question="?", gold_docs=("a", "b"))
    corpus = [chunk("a", 0, 1, "x", 0), chunk("a", 2, 3, "y", 1), chunk("b", 0, 1, "z", 0),
              chunk("c", 0, 1, "w", 0)]
    got = retrieval_scores(q, [corpus[3], corpus[0]], corpus, 2, {})
    assert got == {"recall": 0.5, "precision": 0.5, "mrr": 0.5,
                   "ndcg": pytest.approx((1 / math.log2(3)) / (1 + 1 / math.log2(3)))}
    assert retrieval_scores(Question(id="n", question="?"), corpus, corpus, 2, {}) is None


def test_rrf_hand_case() -> None:
    # a: 1/61 + 1/63; b: 1/62 + 1/61; c: 1/63; d: 1/62
    fused = rrf([["a", "b", "c"], ["b", "d", "a"]])  # type: ignore[list-item]
    assert [x for x, _ in fused] == ["b", "a", "d", "c"]
    assert dict(fused)["a"] == pytest.approx(1 / 61 + 1 / 63)
    assert dict(fused)["c"] == pytest.approx(1 / 63)


TEXTS = ["annual leave is 27 days", "hotel cap in Toronto is 220 euros",
         "counselling sessions are free", "flights under six hours are economy"]


def test_bm25_ranks_the_matching_chunk_first(tmp_path: Path) -> None:
    r = BM25Retriever(TEXTS, tmp_path)
    assert r.search("How much is a hotel in Toronto?", 2)[0][0] == 1
    assert r.search("zzz qqq", 3) == []  # nothing in the vocabulary: no hits
    assert any(p.name.startswith("bm25-") for p in tmp_path.iterdir())
    again = BM25Retriever(TEXTS, tmp_path)  # loaded from the cache
    assert again.search("annual leave", 1)[0][0] == 0


def test_dense_and_hybrid(tmp_path: Path) -> None:
    chunks = [chunk(f"d{i}", 0, len(t), t) for i, t in enumerate(TEXTS)]
    emb = HashEmbedder()
    dense = build_retriever("dense", chunks, emb, tmp_path)
    assert dense.search("free counselling sessions", 1)[0][0] == 2
    calls = emb.calls
    build_retriever("dense", chunks, emb, tmp_path)  # chunk embeddings come from disk
    assert emb.calls == calls
    hybrid = build_retriever("hybrid", chunks, emb, tmp_path)
    assert hybrid.search("economy flights", 2)[0][0] == 3
    with pytest.raises(ValueError, match="embedder"):
        build_retriever("dense", chunks, None)
