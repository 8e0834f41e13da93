"""Choose how the default mode scores one context sentence's relevance (what
trace.context_relevance, a length-weighted share of relevant sentences, adds up): first
by behaviour on sentence-level probes, then on the two choice sets of
relevance_forms.py; then measure the chosen way, and only it, on TREC DL 2020's graded
judgments.

The inputs: the document's relevance (relevance_forms.py's chosen form) and the
sentence's own score, the same form on the sentence read alone or over a window of it
and its neighbours in the same document (the cosine stays the sentence's own; the soft
coverage is the window's: "It opened in 1889." is about the Eiffel Tower only through
the sentence before it). A sentence that only echoes the question is as relevant as its
document (relevance.echoes). The candidates mix them (the document's weight 0.5 or 0.75)
or multiply them (relevant when its passage is and it is, read with its neighbours).
The document alone is no candidate: trace.context_relevance would then be
judge.context_relevance again and no share of sentences.

PROBES are what a share of relevant sentences must get right whatever the choice sets
say (A and B grade whole passages, so they favour the document's weight): an unrelated
sentence inside a relevant passage is not relevant, a sentence that answers through its
neighbour is, and the same sentence in an unrelated passage is not. A way that fails a
probe is out. The chosen way has the best mean rank over A and B among the rest (ties:
the better on B, then the earlier in WAYS).

History and candour (docs/judges.md, "The sentence mix"): on 2026-12-02 the four mixes
were compared on A and B alone and 0.75 x document + 0.25 x sentence shipped (TREC
0.230); a new-user trial then showed it marks every sentence of a relevant passage
relevant (five sentences on bananas next to one on the Eiffel Tower's height), so the
probes and the products were added the same day. TREC figures of 0.5 and 0.75 x
document (0.201, 0.230) and of the document alone (0.254) had been seen by then.

    .venv/bin/python scripts/devsets/trace_relevance_forms.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from relevance_forms import choice_sets, choose_by_rank, prepared, trec
from scipy.stats import spearmanr

from ragassay.judge.offline import RELEVANCE_THRESHOLD, Analyzer
from ragassay.judge.offline.relevance import (
    SENTENCE_FORM_MIDPOINT,
    QuestionTerms,
    SoftCoverage,
    relevance_parts,
    relevance_probability,
    score_relevance,
)
from ragassay.stats import auroc


@dataclass(frozen=True)
class Pair:
    """One question-document pair's relevance inputs, per context sentence."""

    doc: float  # the document's relevance
    alone: np.ndarray  # each sentence read alone
    window: np.ndarray  # each sentence read with its neighbours (the library's own score)
    echo: np.ndarray  # each sentence only echoes the question
    length: np.ndarray  # each sentence's length in characters
    shipped: np.ndarray  # the library's sentence relevance (relevance.score_relevance)


EMPTY = Pair(0.0, *(np.zeros(0) for _ in range(5)))


def pairs(rows: list[tuple[str, str]]) -> list[Pair]:
    """The inputs of each (question, document) pair, through the default Analyzer: the
    library's parts (relevance.relevance_parts) and each sentence read alone."""
    out: list[Pair] = []
    for p in prepared(Analyzer(), rows):
        if p is None:
            out.append(EMPTY)
            continue
        parts = relevance_parts(p.question, p.question_emb, p.ctx, p.doc_ids)
        soft = SoftCoverage(QuestionTerms.of(p.question), p.ctx)
        alone = [
            relevance_probability(float(c), soft.of([j], info.stem_set), SENTENCE_FORM_MIDPOINT)
            for j, (c, info) in enumerate(zip(p.ctx.emb @ p.question_emb, p.ctx.infos,
                                              strict=True))
        ]  # fmt: skip
        out.append(Pair(
            parts.doc[p.doc_ids[0]], np.asarray(alone), np.asarray(parts.own),
            np.asarray(parts.echo, dtype=bool),
            np.asarray([len(k.text) for k in p.context_keyed], dtype=float),
            np.asarray(score_relevance(parts, p.ctx.docs)[0]),
        ))  # fmt: skip
    return out


Way = Callable[[Pair], np.ndarray]


def relevance(p: Pair, way: Way) -> np.ndarray:
    """Each sentence's relevance under a way; an echo of the question takes its
    document's, whatever the way."""
    return np.where(p.echo, p.doc, way(p))


def share(p: Pair, way: Way) -> float:
    """trace.context_relevance of one pair under a way of scoring its sentences."""
    if not len(p.length):
        return 0.0
    return float((p.length * relevance(p, way)).sum() / p.length.sum())


WAYS: dict[str, Way] = {
    "0.5 document + 0.5 sentence (shipped until 2026-12-02)": lambda p: 0.5 * p.doc
    + 0.5 * p.alone,
    "0.75 document + 0.25 sentence": lambda p: 0.75 * p.doc + 0.25 * p.alone,
    "0.5 document + 0.5 sentence window": lambda p: 0.5 * p.doc + 0.5 * p.window,
    "0.75 document + 0.25 sentence window": lambda p: 0.75 * p.doc + 0.25 * p.window,
    # added 2026-12-02 after the new-user trial, with the probes
    "document x sentence": lambda p: p.doc * p.alone,
    "document x sentence window": lambda p: p.doc * p.window,
    "document x sqrt(sentence window)": lambda p: p.doc * np.sqrt(p.window),
    "sqrt(document x sentence window)": lambda p: np.sqrt(p.doc * p.window),
}
LIBRARY = "document x sqrt(sentence window)"  # what relevance.score_relevance computes

ON = "When did the Eiffel Tower open to the public?"
# (question, passage, per sentence: relevant or not; None: no requirement)
PROBES: list[tuple[str, str, list[bool | None]]] = [
    ("How tall is the Eiffel Tower?",
     "The Eiffel Tower is 330 metres tall. Bananas are rich in potassium. Most banana "
     "exports come from Ecuador. Bananas grow in the tropics.", [True, False, False, False]),
    (ON, "The Eiffel Tower is a lattice tower in Paris. It opened to the public in 1889.",
     [None, True]),
    (ON, "Bananas are rich in potassium. It opened to the public in 1889. Farmers grow them.",
     [False, False, False]),
    ("When was the Eiffel Tower completed?",
     "The Eiffel Tower is in Paris. It was completed in 1889.", [None, True]),
]  # fmt: skip


def passes(way: Way, probes: list[Pair]) -> bool:
    """Whether a way labels every probe's sentences as PROBES requires."""
    for p, (_, _, want) in zip(probes, PROBES, strict=True):
        got = relevance(p, way) >= RELEVANCE_THRESHOLD
        if any(w is not None and bool(g) != w for g, w in zip(got, want, strict=True)):
            return False
    return True


def main() -> None:
    probes = pairs([(q, d) for q, d, _ in PROBES])
    sel, relevant, qsel, grade = choice_sets(pairs)
    for p in [*probes, *sel, *qsel]:  # the script's way is the library's: no drift
        assert np.allclose(relevance(p, WAYS[LIBRARY]), p.shipped), "relevance.py differs"
    print("trace.context_relevance of each way; probes: passes PROBES")
    a = {n: auroc([share(x, w) for x in sel], relevant) or 0.0 for n, w in WAYS.items()}
    b = {n: float(spearmanr([share(x, w) for x in qsel], grade).statistic)
         for n, w in WAYS.items()}  # fmt: skip
    ok = {n: passes(w, probes) for n, w in WAYS.items()}
    print("     A       B     probes  way")
    for n in WAYS:
        print(f"  {a[n]:.4f}  {b[n]:.4f}  {'yes' if ok[n] else 'NO ':6s}  {n}")
    if not any(ok.values()):
        raise SystemExit("no way passes the probes: nothing to choose")
    best = choose_by_rank([n for n in WAYS if ok[n]], a, b)
    print(f"chosen: {best}")
    got, tgrade = trec(pairs)
    rho = spearmanr([share(x, WAYS[best]) for x in got], tgrade).statistic
    print(f"measured on TREC DL 2020 (n={len(got)}), chosen way only: Spearman {rho:.4f}")


if __name__ == "__main__":
    main()
