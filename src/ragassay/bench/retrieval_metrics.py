"""Retrieval metrics with binary relevance, as pure functions over match sets.

`matches[i]` is the set of gold items that the chunk at rank i+1 satisfies (empty
when it is not relevant). A gold item is a gold document id, or a gold passage;
with gold passages given, they are used (they are finer than documents). A chunk
satisfies a passage when it covers at least half of the quote's characters, so a
quote cut by a chunk boundary still counts for the chunk holding most of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property

from ragassay.bench.questions import Question
from ragassay.corpus import locate
from ragassay.corpus.chunking import Chunk

Matches = Sequence[frozenset[str] | set[str]]


def recall_at_k(matches: Matches, n_gold: int, k: int) -> float:
    """Share of the gold items satisfied by some chunk in the top k."""
    if n_gold <= 0:
        raise ValueError("recall needs at least one gold item")
    found: set[str] = set()
    for m in matches[:k]:
        found |= m
    return len(found) / n_gold


def precision_at_k(matches: Matches, k: int) -> float:
    """Share of the k slots holding a relevant chunk (missing slots count as misses)."""
    return sum(1 for m in matches[:k] if m) / k


def reciprocal_rank(matches: Matches) -> float:
    """1 / rank of the first relevant chunk; 0 when none is relevant."""
    for rank, m in enumerate(matches, 1):
        if m:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(matches: Matches, k: int, n_relevant: int) -> float:
    """Binary nDCG@k; the ideal list has min(k, n_relevant) relevant chunks on top."""
    dcg = sum(1.0 / math.log2(r + 1) for r, m in enumerate(matches[:k], 1) if m)
    ideal = sum(1.0 / math.log2(r + 1) for r in range(1, min(k, n_relevant) + 1))
    return dcg / ideal if ideal > 0 else 0.0


class GoldMatcher:
    """Decides which gold items of one question a chunk satisfies."""

    def __init__(self, question: Question, doc_texts: dict[str, str]) -> None:
        self.passages: list[tuple[str, str, int, int]] = []
        for n, g in enumerate(question.gold_passages):
            span = locate(g.quote, doc_texts.get(g.doc, ""))
            if span is not None:
                self.passages.append((f"p{n}", g.doc, *span))
        self.docs = frozenset(question.gold_docs)
        self.by_passage = bool(question.gold_passages)
        self.n_gold = len(question.gold_passages) if self.by_passage else len(self.docs)

    def __call__(self, chunk: Chunk) -> frozenset[str]:
        if self.by_passage:
            hit = set()
            for key, doc, start, end in self.passages:
                covered = min(end, chunk.end) - max(start, chunk.start)
                if doc == chunk.doc_id and covered * 2 >= end - start:
                    hit.add(key)
            return frozenset(hit)
        return frozenset({chunk.doc_id}) if chunk.doc_id in self.docs else frozenset()


def retrieval_scores(
    question: Question, retrieved: Sequence[Chunk], corpus: Sequence[Chunk], k: int,
    doc_texts: dict[str, str],
) -> dict[str, float] | None:
    """recall, precision, mrr and ndcg (all at k) for one question; None without gold."""
    if not question.has_gold:
        return None
    match = GoldMatcher(question, doc_texts)
    matches = [match(c) for c in retrieved]
    n_relevant = sum(1 for c in corpus if match(c))
    return {
        "recall": recall_at_k(matches, match.n_gold, k),
        "precision": precision_at_k(matches, k),
        "mrr": reciprocal_rank(matches),
        "ndcg": ndcg_at_k(matches, k, n_relevant),
    }


def _flat(text: str) -> str:
    """Text as a quote is matched: lower case, any run of whitespace one space."""
    return " ".join(text.lower().split())


class CorpusFinder:
    """The corpus documents that hold a context's text (its words in order, any
    whitespace between, case-insensitive: `corpus.locate`'s rule, as a substring of the
    flattened text: 0.4 ms against the regex's 17 ms on a 1.4 MB document): the
    document of a context a pipeline returned without naming it. The corpus is flattened
    on first use only (a bench whose pipelines name their documents never pays it)."""

    def __init__(self, doc_texts: Mapping[str, str]) -> None:
        self._texts = doc_texts
        self._seen: dict[str, frozenset[str]] = {}  # a pipeline returns its passages often

    @cached_property
    def _docs(self) -> dict[str, str]:
        return {doc: _flat(text) for doc, text in self._texts.items()}

    def __call__(self, text: str) -> frozenset[str]:
        flat = _flat(text)
        if flat not in self._seen:
            self._seen[flat] = frozenset(d for d, t in self._docs.items() if flat and flat in t)
        return self._seen[flat]


def context_scores(question: Question, contexts: Sequence[str], docs: Sequence[str | None],
                   find: CorpusFinder) -> tuple[dict[str, float] | None, str | None]:
    """The same four metrics for contexts a pipeline returned (no chunks, no corpus
    index): a context satisfies a gold passage when it contains the quote (and names its
    document, if it names one), a gold document when it names it or, named nowhere, when
    its text is found in that document (`find`): a pipeline need not name documents for
    the metrics of either kind of gold. k is the number of contexts returned. (scores,
    None), or (None, why not: no gold, or gold documents and contexts of no known
    document)."""
    if not question.has_gold:
        return None, "no gold labels"
    named = [docs[i] if i < len(docs) else None for i in range(len(contexts))]
    if question.gold_passages:
        n_gold = len(question.gold_passages)
        matches = [frozenset(f"p{n}" for n, g in enumerate(question.gold_passages)
                             if locate(g.quote, text) is not None and doc in (None, g.doc))
                   for text, doc in zip(contexts, named, strict=True)]
    else:
        gold = frozenset(question.gold_docs)
        n_gold = len(gold)
        found = [frozenset({doc}) if doc else find(text)
                 for text, doc in zip(contexts, named, strict=True)]
        if not any(found):
            return None, ("the pipeline named no document and no context's text is found "
                          "in the corpus (gold_docs need one of them)")
        matches = [f & gold for f in found]
    k = len(contexts)
    if k == 0:
        return {"recall": 0.0, "precision": 0.0, "mrr": 0.0, "ndcg": 0.0}, None
    return {
        "recall": recall_at_k(matches, n_gold, k),
        "precision": precision_at_k(matches, k),
        "mrr": reciprocal_rank(matches),
        "ndcg": ndcg_at_k(matches, k, n_gold),
    }, None
