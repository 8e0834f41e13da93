"""Choose the default mode's relevance form on two choice sets; then measure the chosen
one, and only it, on TREC DL 2020's graded judgments.

The offline judge scores a document's relevance to a question from a few numbers: the
cosine of their static embeddings, the question's inverse-frequency weighted coverage
(judge/offline/relevance.py), and variants of each. Which mix is a choice; it is made
here on sets that are not the graded-relevance set it is measured on:
- A: Factcheck-GPT's 3,305 claim-passage pairs, the claim as the question and the
  stance `irrelevant` as the negative class (AUROC);
- B: Factcheck-GPT's questions against the passages retrieved for their answers'
  claims (convert.py's `factcheck_gpt_questions`, 2,412 pairs of 92 real questions;
  grade 0 irrelevant, 1 partially supports a claim, 2 supports or refutes one;
  Spearman).
The chosen form has the best mean rank over A and B (ties: the better on B, then the
earlier in FORMS). TREC DL 2020 (Spearman with the 0-3 grade) is scored for the chosen
form alone, so the TREC figure is an unseen-set figure. No label of TREC enters the
choice. (Candour: choice set B, the six forms marked below and the mean-rank rule were
added on 2026-12-02, after the TREC figure of the form shipped until then had been seen;
docs/judges.md says so.)

    .venv/bin/python scripts/devsets/convert.py --sets factcheck_gpt_questions
    .venv/bin/python scripts/devsets/relevance_forms.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from common import load_rows
from scipy.stats import rankdata, spearmanr

from ragassay.embed import StaticEmbedder
from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.analyzer import Prepared
from ragassay.judge.offline.relevance import QuestionTerms, SoftCoverage, reading_rows
from ragassay.stats import auroc
from ragassay.types import Sample

T = TypeVar("T")


@dataclass(frozen=True)
class Parts:
    """The candidate inputs of one question-document pair."""

    cos_doc: float  # question vs the whole document's embedding
    cos_best: float  # question vs the document's best-matching sentence (of those read:
    # relevance.reading_rows leaves out a sentence that only echoes the question)
    coverage: float  # weighted share of the question's content words in the document
    coverage_tf: float  # ... each word's count saturated as BM25 does (k1 = 1.2, no b)
    soft: float  # ... a missing word counting its static vector's cosine to the nearest
    # document word (relevance.SoftCoverage, the default form's)
    cov_pair: float  # weighted coverage of the best two consecutive sentences (proximity)


ZERO = Parts(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def pair_coverage(terms: QuestionTerms, p: Prepared, doc: int) -> float:
    """The question's weighted coverage by the best window of two consecutive sentences."""
    rows = p.ctx.rows(doc)
    sets = [p.ctx.infos[j].stem_set for j in rows]
    windows = [sets[i] | sets[i + 1] for i in range(len(sets) - 1)] or sets
    return max((terms.coverage(w) for w in windows), default=0.0)


def prepared(an: Analyzer, pairs: list[tuple[str, str]]) -> Iterator[Prepared | None]:
    """Each (question, document) pair through `an`, in batches; None for a pair with no
    document sentence to read."""
    for i in range(0, len(pairs), 256):
        chunk = [
            Sample(id=str(i + j), question=q, contexts=[d], answer="")
            for j, (q, d) in enumerate(pairs[i : i + 256])
        ]
        for p in an.prepare_many(chunk):
            yield p if p.doc_ids and len(p.ctx) else None


def parts(pairs: list[tuple[str, str]]) -> list[Parts]:
    """The candidate inputs of each (question, document) pair, through the Analyzer."""
    # a relevance embedder of its own (another instance of the static table) makes the
    # Analyzer embed whole documents too, for the cos_doc forms
    out: list[Parts] = []
    for p in prepared(Analyzer(relevance_embedder=StaticEmbedder()), pairs):
        if p is None:
            out.append(ZERO)
            continue
        doc = p.doc_ids[0]
        terms = QuestionTerms.of(p.question)
        counts = Counter(x for j in p.ctx.rows(doc) for x in p.ctx.infos[j].stems)
        rows = reading_rows(p.ctx, doc, terms)  # the sentences cos_best reads
        out.append(
            Parts(
                float(p.rel_doc_emb[0] @ p.rel_question_emb),
                float((p.ctx.emb[rows] @ p.question_emb).max()) if rows else 0.0,
                terms.coverage(p.ctx.doc_view(doc).stems),
                saturated(terms, counts),
                SoftCoverage(terms, p.ctx).of(p.ctx.rows(doc), p.ctx.doc_view(doc).stems),
                pair_coverage(terms, p, doc),
            )
        )
    return out


def saturated(terms: QuestionTerms, counts: Counter[str], k1: float = 1.2) -> float:
    """Weighted coverage with BM25's term-frequency saturation, in [0, 1]."""
    total = sum(terms.weights) * (k1 + 1.0)
    if total <= 0:
        return 0.0
    got = sum(
        w * counts[s] * (k1 + 1.0) / (counts[s] + k1)
        for s, w in zip(terms.stems, terms.weights, strict=True)
    )
    return got / total


FORMS: dict[str, Callable[[Parts], float]] = {
    "0.5 cos_doc + 0.5 coverage (shipped)": lambda x: 0.5 * x.cos_doc + 0.5 * x.coverage,
    "0.25 cos_doc + 0.75 coverage": lambda x: 0.25 * x.cos_doc + 0.75 * x.coverage,
    "0.75 cos_doc + 0.25 coverage": lambda x: 0.75 * x.cos_doc + 0.25 * x.coverage,
    "cos_doc": lambda x: x.cos_doc,
    "coverage": lambda x: x.coverage,
    "0.5 cos_best + 0.5 coverage": lambda x: 0.5 * x.cos_best + 0.5 * x.coverage,
    "(cos_doc + cos_best + coverage) / 3": lambda x: (x.cos_doc + x.cos_best + x.coverage) / 3,
    "coverage_tf": lambda x: x.coverage_tf,
    "0.5 cos_doc + 0.5 coverage_tf": lambda x: 0.5 * x.cos_doc + 0.5 * x.coverage_tf,
    "0.5 cos_best + 0.5 coverage_tf": lambda x: 0.5 * x.cos_best + 0.5 * x.coverage_tf,
    # added 2026-12-02 (seventh session), with choice set B
    "soft": lambda x: x.soft,
    "0.5 cos_doc + 0.5 soft": lambda x: 0.5 * x.cos_doc + 0.5 * x.soft,
    "0.5 cos_best + 0.5 soft": lambda x: 0.5 * x.cos_best + 0.5 * x.soft,
    "cov_pair": lambda x: x.cov_pair,
    "0.5 cos_doc + 0.5 cov_pair": lambda x: 0.5 * x.cos_doc + 0.5 * x.cov_pair,
    "0.5 cos_doc + 0.25 coverage + 0.25 cov_pair": lambda x: 0.5 * x.cos_doc
    + 0.25 * x.coverage
    + 0.25 * x.cov_pair,
}


def balanced_cut(scores: list[float], positive: list[bool]) -> float:
    """The score above which lie as many positives (share) as negatives lie below it: the
    form's midpoint, P(relevant) = 0.5 there (relevance.SENTENCE_FORM_MIDPOINT)."""
    x = np.asarray(scores)
    y = np.asarray(positive)
    cuts = np.unique(x)
    tpr = np.asarray([(x[y] >= c).mean() for c in cuts])
    tnr = np.asarray([(x[~y] < c).mean() for c in cuts])
    return float(cuts[int(np.argmin(np.abs(tpr - tnr)))])


def choose_by_rank(names: list[str], a: dict[str, float], b: dict[str, float]) -> str:
    """The name with the best mean rank over the two choice sets (ties: the better on B,
    then the earlier in `names`)."""
    ra = rankdata([-a[n] for n in names], method="min")
    rb = rankdata([-b[n] for n in names], method="min")
    key = {n: ((ra[i] + rb[i]) / 2, -b[n], i) for i, n in enumerate(names)}
    return min(names, key=lambda n: key[n])


def choice_sets(
    read: Callable[[list[tuple[str, str]]], list[T]],
) -> tuple[list[T], list[bool], list[T], list[int]]:
    """A's pairs read by `read` and their relevant flags; B's pairs and their grades."""
    rows = load_rows("factcheck_gpt_stance")
    sel = read([(r["answer"], r["contexts"][0]) for r in rows])
    relevant = [r["labels"]["stance"] != "irrelevant" for r in rows]
    qrows = load_rows("factcheck_gpt_questions")
    qsel = read([(r["question"], r["contexts"][0]) for r in qrows])
    grade = [r["labels"]["relevance"] for r in qrows]
    print(
        f"choice sets: A Factcheck-GPT claim-passage pairs (n={len(rows)}, AUROC relevant "
        f"vs irrelevant); B Factcheck-GPT question-passage pairs (n={len(qrows)}, Spearman "
        "with the 0-2 grade)"
    )
    return sel, relevant, qsel, grade


def trec(read: Callable[[list[tuple[str, str]]], list[T]]) -> tuple[list[T], list[int]]:
    """TREC DL 2020's pairs read by `read`, and their 0-3 grades (measured, never chosen on)."""
    rows = load_rows("trec_dl2020")
    return read([(r["question"], r["contexts"][0]) for r in rows]), [
        r["labels"]["relevance"] for r in rows
    ]


def main() -> None:
    sel, relevant, qsel, grade = choice_sets(parts)
    a = {n: auroc([f(x) for x in sel], relevant) or 0.0 for n, f in FORMS.items()}
    b = {n: float(spearmanr([f(x) for x in qsel], grade).statistic) for n, f in FORMS.items()}
    print("     A       B     form")
    for n in FORMS:
        print(f"  {a[n]:.4f}  {b[n]:.4f}  {n}")
    best = choose_by_rank(list(FORMS), a, b)
    cut = balanced_cut([FORMS[best](x) for x in sel], relevant)
    print(f"chosen: {best}; its balanced cut on A (the midpoint): {cut:.3f}")
    got, tgrade = trec(parts)
    rho = spearmanr([FORMS[best](x) for x in got], tgrade).statistic
    print(f"measured on TREC DL 2020 (n={len(got)}), chosen form only: Spearman {rho:.4f}")


if __name__ == "__main__":
    main()
