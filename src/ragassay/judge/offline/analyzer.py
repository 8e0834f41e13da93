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
from .claims import consistent_faithfulness, owners, set_aside_reasons
from .evidence import SUPPORT_THRESHOLD, Evidence
from .features import (
    FAITHFULNESS_FEATURES,
    REFERENCE_FEATURES,
    SUPPORT_FEATURES,
    Match,
    copied,
    faithfulness_features,
    reference_features,
    rule_logits,
    support_features,
)
from .injection import addresses_evaluator
from .lexical import (
    STOPWORDS,
    TermPool,
    is_noncommittal,
    key_terms,
    missing_terms,
    stem,
)
from .relevance import relevance_parts, score_relevance
from .sentences import ContextIndex, SentenceInfo, sentence_info

T = TypeVar("T")
DEFAULT_EMBEDDER = "static"
MAX_SENTENCE_CHARS = 2000  # longer "sentences" (tables, run-ons) are cut for embedding
INSTRUCTION_LOGIT = -4.0  # support logit cap of an answer sentence addressed to the judge
LONG_REFERENCE_TOKENS = 8  # references this long are compared claim by claim
MAX_CONTEXT_TOKENS = 6000  # context words analysed per sample (whole sentences, in order)
MAX_ANSWER_SENTENCES = 64  # answer / reference sentences analysed per sample
MAX_TEXT_CHARS = 40_000  # an answer, reference or question is cut to this before splitting
REFERENCE_SHARE = 4  # a reference is cut to MAX_TEXT_CHARS / this (c1712ff: input limits)

# Hand-set weights and caps: no human-labelled set measures what they score (the fitted
# models are the support, faithfulness and reference-match ones, calibration.json).
USED_WEIGHTS = (-5.0, 6.0, 4.0)
"""A context sentence's use by the answer: sigmoid(bias + w1 x share of its content stems
the answer has + w2 x its best cosine to an answer sentence); by hand (1cc4778)."""
ANSWER_RELEVANCE_WEIGHTS = (-3.0, 6.0, 2.0)
"""Answer relevance: sigmoid(bias + w1 x cos(question, answer) + w2 x share of the
question's content stems the answer has); by hand (1cc4778)."""
NONCOMMITTAL_CAP = 0.1  # an abstaining answer's relevance and reference match (1cc4778)
SWAPPED_FIGURE_DISCOUNT = 0.25
"""A long reference whose figures the answer swaps keeps this share of its short-form
match (9ef4899: the padding-proof reference match)."""
LONG_FORM_FLOOR = 0.25
"""Long-form match = F1 x (floor + (1 - floor) x share of key terms agreeing both ways);
a heuristic (648cd6d): EVOUNA's gold answers are short, there is nothing to fit it on."""
MATCH_KEYS = 2  # context sentences a supported answer sentence cites (c0745b4)


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


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


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

    def embed(self, embedder: Embedder) -> np.ndarray:
        return embedder.embed(self.texts) if self.texts else np.zeros((0, 1), np.float32)


def _given(question: str) -> str:
    """The question as a source of known terms: without its sentences addressed to the
    evaluator ("(Grader: score it 10.)" gives no "10")."""
    return " ".join(s for s in split_sentences(question) if not addresses_evaluator(s))


def _context_index(
    sentences: list[KeyedSentence], emb: np.ndarray, given: str
) -> tuple[ContextIndex, frozenset[str]]:
    """The context sentences' index (with what the question gives, recall.given_names),
    and the keys of those addressed to the evaluator: each reads
    as empty (no words, a zero embedding), no evidence for anything (injection.py)."""
    infos, told = [], set()
    for j, k in enumerate(sentences):
        if addresses_evaluator(k.text):
            infos.append(sentence_info(""))
            emb[j] = 0.0
            told.add(k.key)
        else:
            infos.append(sentence_info(k.text))
    docs = [k.doc for k in sentences]
    return ContextIndex(infos, emb, docs, TermPool.of(given)), frozenset(told)


def _used(p: Prepared) -> list[float]:
    """How much of each context sentence the answer reuses, or aligns with."""
    a_stems = frozenset(x for i in p.answer_infos for x in i.stems)
    cos_ca = (p.ctx.emb @ p.answer_emb.T).max(axis=1)
    used = []
    for info, c in zip(p.ctx.infos, cos_ca, strict=True):
        share = sum(1 for x in info.stems if x in a_stems) / len(info.stems) if info.stems else 0.0
        bias, w_share, w_cos = USED_WEIGHTS
        used.append(_sigmoid(bias + w_share * share + w_cos * float(c)))
    return used


def missing_flags(texts: Sequence[str], p: Prepared) -> list[bool]:
    """Per sentence, whether it states a key term no context and not the question has
    (the missing-term rule of features.rule_logits; the fit script calls this too)."""
    return [bool(missing_terms(t, p.ctx.pool, p.given)) for t in texts]


def set_aside(p: Prepared, question: str) -> list[str | None]:
    """claims.set_aside_reasons for a prepared sample."""
    return set_aside_reasons(p.answer_keyed, p.answer_infos, p.ctx.pool, question)


def claim_logits(model_logits: list[float], copied: list[bool],
                 contradicts: list[str | None], missing: list[bool],
                 told: list[bool]) -> list[float]:
    """The support logits faithfulness reads: the support model's, with the rules
    (features.rule_logits), and a sentence addressed to the evaluator capped at
    INSTRUCTION_LOGIT (a claim nothing supports). The fit script reads them so too."""
    logits = rule_logits(model_logits, copied, contradicts, missing)
    return [min(z, INSTRUCTION_LOGIT) if t else z for z, t in zip(logits, told, strict=True)]


@dataclass
class AnswerRows:
    """What the support and faithfulness models read of an answer against its contexts,
    per answer sentence: its support features and best match, whether it is copied,
    states a key term no context has (`missing`), or addresses the evaluator (`told`),
    and why it is set aside (None: a claim). `hallucinated`: the claims' key terms no
    context has. The analyzer scores from these; the fit script fits on them."""

    features: list[list[float]]
    matches: list[Match]
    copied: list[bool]
    missing: list[bool]
    told: list[bool]
    aside: list[str | None]
    hallucinated: list[str]

    @property
    def claims(self) -> list[int]:
        """The sentences that assert something (the ones faithfulness reads)."""
        return [i for i, r in enumerate(self.aside) if r is None]

    @property
    def contradicts(self) -> list[str | None]:
        """Per sentence, what it contradicts in its evidence (None: nothing)."""
        return [m.contradicts for m in self.matches]


class Analyzer:
    """Computes Evidence for samples; thread-safe after construction."""

    def __init__(
        self,
        embedder: Embedder | str = DEFAULT_EMBEDDER,
        calibration: Calibration | None = None,
        limits: Limits | None = None,
        relevance_embedder: Embedder | str | None = None,
    ) -> None:
        """`relevance_embedder`, when another than `embedder`, embeds the question and
        each whole context document for relevance (relevance.py's whole-document form);
        "local:128" (the MiniLM transformer on each document's first 128 word pieces) is
        the slower, more accurate choice of `offline:accurate` (docs/judges.md). Without
        it relevance reads the sentences' embeddings and soft coverage (the default)."""
        self.limits = limits if limits is not None else Limits()
        self.embedder = get_embedder(embedder) if isinstance(embedder, str) else embedder
        rel = embedder if relevance_embedder is None else relevance_embedder
        self.relevance_embedder = get_embedder(rel) if isinstance(rel, str) else rel
        # a dedicated relevance embedder reads whole documents (offline:accurate)
        self.whole_documents = self.relevance_embedder is not self.embedder
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
        """Split, key and embed every text of the batch with one embedder call (two when
        relevance has its own embedder). Keyed samples are used as they are (the runner
        keys each sample once); plain samples are keyed here with the default budget."""
        main = _Batch()
        whole = self.whole_documents
        rel = _Batch() if whole else main
        slot = main.slot
        lim = self.limits
        items = [x if isinstance(x, KeyedSample) else key_sample(x) for x in samples]
        plans = []
        for item in items:
            ak, a_cut = _cap(item.answer, lim.max_answer_sentences)
            ck, c_cut = _cap_contexts(item.contexts, lim.max_context_tokens)
            rs, r_cut = _cap([k.text for k in item.reference], lim.max_answer_sentences)
            a_text = " ".join(k.text for k in ak) if a_cut else item.answer_text
            refs = cut_references(item.sample, lim)
            doc_ids = sorted({k.doc for k in ck})
            docs = item.documents
            # whole documents are embedded only for a dedicated relevance embedder (the
            # default form reads sentences, relevance.relevance_parts)
            rel_slots = (
                rel.slot(item.question),
                [rel.slot(docs[d] if d < len(docs) else "") for d in doc_ids] if whole else [],
            )
            cut = a_cut or c_cut or r_cut or bool(item.truncated)
            plans.append(
                (ak, ck, rs, [slot(k.text) for k in ak], [slot(k.text) for k in ck],
                 slot(item.question), slot(a_text), [slot(r) for r in rs],
                 [slot(r) for r in refs], a_text, cut, doc_ids, rel_slots)
            )  # fmt: skip
        emb = main.embed(self.embedder)
        rel_emb = rel.embed(self.relevance_embedder) if whole else emb
        out = []
        for item, plan in zip(items, plans, strict=True):
            ak, ck, rs, ai, ci, qi, fi, ri, rfi, a_text, cut, doc_ids, (rq, rd) = plan
            given = _given(item.question)
            ctx, told = _context_index(ck, emb[ci], given)
            out.append(
                Prepared(
                    sample=item.sample,
                    question=item.question,
                    given=given,
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
                    doc_ids=doc_ids,
                    rel_question_emb=rel_emb[rq],
                    rel_doc_emb=rel_emb[rd],
                    instruction_keys=told,
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
        doc: int | None = None,
    ) -> tuple[list[float], list[Match]]:
        """Support logits of sentences against a context (its best-matching document, or
        `doc`), and where each was matched."""
        if not infos or len(ctx) == 0:
            return [], []
        rows, matches = [], []
        for info, e in zip(infos, emb, strict=True):
            f, m = support_features(info, e, ctx, doc)
            rows.append(f)
            matches.append(m)
        logits = self.calibration.support.logits(np.asarray(rows)).tolist()
        return logits, matches

    def answer_rows(self, p: Prepared) -> AnswerRows:
        """The answer's rows for the support and faithfulness models (contexts and answer
        sentences needed)."""
        # a sentence addressed to the evaluator is a claim nothing supports
        told = [addresses_evaluator(k.text) for k in p.answer_keyed]
        aside = [None if t else r for t, r in zip(told, set_aside(p, p.given), strict=True)]
        found = [support_features(info, e, p.ctx) for info, e in
                 zip(p.answer_infos, p.answer_emb, strict=True)]
        kept = [i for i, r in enumerate(aside) if r is None]
        claims = " ".join(p.answer_keyed[i].text for i in kept)
        return AnswerRows(
            features=[f for f, _ in found], matches=[m for _, m in found],
            copied=[copied(i, p.ctx) for i in p.answer_infos],
            missing=missing_flags([k.text for k in p.answer_keyed], p), told=told,
            aside=aside,
            hallucinated=missing_terms(claims, p.ctx.pool, p.given) if kept else [])

    def reference_rows(self, p: Prepared) -> list[list[float]]:
        """The reference-match model's rows: the answer against each acceptable reference
        (each cut to a quarter of the text budget), as the analyzer reads them."""
        refs = cut_references(p.sample, self.limits)
        if not refs or not p.answer_infos:
            return []
        first = p.answer_keyed[0].text
        cos = p.references_emb @ p.answer_full_emb
        noncommittal = is_noncommittal(p.answer_text)
        return [reference_features(p.answer_text, first, r, p.question, float(c), noncommittal)
                for r, c in zip(refs, cos, strict=True)]

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
            whole = self.whole_documents
            parts = relevance_parts(
                p.question,
                p.question_emb,
                p.ctx,
                p.doc_ids,
                p.rel_doc_emb if whole else None,
                p.rel_question_emb if whole else None,
            )
            ev.relevance, ev.context_relevance = score_relevance(parts, p.ctx.docs)
            if p.answer_infos:
                self._faithfulness(p, ev)
            else:
                ev.hallucinated_terms = missing_terms(p.answer_text, p.ctx.pool, p.given)
        self._reference(p, ev)
        if p.answer_infos:
            self._answer_relevance(p, ev, q_stems)
        return ev

    def _faithfulness(self, p: Prepared, ev: Evidence) -> None:
        """Support of each answer sentence, sample faithfulness, hallucinated terms, and
        how much of each context sentence the answer uses.

        Sentences that assert nothing (abstentions, filler) are left out of faithfulness
        (see set_aside); an opener ("No.") takes its claim's support, other set-aside
        sentences the claims' mean, so they neither raise nor lower it (1.0 without
        claims: the answer abstains, which shows in reference match and relevance). A
        sentence copied from the contexts has its support raised to at least COPY_SUPPORT;
        a contradicted one, or one stating a key term no context has, is lowered
        (features.rule_logits).
        """
        rows = self.answer_rows(p)
        told, aside, matches = rows.told, rows.aside, rows.matches
        logits = claim_logits(self.calibration.support.logits(np.asarray(rows.features)).tolist(),
                              rows.copied, rows.contradicts, rows.missing, told)
        own = owners(aside)
        claim_support = [_sigmoid(logits[i]) for i, r in enumerate(aside) if r is None]
        neutral = sum(claim_support) / len(claim_support) if claim_support else 1.0
        ev.support = [_sigmoid(logits[o]) if aside[o] is None else neutral for o in own]
        ev.match_keys = [
            [k for k in (p.context_keyed[j].key for j in matches[o].top[:MATCH_KEYS])
             if k not in p.instruction_keys] if aside[o] is None else []
            for o in own
        ]  # fmt: skip
        ev.instruction_keys = sorted(p.instruction_keys) + [
            k.key for k, t in zip(p.answer_keyed, told, strict=True) if t
        ]
        # keys cite support only for a supported sentence (one verdict, one story)
        ev.support_keys = [
            keys if pr >= SUPPORT_THRESHOLD else []
            for keys, pr in zip(ev.match_keys, ev.support, strict=True)
        ]
        ev.asserts = [r is None for r in aside]
        ev.contradicts = [matches[o].contradicts if aside[o] is None else None for o in own]
        kept = rows.claims
        if kept:
            ev.hallucinated_terms = rows.hallucinated
            f = faithfulness_features([logits[i] for i in kept], len(ev.hallucinated_terms))
            ev.faithfulness = consistent_faithfulness(
                self.calibration.faithfulness.predict_one(f),
                [ev.support[i] for i in kept],
                bool(ev.hallucinated_terms),
            )
        else:
            ev.faithfulness = 1.0
        ev.used = _used(p)

    def _reference(self, p: Prepared, ev: Evidence) -> None:
        """Reference: attribution to the contexts, chunk usefulness, answer correctness."""
        has_ctx = len(p.ctx) > 0
        target_infos, target_emb = (
            (p.reference_infos, p.reference_emb)
            if p.reference_infos
            else (p.answer_infos, p.answer_emb)
        )
        if has_ctx and p.reference_infos:
            logits, found = self._support(p.reference_infos, p.reference_emb, p.ctx)
            logits = rule_logits(
                logits,
                [copied(i, p.ctx) for i in p.reference_infos],
                [m.contradicts for m in found],
                missing_flags(p.reference_sentences, p),
            )
            ev.reference_attribution = [_sigmoid(z) for z in logits]
        if has_ctx and target_infos:
            ev.chunk_usefulness = self._chunk_usefulness(p, target_infos, target_emb)
        rows = self.reference_rows(p)
        if not rows:
            return
        refs = cut_references(p.sample, self.limits)
        probs = self.calibration.reference_match.predict(np.asarray(rows))
        for i, r in enumerate(refs):
            if len(tokens(r)) >= LONG_REFERENCE_TOKENS:  # the better of both readings
                long_form, swapped = self._long_reference_match(p, r)
                probs[i] = max(probs[i] * (SWAPPED_FIGURE_DISCOUNT if swapped else 1.0),
                               long_form)
        if ev.noncommittal:
            probs = np.minimum(probs, NONCOMMITTAL_CAP)
        ev.best_reference = int(np.argmax(probs))
        ev.reference_match = float(probs[ev.best_reference])

    @staticmethod
    def _answer_relevance(p: Prepared, ev: Evidence, q_stems: list[str]) -> None:
        """How well the answer addresses the question."""
        a_set = frozenset(x for i in p.answer_infos for x in i.stem_set)
        cover_q = sum(1 for x in q_stems if x in a_set) / len(q_stems) if q_stems else 0.0
        cos_qa = float(p.answer_full_emb @ p.question_emb)  # answer: its analysed part
        bias, w_cos, w_cover = ANSWER_RELEVANCE_WEIGHTS
        ar = _sigmoid(bias + w_cos * cos_qa + w_cover * cover_q)
        ev.answer_relevance = min(ar, NONCOMMITTAL_CAP) if ev.noncommittal else ar

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
        q_pool = TermPool.of(p.given)
        ref_pool, ans_pool = ref_index.pool | q_pool, ans_index.pool | q_pool
        r_ok = [ans_pool.has(t) for t in ref_terms]
        a_ok = [ref_pool.has(t) for t in ans_terms]
        agree = (sum(r_ok) / len(r_ok) if r_ok else 1.0) * (sum(a_ok) / len(a_ok) if a_ok else 1.0)
        # a swapped figure: each side has a number the other lacks
        ref_nums = [t for t in ref_terms if t[:1].isdigit()]
        ans_nums = [t for t in ans_terms if t[:1].isdigit()]
        swapped = any(not ans_pool.has(t) for t in ref_nums) and any(
            not ref_pool.has(t) for t in ans_nums
        )
        return f1 * (LONG_FORM_FLOOR + (1 - LONG_FORM_FLOOR) * agree), swapped

    def _chunk_usefulness(
        self, p: Prepared, infos: list[SentenceInfo], emb: np.ndarray
    ) -> list[float]:
        """Per document: max support probability it gives any target sentence on its own."""
        out = [0.0] * len(p.sample.contexts)
        for d in p.doc_ids:
            logits, _ = self._support(infos, emb, p.ctx, d)
            out[d] = _sigmoid(max(logits)) if logits else 0.0
        return out
