"""The offline judge's evidence engine: sentence alignment + lexical checks + calibration.

`Analyzer.analyze_many` splits and keys every text of a batch, embeds all
sentences in one call (the embedder de-duplicates and caches by text hash),
then scores each sample with the logistic models in calibration.json.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ragassay.embed import Embedder, get_embedder
from ragassay.text import (
    KeyedSample,
    KeyedSentence,
    cut_text,
    key_sample,
    split_sentences,
    tokens,
)
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
    copied,
    copy_floor,
    faithfulness_features,
    reference_features,
    sentence_info,
    support_features,
)
from .lexical import (
    STOPWORDS,
    is_filler,
    is_noncommittal,
    key_terms,
    missing_terms,
    stem,
    stem_set,
    term_present,
)

T = TypeVar("T")
DEFAULT_EMBEDDER = "static"
MAX_SENTENCE_CHARS = 2000  # longer "sentences" (tables, run-ons) are cut for embedding
LONG_REFERENCE_TOKENS = 8  # references this long are compared claim by claim
MAX_CONTEXT_TOKENS = 6000  # context words analysed per sample (whole sentences, in order)
MAX_ANSWER_SENTENCES = 64  # answer / reference sentences analysed per sample
MAX_TEXT_CHARS = 40_000  # an answer, reference or question is cut to this before splitting
_CHARS_PER_TOKEN_CUT = 12  # a context document is cut to budget * this before splitting


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


def _cap_contexts(sentences: Sequence[KeyedSentence], max_words: int
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


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass
class Prepared:
    """One sample's split sentences, lexical views and embeddings."""

    sample: Sample
    question: str  # the analysed part of the question
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


ABSTAINS, FILLER = "abstains", "filler"


def set_aside(p: Prepared, question: str) -> list[str | None]:
    """Per answer sentence, why it is left out of the faithfulness model, or None.

    - ABSTAINS: "I don't know", "the documents don't say", naming nothing absent from
      the contexts and the question: it asserts nothing.
    - FILLER: only stopwords and conversational filler ("Sure!", "I agree."), set aside
      only when another sentence says something (a reply of pure filler is scored).
    The fit script uses the same function, so fitting and scoring see the same sentences.
    """
    pool = p.ctx.stems | stem_set(question)
    out: list[str | None] = []
    for k, info in zip(p.answer_keyed, p.answer_infos, strict=True):
        if is_noncommittal(k.text) and not missing_terms(k.text, pool):
            out.append(ABSTAINS)
        elif is_filler(info.tokens):
            out.append(FILLER)
        else:
            out.append(None)
    if all(r == FILLER for r in out):
        return [None] * len(out)
    return out


class Analyzer:
    """Computes Evidence for samples; thread-safe after construction."""

    def __init__(
        self,
        embedder: Embedder | str = DEFAULT_EMBEDDER,
        calibration: Calibration | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.limits = limits if limits is not None else Limits()
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
    def prepare_many(self, samples: Sequence[KeyedSample | Sample]) -> list[Prepared]:
        """Split, key and embed every text of the batch with one embedder call. Keyed
        samples are used as they are (the runner keys each sample once); plain samples are
        keyed here with the default budget."""
        texts: list[str] = []
        index: dict[str, int] = {}

        def slot(t: str) -> int:
            t = t[:MAX_SENTENCE_CHARS]
            if t not in index:
                index[t] = len(texts)
                texts.append(t)
            return index[t]

        lim = self.limits
        items = [x if isinstance(x, KeyedSample) else key_sample(x) for x in samples]
        plans = []
        for item in items:
            s = item.sample
            ak, a_cut = _cap(item.answer, lim.max_answer_sentences)
            ck, c_cut = _cap_contexts(item.contexts, lim.max_context_tokens)
            rs, r_cut = _cap([k.text for k in item.reference], lim.max_answer_sentences)
            a_text = " ".join(k.text for k in ak) if a_cut else item.answer_text
            refs = [cut_text(r, lim.max_text_chars // 4)[0] for r in s.references]
            plans.append(
                (
                    ak,
                    ck,
                    rs,
                    [slot(k.text) for k in ak],
                    [slot(k.text) for k in ck],
                    slot(item.question),
                    slot(a_text),
                    [slot(r) for r in rs],
                    [slot(r) for r in refs],
                    a_text,
                    a_cut or c_cut or r_cut or bool(item.truncated),
                )
            )
        emb = self.embedder.embed(texts) if texts else np.zeros((0, 1), np.float32)
        out = []
        for item, plan in zip(items, plans, strict=True):
            ak, ck, rs, ai, ci, qi, fi, ri, rfi, a_text, cut = plan
            ctx = ContextIndex([sentence_info(k.text) for k in ck], emb[ci])
            out.append(
                Prepared(
                    sample=item.sample,
                    question=item.question,
                    answer_text=a_text,
                    truncated=cut,
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
    def analyze(self, sample: KeyedSample | Sample) -> Evidence:
        return self.analyze_many([sample])[0]

    def analyze_many(self, samples: Sequence[KeyedSample | Sample]) -> list[Evidence]:
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
        ev = Evidence(
            answer_sentences=p.answer_keyed,
            context_sentences=p.context_keyed,
            reference_sentences=p.reference_sentences,
            truncated=p.truncated,
        )
        ev.noncommittal = is_noncommittal(p.answer_text)
        q_stems = [stem(t) for t in tokens(p.question) if t not in STOPWORDS]
        if len(p.ctx) > 0:
            self._relevance(p, ev, q_stems)
            if p.answer_infos:
                self._faithfulness(p, ev)
            else:
                ev.hallucinated_terms = missing_terms(p.answer_text, p.ctx.stems, p.question)
        self._reference(p, ev)
        if p.answer_infos:
            self._answer_relevance(p, ev, q_stems)
        return ev

    @staticmethod
    def _relevance(p: Prepared, ev: Evidence, q_stems: list[str]) -> None:
        """Relevance of each context sentence to the question (heuristic mapping)."""
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

    def _faithfulness(self, p: Prepared, ev: Evidence) -> None:
        """Support of each answer sentence, sample faithfulness, hallucinated terms, and
        how much of each context sentence the answer uses.

        Sentences that assert nothing (abstentions, filler) are supported and left out of
        faithfulness (see set_aside); an answer with nothing else is faithful (an
        abstention's failure shows in reference match and relevance). A sentence copied
        from the contexts has its support raised to at least COPY_SUPPORT.
        """
        question = p.question
        aside = set_aside(p, question)
        logits, tops = self._support(p.answer_infos, p.answer_emb, p.ctx)
        logits = copy_floor(logits, [copied(i, p.ctx) for i in p.answer_infos])
        ev.support = [
            _sigmoid(z) if r is None else 1.0 for z, r in zip(logits, aside, strict=True)
        ]
        ev.support_keys = [
            [p.context_keyed[j].key for j in t[:2]] if r is None and pr >= 0.2 else []
            for t, pr, r in zip(tops, ev.support, aside, strict=True)
        ]
        ev.asserts = [r is None for r in aside]
        kept = [i for i, r in enumerate(aside) if r is None]
        if kept:
            claims = " ".join(p.answer_keyed[i].text for i in kept)
            ev.hallucinated_terms = missing_terms(claims, p.ctx.stems, question)
            f = faithfulness_features(
                [logits[i] for i in kept],
                answer_overlap([p.answer_infos[i] for i in kept], p.ctx),
                len(ev.hallucinated_terms),
            )
            ev.faithfulness = self.calibration.faithfulness.predict_one(f)
        else:
            ev.faithfulness = 1.0
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

    def _reference(self, p: Prepared, ev: Evidence) -> None:
        """Reference: attribution to the contexts, chunk usefulness, answer correctness."""
        has_ctx = len(p.ctx) > 0
        target_infos, target_emb = (
            (p.reference_infos, p.reference_emb)
            if p.reference_infos
            else (p.answer_infos, p.answer_emb)
        )
        if has_ctx and p.reference_infos:
            logits, _ = self._support(p.reference_infos, p.reference_emb, p.ctx)
            logits = copy_floor(logits, [copied(i, p.ctx) for i in p.reference_infos])
            ev.reference_attribution = [_sigmoid(z) for z in logits]
        if has_ctx and target_infos:
            ev.chunk_usefulness = self._chunk_usefulness(p, target_infos, target_emb)
        refs = [cut_text(r, self.limits.max_text_chars // 4)[0] for r in p.sample.references]
        if not refs or not p.answer_infos:
            return
        first = p.answer_keyed[0].text
        cos = p.references_emb @ p.answer_full_emb
        rows = [
            reference_features(p.answer_text, first, r, p.question, float(c), ev.noncommittal)
            for r, c in zip(refs, cos, strict=True)
        ]
        probs = self.calibration.reference_match.predict(np.asarray(rows))
        for i, r in enumerate(refs):
            if len(tokens(r)) >= LONG_REFERENCE_TOKENS:  # the better of both readings
                long_form, swapped = self._long_reference_match(p, r)
                probs[i] = max(probs[i] * (0.25 if swapped else 1.0), long_form)
        if ev.noncommittal:
            probs = np.minimum(probs, 0.1)
        ev.best_reference = int(np.argmax(probs))
        ev.reference_match = float(probs[ev.best_reference])

    @staticmethod
    def _answer_relevance(p: Prepared, ev: Evidence, q_stems: list[str]) -> None:
        """How well the answer addresses the question."""
        a_set = frozenset(x for i in p.answer_infos for x in i.stem_set)
        cover_q = sum(1 for x in q_stems if x in a_set) / len(q_stems) if q_stems else 0.0
        cos_qa = float(p.answer_full_emb @ p.question_emb)  # answer: its analysed part
        ar = _sigmoid(-3.0 + 6.0 * cos_qa + 2.0 * cover_q)
        ev.answer_relevance = min(ar, 0.1) if ev.noncommittal else ar

    def _long_reference_match(self, p: Prepared, reference: str) -> tuple[float, bool]:
        """A long-form reference: F1 of the support model in both directions (answer
        sentences supported by the reference; reference sentences covered by the
        answer), scaled by the share of numbers, dates and names that agree both ways;
        and whether a figure was swapped (which also discounts the short-form reading).
        Heuristic: the calibration data (EVOUNA) has short gold answers only."""
        sents = split_sentences(reference)[: self.limits.max_answer_sentences]
        infos = [sentence_info(x) for x in sents]
        emb = self.embedder.embed([x[:MAX_SENTENCE_CHARS] for x in sents])
        ref_index = ContextIndex(infos, emb)
        ans_index = ContextIndex(p.answer_infos, p.answer_emb)
        prec_logits, _ = self._support(p.answer_infos, p.answer_emb, ref_index)
        rec_logits, _ = self._support(infos, emb, ans_index)
        if not prec_logits or not rec_logits:
            return 0.0, False
        prec = sum(_sigmoid(z) for z in prec_logits) / len(prec_logits)
        rec = sum(_sigmoid(z) for z in rec_logits) / len(rec_logits)
        f1 = 2 * prec * rec / (prec + rec) if prec + rec > 0 else 0.0
        # Numbers, dates and names must agree both ways: a swapped figure is wrong
        # however similar the rest of the sentence is.
        ref_terms, ans_terms = key_terms(" ".join(sents)), key_terms(p.answer_text)
        # terms the question gives are no evidence
        q_stems = stem_set(p.question)
        ref_stems, ans_stems = ref_index.stems | q_stems, ans_index.stems | q_stems
        r_ok = [term_present(t, ans_stems) for t in ref_terms]
        a_ok = [term_present(t, ref_stems) for t in ans_terms]
        agree = (sum(r_ok) / len(r_ok) if r_ok else 1.0) * (sum(a_ok) / len(a_ok) if a_ok else 1.0)
        # a swapped figure: each side has a number the other lacks
        ref_nums = [t for t in ref_terms if t[:1].isdigit()]
        ans_nums = [t for t in ans_terms if t[:1].isdigit()]
        swapped = any(not term_present(t, ans_stems) for t in ref_nums) and any(
            not term_present(t, ref_stems) for t in ans_nums
        )
        return f1 * (0.25 + 0.75 * agree), swapped

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
