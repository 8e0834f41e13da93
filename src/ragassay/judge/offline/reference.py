"""The answer against its references, and the contexts against the reference.

Reference match (is the answer correct: the calibrated short-form model, or for a long
reference both directions of support with figures that must agree), reference
attribution (is each reference sentence in the contexts: context recall) and chunk
usefulness (does each document support the reference, or the answer without one).
"""

from __future__ import annotations

import numpy as np

from ragassay.embed import Embedder
from ragassay.text import split_sentences, tokens

from .answer import missing_flags, sigmoid, support_logits
from .calibration import Calibration
from .declines import is_noncommittal
from .evidence import Evidence
from .features import copied, reference_features, rule_logits
from .lexical import TermPool, key_terms
from .prepare import MAX_SENTENCE_CHARS, Limits, Prepared, cut_references
from .sentences import ContextIndex, SentenceInfo, sentence_info

LONG_REFERENCE_TOKENS = 8  # references this long are compared claim by claim
# Hand-set weights and caps: no human-labelled set measures what they score (the fitted
# model is the reference-match one, calibration.json).
NONCOMMITTAL_CAP = 0.1  # an abstaining answer's relevance and reference match (1cc4778)
SWAPPED_FIGURE_DISCOUNT = 0.25
"""A long reference whose figures the answer swaps keeps this share of its short-form
match (9ef4899: the padding-proof reference match)."""
LONG_FORM_FLOOR = 0.25
"""Long-form match = F1 x (floor + (1 - floor) x share of key terms agreeing both ways);
a heuristic (648cd6d): EVOUNA's gold answers are short, there is nothing to fit it on."""


def reference_rows(p: Prepared, limits: Limits) -> list[list[float]]:
    """The reference-match model's rows: the answer against each acceptable reference
    (each cut to a quarter of the text budget), as the analyzer reads them."""
    refs = cut_references(p.sample, limits)
    if not refs or not p.answer_infos:
        return []
    first = p.answer_keyed[0].text
    cos = p.references_emb @ p.answer_full_emb
    noncommittal = is_noncommittal(p.answer_text)
    return [reference_features(p.answer_text, first, r, p.question, float(c), noncommittal)
            for r, c in zip(refs, cos, strict=True)]


class ReferenceScorer:
    """Reference match, reference attribution and chunk usefulness of prepared samples."""

    def __init__(self, calibration: Calibration, embedder: Embedder, limits: Limits) -> None:
        self.calibration = calibration
        self.embedder = embedder
        self.limits = limits

    def score(self, p: Prepared, ev: Evidence) -> None:
        """Attribution to the contexts, chunk usefulness, answer correctness."""
        has_ctx = len(p.ctx) > 0
        target_infos, target_emb = (
            (p.reference_infos, p.reference_emb)
            if p.reference_infos
            else (p.answer_infos, p.answer_emb)
        )
        if has_ctx and p.reference_infos:
            # the reference is people's answer: no claim-level alignment (what it costs is
            # spent on the answer's claims), the copy and missing-term rules only
            logits, found = support_logits(self.calibration, p.reference_infos,
                                           p.reference_emb, p.ctx, aligned=False)
            logits = rule_logits(
                logits,
                [copied(i, p.ctx) for i in p.reference_infos],
                [m.contradicts for m in found],
                missing_flags(p.reference_sentences, p, found),
            )
            ev.reference_attribution = [sigmoid(z) for z in logits]
        if has_ctx and target_infos:
            ev.chunk_usefulness = self._chunk_usefulness(p, target_infos, target_emb)
        rows = reference_rows(p, self.limits)
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
        prec_logits, _ = support_logits(self.calibration, p.answer_infos, p.answer_emb,
                                        ref_index, aligned=False)
        rec_logits, _ = support_logits(self.calibration, infos, emb, ans_index, aligned=False)
        if not prec_logits or not rec_logits:
            return 0.0, False
        prec = sum(sigmoid(z) for z in prec_logits) / len(prec_logits)
        rec = sum(sigmoid(z) for z in rec_logits) / len(rec_logits)
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
            logits, _ = support_logits(self.calibration, infos, emb, p.ctx, d, aligned=False)
            out[d] = sigmoid(max(logits)) if logits else 0.0
        return out
