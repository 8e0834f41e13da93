"""The `ragas` suite: RAGAS faithfulness, answer relevancy, context precision and context
recall, with at most three judge calls per sample, run concurrently (only those of the
metrics a run asked for: `--metrics ragas.faithfulness` makes one call):

1. `ragas.claims`    -> faithfulness (claims extracted and verified in one call)
2. `ragas.questions` -> answer relevancy (N questions + noncommittal; then embeddings)
3. `ragas.contexts`  -> context precision and context recall (chunk usefulness and
                        reference-sentence attribution in one call)

Both judges end in the same verdicts (`ClaimVerdict`, `RelevancyVerdict`,
`ContextVerdict`): the LLM's validated replies, or the offline judge's probabilities.
A call that fails (after the judge's one repair) unscores only the metrics that depend
on it, keeping the reason, the prompt and the raw reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ragassay.judge import Asker, Verdict
from ragassay.judge.offline import (
    ATTRIBUTION_THRESHOLD,
    RELEVANCE_THRESHOLD,
    SUPPORT_THRESHOLD,
    USEFUL_THRESHOLD,
    Evidence,
)
from ragassay.judge.scales import EXPECT
from ragassay.metrics.base import (
    SUPPORTED,
    Outcome,
    Suite,
    SuiteOptions,
    abstain,
    judge_line,
    number_contexts,
    outcome,
    with_truncated,
)
from ragassay.metrics.formulas import is_soft, share
from ragassay.metrics.ragas.formulas import average_precision, mean_cosine
from ragassay.metrics.ragas.replies import (
    CLAIMS,
    CONTEXTS,
    QUESTIONS,
    Claims,
    ContextLabels,
    Questions,
    claims_verdict,
    context_verdict,
    relevancy_verdict,
)
from ragassay.metrics.ragas.verdicts import (
    ClaimVerdict,
    ContextVerdict,
    Label,
    RelevancyVerdict,
    offline_claims,
    offline_contexts,
)
from ragassay.text import KeyedSample, KeyedSentence
from ragassay.types import (
    EMPTY_ANSWER,
    NO_CONTEXTS,
    NO_REFERENCE,
    NO_REFERENCE_OR_ANSWER,
    CheckedClaim,
    MetricResult,
    MetricSpec,
    Rule,
    Sample,
    SentenceMarks,
    Target,
    at_least,
    below,
)

S = "ragas."
EQUIVALENCE = 0.025
"""The practical-equivalence margin of the 0-1 scores (`MetricSpec.equivalence`)."""
_GROUND = "Instruct the model to answer only from the provided context; lower temperature."
# targets: the bars the gate held before it took its bars from the targets (the generic
# 0.8 / 0.6 rule read 0.8 beside a gate of 0.9), warning 0.2 below, as the generic rule;
# soft targets: the offline judge's own line for each score's verdict (`judge_line`)
SPECS = (
    MetricSpec(
        name=S + "faithfulness", gate=True, equivalence=EQUIVALENCE,
        target=Target(good=0.9, warning=0.7), soft_target=judge_line(SUPPORT_THRESHOLD),
        headline=80, rank=2, labels=SUPPORTED,
        description="Share of the answer's claims supported by the context",
        rules=(Rule(name="ignores_context",
                    conditions=(below(S + "faithfulness", 0.7),
                                at_least(S + "context_precision", 0.7)),
                    message="The model ignores the context: relevant chunks were retrieved but "
                    "the answer is not grounded in them.", fix=_GROUND),)),
    MetricSpec(
        name=S + "answer_relevancy", gate=True, equivalence=EQUIVALENCE,
        # the offline judge's direct estimate: P(the answer addresses the question)
        target=Target(good=0.8, warning=0.6), soft_target=judge_line(RELEVANCE_THRESHOLD),
        headline=90,
        description="Mean cosine of questions generated from the answer to the question",
        rules=(Rule(name="wrong_question_answered",
                    conditions=(below(S + "answer_relevancy", 0.7),
                                at_least(S + "context_recall", 0.7)),
                    message="The wrong question is being answered: the context covers the "
                    "reference but the answer does not address the question.",
                    fix="Add query rewriting and metadata filters; check the prompt "
                    "template."),)),
    MetricSpec(
        name=S + "context_precision", gate=True, equivalence=EQUIVALENCE,
        target=Target(good=0.6, warning=0.4), soft_target=judge_line(USEFUL_THRESHOLD),
        headline=100,
        description="Rank-aware average precision of the useful context chunks",
        rules=(Rule(name="relevant_chunks_ranked_low",
                    conditions=(below(S + "context_precision", 0.5),),
                    message="Relevant chunks are ranked low or drowned among irrelevant ones.",
                    fix="Add a reranker or hybrid (BM25 + dense) retrieval; reduce "
                    "top-k."),)),
    MetricSpec(
        name=S + "context_recall", gate=True, equivalence=EQUIVALENCE,
        target=Target(good=0.75, warning=0.55),
        soft_target=judge_line(ATTRIBUTION_THRESHOLD),
        description="Share of reference sentences attributable to the context",
        rules=(Rule(name="retriever_misses_chunks",
                    conditions=(below(S + "context_recall", 0.7),
                                at_least(S + "faithfulness", 0.7)),
                    message="The retriever misses chunks: the answer is faithful to what was "
                    "retrieved, but the retrieved context lacks facts the reference needs.",
                    fix="Revisit chunking, the embedding model and top-k."),)),
)
NAMES = [s.name for s in SPECS]
ANSWER_METRICS = (S + "faithfulness", S + "answer_relevancy")
"""What an answer that declines abstains on (the context metrics read the reference)."""
LLM_BASIS = "judge: noncommittal, reference attributable to the contexts"


def llm_abstention(verdicts: Mapping[str, Verdict]) -> str | None:
    """An LLM judge's abstention outcome: the answer is noncommittal (the questions call)
    and makes no claim (the claims call); "false" when the reference's sentences are
    mostly attributable to the contexts, "correct" when not, "unknown" without a
    reference."""
    q, c = verdicts.get("questions"), verdicts.get("claims")
    if q is None or not isinstance(q.output, Questions) or not q.output.noncommittal:
        return None
    if c is not None and (not isinstance(c.output, Claims) or c.output.claims):
        return None  # it made claims, or the claims call failed (its failure stays)
    ctx = verdicts.get("contexts")
    refs = ctx.output.reference_sentences if ctx is not None and isinstance(
        ctx.output, ContextLabels) else []
    if not refs:
        return "unknown"
    return "false" if sum(r.attributed for r in refs) * 2 >= len(refs) else "correct"



# ---- scoring (pure) ---------------------------------------------------------------------

_embedder: Any = None


def default_embedder() -> Any:
    """The sentence embedder, built once per process (imported lazily): the transformer
    with the `embed` extra, else the static table (`embed.sentence_embedder_spec`)."""
    global _embedder
    if _embedder is None:
        from ragassay.embed import get_embedder, sentence_embedder_spec

        _embedder = get_embedder(sentence_embedder_spec())
    return _embedder


def failed(name: str, verdict: Verdict) -> MetricResult:
    return MetricResult(name=name, value=None,
                        unscored_reason=verdict.unscored_reason or "no verdict",
                        failure=verdict.failure())


def failed_contexts(verdict: Verdict, reference: Sequence[KeyedSentence]
                    ) -> list[MetricResult]:
    """Both context metrics unscored by a failed call (recall only with a reference)."""
    names = [S + "context_precision"] + ([S + "context_recall"] if reference else [])
    return [failed(n, verdict) for n in names]


def claim_record(c: ClaimVerdict) -> dict[str, Any]:
    """A claim as ragas.faithfulness's details keep it: its text, flag, reason, and the
    judge's P(supported) where it gave one (the value averages those, not the flags:
    trial 72 read `supported: true` beside a one-claim answer's 0.60; readers read it
    typed, `SentenceMarks.claims`)."""
    out: dict[str, Any] = {"claim": c.claim, "supported": c.supported}
    if (p := _rounded(c.probability)) is not None:
        out["probability"] = p
    return {**out, "reason": c.reason}


def _rounded(p: float | None) -> float | None:
    return None if p is None else round(float(p), 4)


def score_faithfulness(claims: Sequence[ClaimVerdict]) -> MetricResult:
    """supported claims / claims (mean P(supported) when every claim has one)."""
    name = S + "faithfulness"
    flags = [c.supported for c in claims]
    probs = [c.probability for c in claims]
    value = share(flags, probs)
    details: dict[str, Any] = {"claims": [claim_record(c) for c in claims]}
    marks = SentenceMarks(unsupported_claims=tuple(dict.fromkeys(
        c.claim for c in claims if c.supported is False and isinstance(c.claim, str))),
        claims=tuple(CheckedClaim(text=c.claim, supported=c.supported is True,
                                  probability=_rounded(c.probability))
                     for c in claims if isinstance(c.claim, str)))
    if value is None:
        return MetricResult(name=name, value=None, unscored_reason="no claims in the answer",
                            details=details, marks=marks or None)
    if is_soft(flags, probs):
        details["soft"] = True
    return MetricResult(name=name, value=value, details=details, marks=marks or None)


def score_answer_relevancy(verdict: RelevancyVerdict, n_questions: int,
                           embed: Callable[[list[str]], Any] | None = None,
                           question: str = "") -> MetricResult:
    """0 when noncommittal; else the offline judge's direct relevance when given; else the
    mean cosine (clamped to [0, 1]) of the generated questions to the real one.

    `embed(texts) -> array` is called only when questions are needed.
    """
    name = S + "answer_relevancy"
    questions = list(verdict.questions[: max(1, n_questions)])
    details: dict[str, Any] = {"questions": questions, "noncommittal": verdict.noncommittal}
    if verdict.noncommittal:
        return MetricResult(name=name, value=0.0, details=details)
    if verdict.direct is not None:
        return MetricResult(name=name, value=verdict.direct, details={**details, "direct": True})
    if embed is None:
        raise ValueError("answer relevancy from questions needs an embedder")
    try:
        rows = embed([question, *questions])
    except RuntimeError as exc:  # an embedder that cannot work (its errors say why)
        return MetricResult(name=name, value=None,
                            unscored_reason=f"embedding failed: {' '.join(str(exc).split())}",
                            details=details)
    value, cosines = mean_cosine(rows[0], rows[1:])
    return MetricResult(name=name, value=value, details={**details, "cosines": cosines})


def score_contexts(verdict: ContextVerdict, n_chunks: int, n_shown: int,
                   reference: Sequence[KeyedSentence], target: str) -> list[MetricResult]:
    """Context precision (rank-aware AP over all retrieved chunks; chunks not shown or not
    judged count as not useful) and context recall (attributed / judged reference
    sentences). `target` says what usefulness was judged against: reference or answer.
    """
    prec, rec = S + "context_precision", S + "context_recall"
    by_index: dict[int, Label] = {}
    unknown = 0
    for c in verdict.chunks:
        if 0 <= c.key < n_shown:
            by_index.setdefault(c.key, c)
        else:
            unknown += 1
    judged = [by_index[i] for i in sorted(by_index)]
    soft = len(judged) == n_shown and all(c.probability is not None for c in judged)
    v = [0.0] * n_chunks
    for i, c in by_index.items():
        v[i] = float(c.probability) if soft and c.probability is not None else float(c.value)
    details: dict[str, Any] = {
        "useful_chunks": [i for i in sorted(by_index) if by_index[i].value],
        "judged_against": target,
        "unjudged_chunks": [i for i in range(n_shown) if i not in by_index],
    }
    if unknown:
        details["unknown_chunks"] = unknown
    if soft:
        details["soft"] = True
    results = [MetricResult(name=prec, value=average_precision(v), details=details)]
    if not reference:
        return results
    keys = {s.key: s.text for s in reference}
    by_key: dict[str, Label] = {}
    unknown_keys = 0
    for r in verdict.reference:
        if r.key in keys:
            by_key.setdefault(r.key, r)
        else:
            unknown_keys += 1
    ref_judged = [by_key[s.key] for s in reference if s.key in by_key]
    flags = [r.value for r in ref_judged]
    probs = [r.probability for r in ref_judged]
    rdetails: dict[str, Any] = {
        "unattributed": [{"key": r.key, "text": keys[r.key]} for r in ref_judged
                         if not r.value],
        "unjudged": [s.key for s in reference if s.key not in by_key],
    }
    if unknown_keys:
        rdetails["unknown_keys"] = unknown_keys
    if is_soft(flags, probs):
        rdetails["soft"] = True
    value = share(flags, probs)
    if value is None:
        results.append(MetricResult(name=rec, value=None, details=rdetails,
                                    unscored_reason="judge labelled no reference sentence"))
    else:
        results.append(MetricResult(name=rec, value=value, details=rdetails))
    return results


# ---- the suite ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Needs:
    """Which of the three judgments a sample has the inputs for."""

    claims: bool
    questions: bool
    contexts: bool
    reference: tuple[KeyedSentence, ...]

    @classmethod
    def of(cls, item: KeyedSample) -> _Needs:
        has_ctx = any(d.strip() for d in item.documents)
        has_answer = bool(item.answer_text.strip())
        return cls(has_ctx and has_answer, has_answer,
                   has_ctx and (bool(item.reference) or has_answer), item.reference)

    @property
    def target(self) -> str:
        return "reference" if self.reference else "answer"


class RagasSuite(Suite):
    name: ClassVar[str] = "ragas"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS
    prompts = (CLAIMS, QUESTIONS, CONTEXTS)
    uses_embedder = True

    def needs_embedder(self) -> bool:
        return self.wants(S + "answer_relevancy")

    def applicable(self, sample: Sample) -> bool:
        return bool(sample.contexts) or bool(sample.answer.strip())

    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions) -> Outcome:
        needs = _Needs.of(item)
        numbered = number_contexts(item.documents)
        jobs: dict[str, Awaitable[Verdict]] = {}
        # one call per judgment, and only for the metrics the run asked for
        if needs.claims and self.wants(S + "faithfulness"):
            jobs["claims"] = judge.ask(CLAIMS, {
                "question": item.question, "contexts": numbered, "answer": item.answer_text})
        if needs.questions and self.wants(S + "answer_relevancy"):
            jobs["questions"] = judge.ask(QUESTIONS, {
                "n": str(options.n_questions), "answer": item.answer_text})
        if needs.contexts and (self.wants(S + "context_precision")
                               or self.wants(S + "context_recall")):
            shown = needs.reference or item.answer
            jobs["contexts"] = judge.ask(CONTEXTS, {
                "question": item.question, "contexts": numbered,
                "target_kind": "EXPECTED answer" if needs.reference else "SYSTEM's answer",
                "target": "\n".join(f"{s.key}: {s.text}" for s in shown),
                EXPECT: {"chunks": len(item.documents),
                         "reference_keys": [s.key for s in needs.reference]}})
        verdicts = dict(zip(jobs, await asyncio.gather(*jobs.values()), strict=True))

        results: dict[str, MetricResult] = {}
        if (v := verdicts.get("claims")) is not None:
            results[S + "faithfulness"] = (
                score_faithfulness(claims_verdict(v.output, v.soft)) if isinstance(v.output, Claims)
                else failed(S + "faithfulness", v))
        if (v := verdicts.get("questions")) is not None:
            if isinstance(v.output, Questions):

                def embed(texts: list[str]) -> Any:  # resolved only when questions need it
                    return (options.embedder or default_embedder()).embed(texts)

                results[S + "answer_relevancy"] = await asyncio.to_thread(
                    score_answer_relevancy, relevancy_verdict(v.output), options.n_questions,
                    embed, item.question)
            else:
                results[S + "answer_relevancy"] = failed(S + "answer_relevancy", v)
        if (v := verdicts.get("contexts")) is not None:
            if isinstance(v.output, ContextLabels):
                for r in score_contexts(context_verdict(v.output, v.soft),
                                        len(item.sample.contexts), len(item.documents),
                                        needs.reference, needs.target):
                    results[r.name] = r
            else:
                for r in failed_contexts(v, needs.reference):
                    results[r.name] = r
        return self._finish(item, needs, results, list(verdicts.values()),
                            (llm_abstention(verdicts), LLM_BASIS))

    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        needs = _Needs.of(item)
        results: dict[str, MetricResult] = {}
        if needs.claims:
            results[S + "faithfulness"] = score_faithfulness(offline_claims(evidence))
        if needs.questions and evidence.answer_relevance is None:
            results[S + "answer_relevancy"] = MetricResult(
                name=S + "answer_relevancy", value=None,
                unscored_reason="no answer sentence to compare with the question")
        elif needs.questions:
            results[S + "answer_relevancy"] = score_answer_relevancy(RelevancyVerdict(
                noncommittal=evidence.noncommittal, direct=evidence.answer_relevance),
                options.n_questions)
        if needs.contexts:
            for r in score_contexts(offline_contexts(evidence), len(item.sample.contexts),
                                    len(item.documents), needs.reference, needs.target):
                results[r.name] = r
        return self._finish(item, needs, results, (),
                            (evidence.abstention(), evidence.abstention_basis))

    def _finish(self, item: KeyedSample, needs: _Needs, results: dict[str, MetricResult],
                verdicts: Sequence[Verdict] = (),
                abstention: tuple[str | None, str] = (None, "")) -> Outcome:
        has_ctx = any(d.strip() for d in item.documents)
        no_ctx = NO_CONTEXTS
        why = {
            S + "faithfulness": EMPTY_ANSWER if has_ctx else no_ctx,
            S + "answer_relevancy": EMPTY_ANSWER,
            S + "context_precision": no_ctx if not has_ctx else NO_REFERENCE_OR_ANSWER,
            S + "context_recall": no_ctx if not has_ctx else NO_REFERENCE,
        }
        ordered = [results.get(n) or MetricResult(name=n, value=None, unscored_reason=why[n])
                   for n in NAMES]
        ordered = with_truncated(abstain(ordered, ANSWER_METRICS, *abstention), item)
        return outcome(self.name, item.sample, ordered, verdicts)
