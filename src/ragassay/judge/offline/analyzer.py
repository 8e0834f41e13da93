"""The offline judge's evidence engine: sentence alignment + lexical checks + calibration.

`Analyzer.analyze_many` splits and keys every text of a batch, embeds all
sentences in one call (the embedder de-duplicates and caches by text hash),
then scores each sample with the logistic models in calibration.json.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ragassay.embed import Embedder, get_embedder
from ragassay.text import KeyedSentence, key_answer, key_contexts, split_sentences, tokens
from ragassay.types import Sample

from .calibration import Calibration, load_calibration
from .evidence import Evidence
from .features import (
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
    ContextIndex,
    SentenceInfo,
    answer_overlap,
    faithfulness_features,
    reference_features,
    sentence_info,
    support_features,
)
from .lexical import (
    STOPWORDS,
    is_noncommittal,
    key_terms,
    missing_terms,
    stem,
    stem_set,
    term_present,
)

DEFAULT_EMBEDDER = "static"
MAX_SENTENCE_CHARS = 2000  # longer "sentences" (tables, run-ons) are cut for embedding
LONG_REFERENCE_TOKENS = 8  # references this long are compared claim by claim


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass
class Prepared:
    """One sample's split sentences, lexical views and embeddings."""

    sample: Sample
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


class Analyzer:
    """Computes Evidence for samples; thread-safe after construction."""

    def __init__(
        self,
        embedder: Embedder | str = DEFAULT_EMBEDDER,
        calibration: Calibration | None = None,
    ) -> None:
        self.embedder = get_embedder(embedder) if isinstance(embedder, str) else embedder
        self.calibration = calibration if calibration is not None else load_calibration()
        for got, want in (
            (self.calibration.support.features, SUPPORT_FEATURES),
            (self.calibration.faithfulness.features, FAITHFULNESS_FEATURES),
            (self.calibration.reference_match.features, REFERENCE_FEATURES),
        ):
            if tuple(got) != want:
                raise ValueError(
                    f"calibration features {list(got)} do not match the code's {list(want)}; "
                    "refit with scripts/devsets/fit_offline.py"
                )

    # ---- preparation (shared with the fit script) -------------------------------------
    def prepare_many(self, samples: Sequence[Sample]) -> list[Prepared]:
        """Split, key and embed every text of the batch with one embedder call."""
        texts: list[str] = []
        index: dict[str, int] = {}

        def slot(t: str) -> int:
            t = t[:MAX_SENTENCE_CHARS]
            if t not in index:
                index[t] = len(texts)
                texts.append(t)
            return index[t]

        plans = []
        for s in samples:
            ak = key_answer(s.answer)
            ck = key_contexts(s.contexts)
            refs = s.references
            rs = split_sentences(refs[0]) if refs else []
            plans.append(
                (
                    ak,
                    ck,
                    rs,
                    [slot(k.text) for k in ak],
                    [slot(k.text) for k in ck],
                    slot(s.question),
                    slot(s.answer),
                    [slot(r) for r in rs],
                    [slot(r) for r in refs],
                )
            )
        emb = self.embedder.embed(texts) if texts else np.zeros((0, 1), np.float32)
        out = []
        for s, (ak, ck, rs, ai, ci, qi, fi, ri, rfi) in zip(samples, plans, strict=True):
            ctx = ContextIndex([sentence_info(k.text) for k in ck], emb[ci])
            out.append(
                Prepared(
                    sample=s,
                    answer_keyed=ak,
                    context_keyed=ck,
                    answer_infos=[sentence_info(k.text) for k in ak],
                    answer_emb=emb[ai],
                    ctx=ctx,
                    question_emb=emb[qi],
                    answer_full_emb=emb[fi],
                    reference_sentences=rs,
                    reference_infos=[sentence_info(r) for r in rs],
                    reference_emb=emb[ri],
                    references_emb=emb[rfi],
                )
            )
        return out

    # ---- scoring -----------------------------------------------------------------------
    def analyze(self, sample: Sample) -> Evidence:
        return self.analyze_many([sample])[0]

    def analyze_many(self, samples: Sequence[Sample]) -> list[Evidence]:
        return [self.score(p) for p in self.prepare_many(samples)]

    def _support(
        self,
        infos: list[SentenceInfo],
        emb: np.ndarray,
        ctx: ContextIndex,
    ) -> tuple[list[float], list[list[int]]]:
        """Support logits of sentences against a context, and their best context rows."""
        if not infos or len(ctx) == 0:
            return [], []
        rows, tops = [], []
        for info, e in zip(infos, emb, strict=True):
            f, top = support_features(info, e, ctx)
            rows.append(f)
            tops.append(top)
        logits = self.calibration.support.logits(np.asarray(rows)).tolist()
        return logits, tops

    def score(self, p: Prepared) -> Evidence:
        s = p.sample
        ev = Evidence(
            answer_sentences=p.answer_keyed,
            context_sentences=p.context_keyed,
            reference_sentences=p.reference_sentences,
        )
        has_ctx = len(p.ctx) > 0
        has_answer = bool(p.answer_infos)
        ev.noncommittal = is_noncommittal(s.answer)
        q_stems = [stem(t) for t in tokens(s.question) if t not in STOPWORDS]

        # Relevance of each context sentence to the question (heuristic mapping).
        if has_ctx:
            sims = p.ctx.emb @ p.question_emb
            cover = np.asarray(
                [
                    sum(1 for x in q_stems if x in i.stem_set) / len(q_stems) if q_stems else 0.0
                    for i in p.ctx.infos
                ]
            )
            rel = 1.0 / (1.0 + np.exp(-(-4.0 + 7.0 * sims + 3.0 * cover)))
            ev.relevance = [float(x) for x in rel]
            top = np.sort(rel)[::-1][:3]
            ev.context_relevance = float(0.5 * top[0] + 0.5 * top.mean())

        # Support of each answer sentence, sample faithfulness, hallucinated terms.
        ev.hallucinated_terms = missing_terms(s.answer, p.ctx.stems, s.question) if has_ctx else []
        if has_ctx and has_answer:
            logits, tops = self._support(p.answer_infos, p.answer_emb, p.ctx)
            ev.support = [_sigmoid(z) for z in logits]
            ev.support_keys = [
                [p.context_keyed[j].key for j in t[:2]] if pr >= 0.2 else []
                for t, pr in zip(tops, ev.support, strict=True)
            ]
            f = faithfulness_features(
                logits, answer_overlap(p.answer_infos, p.ctx), len(ev.hallucinated_terms)
            )
            ev.faithfulness = self.calibration.faithfulness.predict_one(f)
            # Used: how much of each context sentence the answer reuses, or aligns with.
            a_stems = frozenset(x for i in p.answer_infos for x in i.stems)
            cos_ca = (p.ctx.emb @ p.answer_emb.T).max(axis=1)
            used = []
            for info, c in zip(p.ctx.infos, cos_ca, strict=True):
                share = (
                    sum(1 for x in info.stems if x in a_stems) / len(info.stems)
                    if info.stems
                    else 0.0
                )
                used.append(_sigmoid(-5.0 + 6.0 * share + 4.0 * float(c)))
            ev.used = used

        # Reference: attribution to the contexts, chunk usefulness, answer correctness.
        target_infos, target_emb = (
            (p.reference_infos, p.reference_emb)
            if p.reference_infos
            else (p.answer_infos, p.answer_emb)
        )
        if has_ctx and p.reference_infos:
            logits, _ = self._support(p.reference_infos, p.reference_emb, p.ctx)
            ev.reference_attribution = [_sigmoid(z) for z in logits]
        if has_ctx and target_infos:
            ev.chunk_usefulness = self._chunk_usefulness(p, target_infos, target_emb)
        refs = s.references
        if refs and has_answer:
            first = p.answer_keyed[0].text
            cos = p.references_emb @ p.answer_full_emb
            rows = [
                reference_features(s.answer, first, r, s.question, float(c), ev.noncommittal)
                for r, c in zip(refs, cos, strict=True)
            ]
            probs = self.calibration.reference_match.predict(np.asarray(rows))
            for i, r in enumerate(refs):
                if len(tokens(r)) >= LONG_REFERENCE_TOKENS:  # the better of both readings
                    probs[i] = max(probs[i], self._long_reference_match(p, r))
            if ev.noncommittal:
                probs = np.minimum(probs, 0.1)
            ev.best_reference = int(np.argmax(probs))
            ev.reference_match = float(probs[ev.best_reference])
        elif refs:
            ev.reference_match = None

        # Answer relevance to the question.
        if has_answer:
            a_set = frozenset(x for i in p.answer_infos for x in i.stem_set)
            cover_q = sum(1 for x in q_stems if x in a_set) / len(q_stems) if q_stems else 0.0
            cos_qa = float(p.answer_full_emb @ p.question_emb)
            ar = _sigmoid(-3.0 + 6.0 * cos_qa + 2.0 * cover_q)
            ev.answer_relevance = min(ar, 0.1) if ev.noncommittal else ar
        return ev

    def _long_reference_match(self, p: Prepared, reference: str) -> float:
        """A long-form reference: F1 of the support model in both directions (answer
        sentences supported by the reference; reference sentences covered by the
        answer), so that a wrong number or name, an omission or an addition all count.
        Heuristic: the calibration data (EVOUNA) has short gold answers only."""
        sents = split_sentences(reference)
        infos = [sentence_info(x) for x in sents]
        emb = self.embedder.embed([x[:MAX_SENTENCE_CHARS] for x in sents])
        ref_index = ContextIndex(infos, emb)
        ans_index = ContextIndex(p.answer_infos, p.answer_emb)
        prec_logits, _ = self._support(p.answer_infos, p.answer_emb, ref_index)
        rec_logits, _ = self._support(infos, emb, ans_index)
        if not prec_logits or not rec_logits:
            return 0.0
        prec = sum(_sigmoid(z) for z in prec_logits) / len(prec_logits)
        rec = sum(_sigmoid(z) for z in rec_logits) / len(rec_logits)
        f1 = 2 * prec * rec / (prec + rec) if prec + rec > 0 else 0.0
        # Numbers, dates and names must agree both ways: a swapped figure is wrong
        # however similar the rest of the sentence is.
        ref_terms, ans_terms = key_terms(reference), key_terms(p.sample.answer)
        q_stems = stem_set(p.sample.question)  # terms the question gives are no evidence
        ref_stems, ans_stems = ref_index.stems | q_stems, ans_index.stems | q_stems
        r_ok = [term_present(t, ans_stems) for t in ref_terms]
        a_ok = [term_present(t, ref_stems) for t in ans_terms]
        agree = (sum(r_ok) / len(r_ok) if r_ok else 1.0) * (sum(a_ok) / len(a_ok) if a_ok else 1.0)
        return f1 * (0.25 + 0.75 * agree)

    def _chunk_usefulness(
        self, p: Prepared, infos: list[SentenceInfo], emb: np.ndarray
    ) -> list[float]:
        """Per document: max support probability it gives any target sentence on its own."""
        docs: dict[int, list[int]] = {}
        for j, k in enumerate(p.context_keyed):
            docs.setdefault(k.doc, []).append(j)
        out = [0.0] * len(p.sample.contexts)
        for d, rows in docs.items():
            sub = ContextIndex([p.ctx.infos[j] for j in rows], p.ctx.emb[rows])
            logits, _ = self._support(infos, emb, sub)
            out[d] = _sigmoid(max(logits)) if logits else 0.0
        return out
