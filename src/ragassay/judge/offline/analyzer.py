"""The offline judge's evidence engine: sentence alignment + lexical checks + calibration.

`Analyzer.analyze_many` prepares a batch (prepare.py: every text split, keyed and
embedded in one call; the embedder de-duplicates and caches by text hash), then scores
each sample: relevance (relevance.py), the answer against its contexts (answer.py),
against its references (reference.py) and its relevance to the question, with the
logistic models in calibration.json.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ragassay.embed import Embedder, get_embedder
from ragassay.text import KeyedSample, tokens
from ragassay.types import Sample

from .answer import faithfulness
from .calibration import Calibration, load_calibration
from .declines import is_noncommittal
from .evidence import Evidence
from .features import FAITHFULNESS_FEATURES, REFERENCE_FEATURES, SUPPORT_FEATURES
from .lexical import STOPWORDS, missing_as_written, stem
from .prepare import Limits, Prepared, prepare_many
from .reference import NONCOMMITTAL_CAP, ReferenceScorer
from .relevance import relevance_parts, score_relevance

DEFAULT_EMBEDDER = "static"
ANSWER_RELEVANCE_WEIGHTS = (-3.0, 6.0, 2.0)
"""Answer relevance: sigmoid(bias + w1 x cos(question, answer) + w2 x share of the
question's content stems the answer has); by hand (1cc4778)."""


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


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
        self.references = ReferenceScorer(self.calibration, self.embedder, self.limits)

    def prepare_many(self, samples: Sequence[KeyedSample | Sample]) -> list[Prepared]:
        """Split, key and embed every text of the batch (prepare.prepare_many; shared
        with the fit scripts)."""
        rel = self.relevance_embedder if self.whole_documents else None
        return prepare_many(samples, self.limits, self.embedder, rel)

    def analyze(self, sample: KeyedSample | Sample) -> Evidence:
        return self.analyze_many([sample])[0]

    def analyze_many(self, samples: Sequence[KeyedSample | Sample]) -> list[Evidence]:
        return [self.score(p) for p in self.prepare_many(samples)]

    def score(self, p: Prepared) -> Evidence:
        ev = Evidence(
            answer_sentences=p.answer_keyed,
            context_sentences=p.context_keyed,
            reference_sentences=p.reference_sentences,
            truncated=p.truncated,
        )
        ev.noncommittal = is_noncommittal(p.answer_text)
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
                faithfulness(p, ev, self.calibration)
            else:
                ev.hallucinated_terms = missing_as_written(p.answer_text, p.ctx.pool, p.given)
        self.references.score(p, ev)
        if p.answer_infos:
            _answer_relevance(p, ev)
        return ev


def _answer_relevance(p: Prepared, ev: Evidence) -> None:
    """How well the answer addresses the question."""
    q_stems = [stem(t) for t in tokens(p.question) if t not in STOPWORDS]
    a_set = frozenset(x for i in p.answer_infos for x in i.stem_set)
    cover_q = sum(1 for x in q_stems if x in a_set) / len(q_stems) if q_stems else 0.0
    cos_qa = float(p.answer_full_emb @ p.question_emb)  # answer: its analysed part
    bias, w_cos, w_cover = ANSWER_RELEVANCE_WEIGHTS
    ar = _sigmoid(bias + w_cos * cos_qa + w_cover * cover_q)
    ev.answer_relevance = min(ar, NONCOMMITTAL_CAP) if ev.noncommittal else ar
