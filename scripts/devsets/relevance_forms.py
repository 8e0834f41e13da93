"""Choose the default mode's relevance form on Factcheck-GPT's claim-passage pairs; then
measure the chosen one, and only it, on TREC DL 2020's graded judgments.

The offline judge scores a document's relevance to a question from two numbers, the
cosine of their static embeddings and the question's inverse-frequency weighted
coverage (judge/offline/relevance.py). Which mix of the two, and which cosine, is a
choice; it is made here on a set that is not the graded-relevance set it is measured
on: Factcheck-GPT's 3,305 claim-passage pairs, the claim as the question and the
stance `irrelevant` as the negative class (AUROC). TREC DL 2020 (Spearman with the
0-3 grade) is scored for the chosen form alone, so the TREC figure is an unseen-set
figure. No label of TREC enters the choice.

    .venv/bin/python scripts/devsets/relevance_forms.py
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from common import load_rows
from scipy.stats import spearmanr

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.relevance import QuestionTerms
from ragassay.stats import auroc
from ragassay.types import Sample


@dataclass(frozen=True)
class Parts:
    """The candidate inputs of one question-document pair."""

    cos_doc: float  # question vs the whole document's embedding
    cos_best: float  # question vs the document's best-matching sentence
    coverage: float  # weighted share of the question's content words in the document
    coverage_tf: float  # ... each word's count saturated as BM25 does (k1 = 1.2, no b)


def parts(pairs: list[tuple[str, str]]) -> list[Parts]:
    """The candidate inputs of each (question, document) pair, through the Analyzer."""
    an = Analyzer()
    out: list[Parts] = []
    for i in range(0, len(pairs), 256):
        chunk = [
            Sample(id=str(i + j), question=q, contexts=[d], answer="")
            for j, (q, d) in enumerate(pairs[i : i + 256])
        ]
        for p in an.prepare_many(chunk):
            if not p.doc_ids or len(p.ctx) == 0:
                out.append(Parts(0.0, 0.0, 0.0, 0.0))
                continue
            terms = QuestionTerms.of(p.question)
            counts = Counter(x for j in p.ctx.rows(p.doc_ids[0]) for x in p.ctx.infos[j].stems)
            out.append(
                Parts(
                    float(p.rel_doc_emb[0] @ p.rel_question_emb),
                    float((p.ctx.emb @ p.question_emb).max()),
                    terms.coverage(p.ctx.doc_view(p.doc_ids[0]).stems),
                    saturated(terms, counts),
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
}


def main() -> None:
    rows = load_rows("factcheck_gpt_stance")
    sel = parts([(r["answer"], r["contexts"][0]) for r in rows])
    relevant = [r["labels"]["stance"] != "irrelevant" for r in rows]
    print(
        f"choice set: Factcheck-GPT claim-passage pairs, n={len(rows)}, AUROC relevant "
        "vs irrelevant"
    )
    scores = {}
    for name, f in FORMS.items():
        scores[name] = auroc([f(x) for x in sel], relevant) or 0.0
        print(f"  {scores[name]:.4f}  {name}")
    best = max(scores, key=lambda k: scores[k])
    print(f"chosen: {best}")
    trec = load_rows("trec_dl2020")
    got = parts([(r["question"], r["contexts"][0]) for r in trec])
    grade = [r["labels"]["relevance"] for r in trec]
    rho = spearmanr([FORMS[best](x) for x in got], grade).statistic
    print(f"measured on TREC DL 2020 (n={len(trec)}), chosen form only: Spearman {rho:.4f}")


if __name__ == "__main__":
    main()
