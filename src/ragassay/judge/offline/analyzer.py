"""The offline judge's evidence engine: sentence alignment + lexical checks + calibration.

`Analyzer.analyze_many` prepares a batch (prepare.py: every text split, keyed and
embedded in one call; the embedder de-duplicates and caches by text hash), then scores
each sample: relevance (relevance.py), the answer against its contexts (answer.py),
against its references (reference.py) and its relevance to the question, with the
logistic models in calibration.json.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragassay.embed import Embedder, get_embedder
from ragassay.text import KeyedSample
from ragassay.types import Sample

from .answer import faithfulness
from .calibration import Calibration, load_calibration
from .declines import DECLINE, is_noncommittal
from .evidence import Evidence
from .features import FAITHFULNESS_FEATURES, REFERENCE_FEATURES, SUPPORT_FEATURES
from .lexical import missing_as_written
from .prepare import Limits, Prepared, prepare_many
from .reference import NONCOMMITTAL_CAP, ReferenceScorer
from .relevance import addresses, answered, asked_stems, relevance_parts, score_relevance, shown

DEFAULT_EMBEDDER = "static"


class Analyzer:
    """Computes Evidence for samples; thread-safe after construction."""

    def __init__(
        self,
        embedder: Embedder | str = DEFAULT_EMBEDDER,
        calibration: Calibration | None = None,
        limits: Limits | None = None,
        relevance_embedder: Embedder | str | None = None,
        restatement_embedder: Embedder | str | None = None,
    ) -> None:
        """`relevance_embedder`, when another than `embedder`, embeds the question and
        each whole context document for relevance (relevance.py's whole-document form);
        "local:128" (the MiniLM transformer on each document's first 128 word pieces) is
        the slower, more accurate choice of `offline:accurate` (docs/judges.md). Without
        it relevance reads the sentences' embeddings and soft coverage (the default).
        `restatement_embedder` ("local:128" in `offline:accurate`) turns on restated.py's
        restatement floor; None (the default mode) leaves it off."""
        self.limits = limits if limits is not None else Limits()
        self.embedder = get_embedder(embedder) if isinstance(embedder, str) else embedder
        rel = embedder if relevance_embedder is None else relevance_embedder
        self.relevance_embedder = get_embedder(rel) if isinstance(rel, str) else rel
        # a dedicated relevance embedder reads whole documents (offline:accurate)
        self.whole_documents = self.relevance_embedder is not self.embedder
        self.restatement_embedder = (get_embedder(restatement_embedder) if isinstance(
            restatement_embedder, str) else restatement_embedder)
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
                faithfulness(p, ev, self.calibration, self.restatement_embedder)
                if not ev.abstains:  # a decline responds with nothing the contexts hold
                    ev.relevance, ev.context_relevance = answered(
                        parts, p.ctx.docs, ev.relevance, _shown(p, ev))
                if ev.noncommittal and not ev.abstains and DECLINE.search(p.answer_text) is None:
                    # a referral naming whom the contexts name ("For coaching enquiries, get
                    # in touch with Priya Nair") answers: a claim, checked, not a decline
                    ev.noncommittal = False
            else:
                ev.hallucinated_terms = missing_as_written(p.answer_text, p.ctx.pool, p.given)
        self.references.score(p, ev)
        if p.answer_infos:
            _answer_relevance(p, ev)
        return ev


def _answer_relevance(p: Prepared, ev: Evidence) -> None:
    """How well the answer addresses the question."""
    a_set = frozenset(x for i in p.answer_infos for x in i.stem_set)
    cos_qa = float(p.answer_full_emb @ p.question_emb)  # answer: its analysed part
    ar = addresses(cos_qa, asked_stems(p.question), a_set)
    ev.answer_relevance = min(ar, NONCOMMITTAL_CAP) if ev.noncommittal else ar


def _shown(p: Prepared, ev: Evidence) -> list[float]:
    """How relevant the answer's claims show each context sentence to be
    (relevance.shown): each claim with the context sentences it was judged against
    (`match_keys`)."""
    row = {k.key: j for j, k in enumerate(p.context_keyed)}
    claims = [(p.answer_infos[i], p.answer_emb[i], [row[k] for k in keys])
              for i, keys in enumerate(ev.match_keys) if keys]
    return shown(p.question, p.question_emb, p.ctx, claims, ev.used)
