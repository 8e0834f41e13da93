"""Diagnostics matrix: metric patterns that point at a specific RAG failure.

A `Rule` is a conjunction of `Condition`s on metric values normalised to 0-1
with their spec (a bool metric is 0/1). It is evaluated

* per sample: samples with every needed metric scored are "evaluated"; those
  meeting all conditions count. The worst samples are those furthest into the
  firing region (sum over conditions of the distance past the threshold);
* on the aggregate: the same conditions on the metric means.

Only rules whose metrics are all in the table are reported. Thresholds are
defaults; pass your own `rules` (e.g. via `dataclasses.replace`) to change them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ragassay.stats.table import Row, ScoreTable
from ragassay.types import MetricSpec

WORST = 5


@dataclass(frozen=True)
class Condition:
    metric: str
    op: Literal["<", ">="]
    threshold: float  # on the 0-1 normalised scale

    def excess(self, x: float) -> float | None:
        """How far past the threshold x is (>= 0) when the condition holds, else None."""
        if self.op == "<":
            return self.threshold - x if x < self.threshold else None
        return x - self.threshold if x >= self.threshold else None


@dataclass(frozen=True)
class Rule:
    name: str
    conditions: tuple[Condition, ...]
    message: str
    fix: str

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(c.metric for c in self.conditions)


def low(metric: str, t: float) -> Condition:
    return Condition(metric, "<", t)


def high(metric: str, t: float) -> Condition:
    return Condition(metric, ">=", t)


DEFAULT_RULES: tuple[Rule, ...] = (
    # RAGAS
    Rule(
        "ignores_context",
        (low("ragas.faithfulness", 0.7), high("ragas.context_precision", 0.7)),
        "The model ignores the context: relevant chunks were retrieved but the answer "
        "is not grounded in them.",
        "Instruct the model to answer only from the provided context; lower temperature.",
    ),
    Rule(
        "retriever_misses_chunks",
        (low("ragas.context_recall", 0.7), high("ragas.faithfulness", 0.7)),
        "The retriever misses chunks: the answer is faithful to what was retrieved, but "
        "the retrieved context lacks facts the reference needs.",
        "Revisit chunking, the embedding model and top-k.",
    ),
    Rule(
        "wrong_question_answered",
        (low("ragas.answer_relevancy", 0.7), high("ragas.context_recall", 0.7)),
        "The wrong question is being answered: the context covers the reference but the "
        "answer does not address the question.",
        "Add query rewriting and metadata filters; check the prompt template.",
    ),
    Rule(
        "relevant_chunks_ranked_low",
        (low("ragas.context_precision", 0.5),),
        "Relevant chunks are ranked low or drowned among irrelevant ones.",
        "Add a reranker or hybrid (BM25 + dense) retrieval; reduce top-k.",
    ),
    # TRACe
    Rule(
        "retrieval_noise",
        (low("trace.context_relevance", 0.3),),
        "Retrieval noise: most of the retrieved context is irrelevant to the question.",
        "Lower top-k, rerank, or use smaller / better-bounded chunks.",
    ),
    Rule(
        "evidence_underused",
        (high("trace.context_relevance", 0.5), low("trace.context_utilization", 0.3)),
        "The generator underuses retrieved evidence: relevant context is retrieved but "
        "little of it is used in the answer.",
        "Prompt the model to use all relevant passages; check context ordering and length.",
    ),
    Rule(
        "incomplete_answer",
        (high("trace.context_relevance", 0.5), low("trace.completeness", 0.5)),
        "The answer is incomplete: it leaves out much of the relevant retrieved information.",
        "Ask for complete answers covering every relevant passage; raise max tokens.",
    ),
    Rule(
        "unsupported_sentences",
        (low("trace.adherence_ratio", 0.8),),
        "Adherence failures: more than one answer sentence in five is not supported by "
        "the context.",
        "Instruct the model to answer only from the context and to say when it cannot.",
    ),
    Rule(
        "answer_not_adherent",
        (low("trace.adherence", 0.5),),
        "Adherence failure: the answer is not fully supported by the context.",
        "Instruct the model to answer only from the context and to say when it cannot.",
    ),
    # judge
    Rule(
        "hallucination_despite_good_context",
        (high("judge.hallucination", 0.5), high("judge.context_relevance", 0.7)),
        "The model adds unsupported information despite relevant context.",
        "Constrain the generator to the context (prompt, lower temperature, citations).",
    ),
    Rule(
        "retrieval_problem",
        (low("judge.context_relevance", 0.5),),
        "Retrieval problem: the retrieved context is judged mostly irrelevant.",
        "Improve retrieval: embeddings, chunking, hybrid search, reranking, top-k.",
    ),
    Rule(
        "reference_mismatch",
        (low("judge.answer_similarity", 0.5), high("judge.faithfulness", 0.7)),
        "The answer is faithful to the context yet far from the reference: a retrieval gap "
        "(the passage holding the reference answer is missing) or a wrong reference.",
        "Check retrieval recall for these questions and verify the references.",
    ),
)


def _norm(spec: MetricSpec, v: float) -> float:
    return spec.normalise(v)


def _sample_excess(rule: Rule, row: Row, specs: Mapping[str, MetricSpec]) -> float | None:
    """Summed excess when the rule fires on the row, else None. Requires all values."""
    total = 0.0
    for c in rule.conditions:
        v = row.value(c.metric)
        if v is None:
            return None
        e = c.excess(_norm(specs[c.metric], v))
        if e is None:
            return None
        total += e
    return total


def _evaluated(rule: Rule, row: Row) -> bool:
    return all(row.value(m) is not None for m in rule.metrics)


def evaluate_rule(rule: Rule, table: ScoreTable) -> dict[str, Any]:
    """The finding of one rule on a table (all its metrics must be present)."""
    evaluated = [r for r in table.rows if _evaluated(rule, r)]
    hits = []
    for r in evaluated:
        e = _sample_excess(rule, r, table.specs)
        if e is not None:
            hits.append((e, r))
    hits.sort(key=lambda t: -t[0])  # stable: ties keep table order
    means = table.means()
    aggregate: bool | None = None
    if all(means[m] is not None for m in rule.metrics):
        aggregate = all(
            c.excess(_norm(table.spec(c.metric), float(means[c.metric] or 0.0))) is not None
            for c in rule.conditions
        )
    return {
        "rule": rule.name,
        "message": rule.message,
        "fix": rule.fix,
        "metrics": list(rule.metrics),
        "conditions": [
            {"metric": c.metric, "op": c.op, "threshold": c.threshold} for c in rule.conditions
        ],
        "evaluated": len(evaluated),
        "count": len(hits),
        "share_of_samples": len(hits) / len(evaluated) if evaluated else None,
        "fires_on_aggregate": aggregate,
        "fired": bool(hits) or bool(aggregate),
        "worst_samples": [_label(r, table) for _, r in hits[:WORST]],
    }


def _label(row: Row, table: ScoreTable) -> str:
    """Sample id, prefixed by its strategy when the table has several."""
    return row.id if len(table.strategies) <= 1 else f"{row.strategy}/{row.id}"


def diagnose(table: ScoreTable, rules: Sequence[Rule] = DEFAULT_RULES) -> list[dict[str, Any]]:
    """Findings of every applicable rule, fired ones first, then by share (desc)."""
    findings = [
        evaluate_rule(rule, table) for rule in rules if all(m in table.specs for m in rule.metrics)
    ]
    findings.sort(key=lambda f: (not f["fired"], -(f["share_of_samples"] or 0.0)))
    return findings
