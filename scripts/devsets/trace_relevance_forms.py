"""Choose how the default mode scores one context sentence's relevance (what
trace.context_relevance, a length-weighted share of relevant sentences, adds up) on the
two choice sets of relevance_forms.py; then measure the chosen way, and only it, on
TREC DL 2020's graded judgments.

A sentence's relevance is a mix of its document's relevance (relevance_forms.py's
chosen form) and its own score (the same form on the sentence alone). A sentence read
alone loses what its neighbours say: "It opened in 1889." is about the Eiffel Tower only
through the sentence before it. The candidates:
- the document's weight in the mix, 0.5 (shipped until 2026-12-02) or 0.75;
- the sentence's own score read alone, or over a window of it and its neighbours in
  the same document (the cosine stays the sentence's own; the soft coverage is the
  window's).
The document alone (weight 1) is no candidate: trace.context_relevance would then be
judge.context_relevance again and no share of sentences.

The chosen way has the best mean rank over A and B (ties: the better on B, then the
earlier in WAYS). (Candour: written on 2026-12-02 after TREC figures of the shipped way,
0.201, and of the document alone, judge.context_relevance's 0.254, had been seen;
docs/judges.md says so.)

    .venv/bin/python scripts/devsets/trace_relevance_forms.py
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from relevance_forms import choice_sets, choose_by_rank, prepared, trec
from scipy.stats import spearmanr

from ragassay.judge.offline import Analyzer
from ragassay.judge.offline.features import ContextIndex
from ragassay.judge.offline.relevance import (
    SENTENCE_DOC_WEIGHT,
    SENTENCE_FORM_MIDPOINT,
    QuestionTerms,
    SoftCoverage,
    echoes,
    reading_rows,
    relevance_probability,
    score_relevance,
)
from ragassay.stats import auroc


@dataclass(frozen=True)
class Pair:
    """One question-document pair's relevance inputs, per context sentence."""

    doc: float  # the document's relevance
    own: np.ndarray  # each sentence alone
    window: np.ndarray  # each sentence over its window
    length: np.ndarray  # each sentence's length in characters


def window_rows(ctx: ContextIndex, row: int) -> list[int]:
    """A sentence and its neighbours in the same document."""
    d = ctx.docs[row]
    return [j for j in (row - 1, row, row + 1) if 0 <= j < len(ctx) and ctx.docs[j] == d]


EMPTY = Pair(0.0, np.zeros(0), np.zeros(0), np.zeros(0))


def pairs(rows: list[tuple[str, str]]) -> list[Pair]:
    """The inputs of each (question, document) pair, through the default Analyzer."""
    mid = SENTENCE_FORM_MIDPOINT
    out: list[Pair] = []
    for p in prepared(Analyzer(), rows):
        if p is None:
            out.append(EMPTY)
            continue
        d = p.doc_ids[0]
        terms = QuestionTerms.of(p.question)
        soft = SoftCoverage(terms, p.ctx)
        sims = p.ctx.emb @ p.question_emb
        read = reading_rows(p.ctx, d, terms)
        doc = relevance_probability(
            float(sims[read].max()), soft.of(p.ctx.rows(d), p.ctx.doc_view(d).stems), mid
        )
        infos = p.ctx.infos
        asked = frozenset(terms.stems)
        own, win = [], []
        for j, c in enumerate(sims):
            if echoes(infos[j], asked):  # as relevant as its document (echo rule)
                own.append(doc)
                win.append(doc)
                continue
            own.append(relevance_probability(float(c), soft.of([j], infos[j].stem_set), mid))
            w = window_rows(p.ctx, j)
            stems = frozenset().union(*(infos[k].stem_set for k in w))
            win.append(relevance_probability(float(c), soft.of(w, stems), mid))
        length = [len(k.text) for k in p.context_keyed]
        # the library's sentence relevance is this script's way at its weight
        shipped, _ = score_relevance(p.question, p.question_emb, p.ctx, p.doc_ids)
        wd = SENTENCE_DOC_WEIGHT
        assert np.allclose(shipped, wd * doc + (1 - wd) * np.asarray(own)), "drift"
        out.append(Pair(doc, np.asarray(own), np.asarray(win), np.asarray(length, float)))
    return out


def share(p: Pair, doc_weight: float, window: bool) -> float:
    """trace.context_relevance of one pair under a way of scoring its sentences."""
    if not len(p.length):
        return 0.0
    own = p.window if window else p.own
    rel = doc_weight * p.doc + (1.0 - doc_weight) * own
    return float((p.length * rel).sum() / p.length.sum())


WAYS = {
    "0.5 document + 0.5 sentence (shipped until 2026-12-02)": (0.5, False),
    "0.75 document + 0.25 sentence": (0.75, False),
    "0.5 document + 0.5 sentence window": (0.5, True),
    "0.75 document + 0.25 sentence window": (0.75, True),
}


def main() -> None:
    sel, relevant, qsel, grade = choice_sets(pairs)
    print("trace.context_relevance of each way")
    a = {n: auroc([share(x, *w) for x in sel], relevant) or 0.0 for n, w in WAYS.items()}
    b = {
        n: float(spearmanr([share(x, *w) for x in qsel], grade).statistic)
        for n, w in WAYS.items()
    }
    print("     A       B     way")
    for n in WAYS:
        print(f"  {a[n]:.4f}  {b[n]:.4f}  {n}")
    best = choose_by_rank(list(WAYS), a, b)
    print(f"chosen: {best}")
    got, tgrade = trec(pairs)
    rho = spearmanr([share(x, *WAYS[best]) for x in got], tgrade).statistic
    print(f"measured on TREC DL 2020 (n={len(got)}), chosen way only: Spearman {rho:.4f}")


if __name__ == "__main__":
    main()
