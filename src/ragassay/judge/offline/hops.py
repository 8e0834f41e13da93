"""Per-hop scores of a sample read from a trace: how relevant each retrieval (or rerank)
hop's documents are to the question, which of them the final answer uses, and which
relevant documents an earlier hop found that the final contexts lack.

Each hop is analysed as a sample of its own (the question, the hop's documents as
contexts, the final answer), by the same `Analyzer` as the offline judge: a document's
`relevance` is its best sentence's (TRACe relevance, `relevance.py`), its `used` its
best sentence's use by the answer; a hop's `relevance` is the evidence's context
relevance and its `utilization` the share of its documents the answer uses. Always
offline, whatever judges the sample (the scores are the same for every judge).
"""

from __future__ import annotations

from collections.abc import Sequence

from ragassay.dataset.traces.trace import LostDocument, SampleTrace, TraceHop
from ragassay.types import InvalidRow, Sample

from .analyzer import Analyzer
from .evidence import RELEVANCE_THRESHOLD, USED_THRESHOLD, Evidence

SHOWN_CHARS = 80


def score_hops(items: Sequence[Sample | InvalidRow], analyzer: Analyzer
               ) -> list[Sample | InvalidRow]:
    """The items with every trace sample's hops scored (others unchanged), analysed in
    one batch."""
    jobs: list[tuple[int, int]] = []  # (item index, hop index)
    subs: list[Sample] = []
    traces: dict[int, SampleTrace] = {}
    for i, item in enumerate(items):
        if not isinstance(item, Sample):
            continue
        trace = SampleTrace.of(item)
        if trace is None or trace.judged:
            continue
        traces[i] = trace
        for h, hop in enumerate(trace.hops):
            if hop.documents:
                jobs.append((i, h))
                subs.append(Sample(id=f"hop-{h}", question=item.question,
                                   contexts=tuple(d.content for d in hop.documents),
                                   answer=item.answer))
    found = dict(zip(jobs, analyzer.analyze_many(subs), strict=True)) if subs else {}
    out = list(items)
    for i, trace in traces.items():
        sample = items[i]
        assert isinstance(sample, Sample)
        hops = tuple(_scored(hop, found.get((i, h))) for h, hop in enumerate(trace.hops))
        judged = trace.model_copy(update={"hops": hops, "judged": True,
                                          "lost": lost_documents(hops, trace, sample)})
        out[i] = sample.model_copy(update={"metadata": {
            **sample.metadata, "trace": judged.model_dump(mode="json")}})
    return out


def _scored(hop: TraceHop, ev: Evidence | None) -> TraceHop:
    if ev is None:
        return hop
    relevance = [0.0] * len(hop.documents)
    used = [0.0] * len(hop.documents)
    for sentence, rel, use in zip(ev.context_sentences, ev.relevance, ev.used or
                                  [0.0] * len(ev.relevance), strict=False):
        if 0 <= sentence.doc < len(relevance):
            relevance[sentence.doc] = max(relevance[sentence.doc], rel)
            used[sentence.doc] = max(used[sentence.doc], use)
    docs = tuple(d.model_copy(update={"relevance": r, "used": u if ev.used else None})
                 for d, r, u in zip(hop.documents, relevance, used, strict=True))
    utilization = (sum(u >= USED_THRESHOLD for u in used) / len(used)
                   if ev.used and used else None)
    return hop.model_copy(update={"documents": docs, "relevance": ev.context_relevance,
                                  "utilization": utilization})


def lost_documents(hops: Sequence[TraceHop], trace: SampleTrace, sample: Sample
                   ) -> tuple[LostDocument, ...]:
    """Relevant documents of hops before the last one that fed the answer, missing from
    the final contexts (by id where both have one, else by text); hops counted from 1."""
    if not trace.context_hops:
        return ()
    final_ids = {d.id for h in trace.context_hops for d in hops[h].documents if d.id}
    final_texts = {c.strip() for c in sample.contexts}
    lost: dict[str, LostDocument] = {}
    for h, hop in enumerate(hops[:max(trace.context_hops)]):
        if h in trace.context_hops:
            continue
        for doc in hop.documents:
            if doc.relevance is None or doc.relevance < RELEVANCE_THRESHOLD:
                continue
            if (doc.id and doc.id in final_ids) or doc.content.strip() in final_texts:
                continue
            name = doc.id or doc.content[:SHOWN_CHARS]
            if name not in lost:
                lost[name] = LostDocument(hop=h + 1, span_id=hop.span_id, document=name,
                                          relevance=doc.relevance)
    return tuple(lost.values())
