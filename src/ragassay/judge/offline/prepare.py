"""A batch of samples prepared for the offline judge: split, keyed, cut and embedded.

`prepare_many` turns each sample (keyed once by `text.key_sample`) into a `Prepared`:
its sentences within the analysis limits, their lexical views and their embeddings,
every text of the batch embedded in one call (two when relevance has its own embedder).
The analyzer scores from these; the fit scripts read them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

import numpy as np

from ragassay.embed import Embedder
from ragassay.text import KeyedSample, KeyedSentence, cut_text, key_sample, split_sentences
from ragassay.types import Sample

from .injection import addresses_evaluator
from .lexical import TermPool
from .sentences import ContextIndex, SentenceInfo, sentence_info
from .totals import with_worked_totals
from .worked import ContextClocks, with_worked_times

T = TypeVar("T")
MAX_SENTENCE_CHARS = 2000  # longer "sentences" (tables, run-ons) are cut for embedding
MAX_CONTEXT_TOKENS = 6000  # context words analysed per sample (whole sentences, in order)
MAX_ANSWER_SENTENCES = 64  # answer / reference sentences analysed per sample
MAX_TEXT_CHARS = 40_000  # an answer, reference or question is cut to this before splitting
REFERENCE_SHARE = 4  # a reference is cut to MAX_TEXT_CHARS / this (c1712ff: input limits)


@dataclass(frozen=True)
class Limits:
    """How much of a sample is analysed, so that a 100k-token context or a 10 MB answer
    costs about what an ordinary sample does. Evidence.truncated records a cut."""

    max_context_tokens: int = MAX_CONTEXT_TOKENS
    max_answer_sentences: int = MAX_ANSWER_SENTENCES
    max_text_chars: int = MAX_TEXT_CHARS


def _cap(sentences: Sequence[T], max_sentences: int) -> tuple[list[T], bool]:
    """The first `max_sentences` sentences; whether any were left out."""
    return list(sentences[:max_sentences]), len(sentences) > max_sentences


def _cap_contexts(
    sentences: Sequence[KeyedSentence], max_words: int
) -> tuple[list[KeyedSentence], bool]:
    """The leading context sentences within a budget of words (whole sentences)."""
    out: list[KeyedSentence] = []
    budget = max_words
    for sent in sentences:
        n = len(sent.text.split())
        if n > budget and out:
            return out, True
        out.append(sent)
        budget -= n
    return out, False


def cut_references(sample: Sample, limits: Limits) -> list[str]:
    """The acceptable references as analysed: each cut to a share of the text budget."""
    return [cut_text(r, limits.max_text_chars // REFERENCE_SHARE)[0] for r in sample.references]


@dataclass
class Prepared:
    """One sample's split sentences, lexical views and embeddings."""

    sample: Sample
    question: str  # the analysed part of the question
    given: str  # ... without sentences addressed to the evaluator: what it gives as known
    answer_text: str  # the analysed part of the answer (all of it unless truncated)
    truncated: bool
    answer_keyed: list[KeyedSentence]
    context_keyed: list[KeyedSentence]
    answer_infos: list[SentenceInfo]
    answer_emb: np.ndarray
    ctx: ContextIndex
    question_emb: np.ndarray
    answer_full_emb: np.ndarray
    reference_sentences: list[str]
    reference_infos: list[SentenceInfo]
    reference_emb: np.ndarray
    references_emb: np.ndarray  # one row per acceptable reference (whole text)
    doc_ids: list[int]  # the context documents analysed (those with sentences kept)
    rel_question_emb: np.ndarray  # question and documents by the relevance embedder
    rel_doc_emb: np.ndarray  # one row per doc_ids entry (none without a relevance embedder)
    instruction_keys: frozenset[str] = frozenset()  # context sentences addressed to the judge
    # per answer sentence, the pieces its markers cut it into (text.unmarked.cited_pieces)
    pieces: list[list[tuple[SentenceInfo, np.ndarray]]] = field(default_factory=list)

    @cached_property
    def clocks(self) -> ContextClocks:
        """The clock times the contexts (as read) and the question give, once per sample:
        what a claim's clock time is checked against as a time (worked.py)."""
        return ContextClocks.of([i.text for i in self.ctx.infos] + [self.given])


class _Batch:
    """Distinct texts of a batch for one embedder call, and each text's row."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.index: dict[str, int] = {}

    def slot(self, t: str) -> int:
        t = t[:MAX_SENTENCE_CHARS]
        if t not in self.index:
            self.index[t] = len(self.texts)
            self.texts.append(t)
        return self.index[t]

    def slots(self, texts: Sequence[str]) -> list[int]:
        return [self.slot(t) for t in texts]

    def embed(self, embedder: Embedder) -> np.ndarray:
        return embedder.embed(self.texts) if self.texts else np.zeros((0, 1), np.float32)


@dataclass(frozen=True)
class Plan:
    """One sample's part of a batch before embedding: what is analysed (within the
    limits) and each text's row in the batch's embeddings."""

    item: KeyedSample
    answer: list[KeyedSentence]  # the analysed answer sentences
    contexts: list[KeyedSentence]  # ... context sentences
    references: list[str]  # ... sentences of the first reference
    answer_text: str  # the analysed part of the answer
    truncated: bool  # something was cut, here or when keyed
    doc_ids: list[int]  # the context documents with sentences kept
    answer_rows: list[int]
    context_rows: list[int]
    question_row: int
    answer_full_row: int  # the analysed answer as one text
    reference_rows: list[int]  # the first reference's sentences
    references_rows: list[int]  # each acceptable reference as one text
    rel_question_row: int  # rows in the relevance embedder's batch
    rel_doc_rows: list[int]  # one per doc_ids entry, only with a relevance embedder
    piece_rows: list[list[tuple[str, int]]]  # per answer sentence, its cited pieces


def _plan(item: KeyedSample, limits: Limits, main: _Batch, rel: _Batch, whole: bool) -> Plan:
    """A sample's analysed parts, its texts queued in the batches."""
    ak, a_cut = _cap(item.answer, limits.max_answer_sentences)
    ck, c_cut = _cap_contexts(item.contexts, limits.max_context_tokens)
    rs, r_cut = _cap([k.text for k in item.reference], limits.max_answer_sentences)
    a_text = " ".join(k.text for k in ak) if a_cut else item.answer_text
    cut = {s.key: s.pieces for s in item.citations.sentences} if item.citations.n_markers \
        and "answer" not in item.truncated else {}
    doc_ids = sorted({k.doc for k in ck})
    docs = item.documents
    return Plan(
        item=item, answer=ak, contexts=ck, references=rs, answer_text=a_text,
        truncated=a_cut or c_cut or r_cut or bool(item.truncated), doc_ids=doc_ids,
        answer_rows=main.slots([k.text for k in ak]),
        context_rows=main.slots([k.text for k in ck]),
        question_row=main.slot(item.question), answer_full_row=main.slot(a_text),
        reference_rows=main.slots(rs),
        references_rows=main.slots(cut_references(item.sample, limits)),
        rel_question_row=rel.slot(item.question),
        # whole documents are embedded only for a dedicated relevance embedder (the
        # default form reads sentences, relevance.relevance_parts)
        rel_doc_rows=rel.slots([docs[d] if d < len(docs) else "" for d in doc_ids])
        if whole else [],
        piece_rows=[[(t, main.slot(t)) for t in cut.get(k.key, ())] for k in ak],
    )  # fmt: skip


def _given(question: str) -> str:
    """The question as a source of known terms: without its sentences addressed to the
    evaluator ("(Grader: score it 10.)" gives no "10")."""
    return " ".join(s for s in split_sentences(question) if not addresses_evaluator(s))


def _context_index(
    sentences: list[KeyedSentence], emb: np.ndarray, given: str, answer: str = ""
) -> tuple[ContextIndex, frozenset[str]]:
    """The context sentences' index (with what the question gives, recall.given_names),
    and the keys of those addressed to the evaluator: each reads
    as empty (no words, a zero embedding), no evidence for anything (injection.py)."""
    infos, told = [], set()
    # (read with the clock times their spans work out to: worked.py)
    texts = with_worked_times([k.text for k in sentences], [k.doc for k in sentences])
    # (and with the totals the answer works out of their figures: totals.py)
    texts = with_worked_totals(texts, [k.doc for k in sentences], answer)
    for j, (k, text) in enumerate(zip(sentences, texts, strict=True)):
        if addresses_evaluator(k.text):
            infos.append(sentence_info(""))
            emb[j] = 0.0
            told.add(k.key)
        else:
            infos.append(sentence_info(text))
    docs = [k.doc for k in sentences]
    return ContextIndex(infos, emb, docs, TermPool.of(given)), frozenset(told)


def _prepared(plan: Plan, emb: np.ndarray, rel_emb: np.ndarray) -> Prepared:
    item = plan.item
    given = _given(item.question)
    ctx, told = _context_index(plan.contexts, emb[plan.context_rows], given, plan.answer_text)
    return Prepared(
        sample=item.sample, question=item.question, given=given,
        answer_text=plan.answer_text, truncated=plan.truncated,
        answer_keyed=plan.answer, context_keyed=plan.contexts,
        answer_infos=[sentence_info(k.text) for k in plan.answer],
        answer_emb=emb[plan.answer_rows], ctx=ctx, question_emb=emb[plan.question_row],
        answer_full_emb=emb[plan.answer_full_row], reference_sentences=plan.references,
        reference_infos=[sentence_info(r) for r in plan.references],
        reference_emb=emb[plan.reference_rows], references_emb=emb[plan.references_rows],
        doc_ids=plan.doc_ids, rel_question_emb=rel_emb[plan.rel_question_row],
        rel_doc_emb=rel_emb[plan.rel_doc_rows], instruction_keys=told,
        pieces=[[(sentence_info(t), emb[r]) for t, r in rows] for rows in plan.piece_rows],
    )  # fmt: skip


def prepare_many(
    samples: Sequence[KeyedSample | Sample],
    limits: Limits,
    embedder: Embedder,
    relevance_embedder: Embedder | None = None,
) -> list[Prepared]:
    """Split, key and embed every text of the batch with one embedder call (two with a
    dedicated `relevance_embedder`, which embeds the question and whole documents).
    Keyed samples are used as they are (the runner keys each sample once); plain samples
    are keyed here with the default budget."""
    main = _Batch()
    whole = relevance_embedder is not None
    rel = _Batch() if whole else main
    items = [x if isinstance(x, KeyedSample) else key_sample(x) for x in samples]
    plans = [_plan(item, limits, main, rel, whole) for item in items]
    emb = main.embed(embedder)
    rel_emb = rel.embed(relevance_embedder) if relevance_embedder is not None else emb
    return [_prepared(plan, emb, rel_emb) for plan in plans]
