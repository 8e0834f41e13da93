"""The `ragas` suite: RAGAS faithfulness, answer relevancy, context precision and context
recall, with at most three judge calls per sample, run concurrently:

1. `ragas.claims`    -> faithfulness (claims extracted and verified in one call)
2. `ragas.questions` -> answer relevancy (N questions + noncommittal; then embeddings)
3. `ragas.contexts`  -> context precision and context recall (chunk usefulness and
                        reference-sentence attribution in one call)

A call that fails (after the judge's one repair) unscores only the metrics that
depend on it, keeping the reason, the prompt and the raw reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from ragassay.judge import Flag, Judge, Unit, Verdict, load_prompt
from ragassay.metrics.base import (
    Outcome,
    Suite,
    SuiteOptions,
    fit_contexts,
    number_contexts,
    outcome,
)
from ragassay.metrics.ragas.formulas import average_precision, is_soft, mean_cosine, share
from ragassay.text import KeyedSentence, key_answer, letter_key
from ragassay.types import MetricResult, MetricSpec, Sample


def _index(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected a chunk number, got a boolean")
    if isinstance(value, str):
        value = value.strip().strip("[]()#. ")
    return int(value)


def _key(value: Any) -> str:
    return str(value).strip().strip("[]()<>'\"`*.,:;").strip().lower()


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of questions, got {value!r}")
    return [str(v).strip() for v in value if str(v).strip()]


class Claim(BaseModel):
    model_config = ConfigDict(extra="ignore")

    claim: str
    supported: Flag
    reason: str = ""
    probability: SkipJsonSchema[Unit | None] = None  # offline judge: P(supported)


class Claims(BaseModel):
    """The answer's atomic claims, each checked against the context."""

    # Call 1.

    model_config = ConfigDict(extra="ignore")

    claims: list[Claim]


class Questions(BaseModel):
    """Questions the answer would answer, and whether the answer is noncommittal."""

    # Call 2. `relevance` is hidden from the LLM's schema (docstrings are sent to it):
    # the offline judge gives a direct answer relevance instead of questions.
    model_config = ConfigDict(extra="ignore")

    questions: Annotated[list[str], BeforeValidator(_texts)] = Field(default_factory=list)
    noncommittal: Flag
    relevance: SkipJsonSchema[Unit | None] = None

    @model_validator(mode="after")
    def _needs_questions(self) -> Questions:
        if not self.questions and self.relevance is None and not self.noncommittal:
            raise ValueError("no questions were written")
        return self


class ChunkLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    index: Annotated[int, BeforeValidator(_index)]
    useful: Flag
    probability: SkipJsonSchema[Unit | None] = None


class RefLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    key: Annotated[str, BeforeValidator(_key)]
    attributed: Flag
    probability: SkipJsonSchema[Unit | None] = None


class ContextLabels(BaseModel):
    """Per-chunk usefulness and per-reference-sentence attribution."""

    # Call 3.

    model_config = ConfigDict(extra="ignore")

    chunks: list[ChunkLabel]
    reference_sentences: list[RefLabel] = Field(default_factory=list)


def _offline_claims(sample: Sample, evidence: Any, values: Any) -> Claims:
    from ragassay.judge.offline import SUPPORT_THRESHOLD

    # abstentions and filler make no claim (Evidence.claim_indices)
    return Claims(claims=[
        Claim(claim=evidence.answer_sentences[i].text,
              supported=evidence.support[i] >= SUPPORT_THRESHOLD,
              probability=evidence.support[i],
              reason="supported by " + ", ".join(evidence.support_keys[i])
              if evidence.support_keys[i] else "no supporting sentence")
        for i in evidence.claim_indices()
    ])


def _offline_questions(sample: Sample, evidence: Any, values: Any) -> Questions:
    if evidence.answer_relevance is None:
        raise ValueError("no answer relevance in the evidence")
    return Questions(questions=[], noncommittal=bool(evidence.noncommittal),
                     relevance=evidence.answer_relevance)


def _offline_contexts(sample: Sample, evidence: Any, values: Any) -> ContextLabels:
    from ragassay.judge.offline import ATTRIBUTION_THRESHOLD, USEFUL_THRESHOLD

    return ContextLabels(
        chunks=[ChunkLabel(index=i, useful=p >= USEFUL_THRESHOLD, probability=p)
                for i, p in enumerate(evidence.chunk_usefulness)],
        reference_sentences=[
            RefLabel(key=letter_key(i), attributed=p >= ATTRIBUTION_THRESHOLD, probability=p)
            for i, p in enumerate(evidence.reference_attribution)],
    )


_HERE = Path(__file__).parent
CLAIMS = load_prompt(_HERE / "claims.toml", Claims, offline=_offline_claims)
QUESTIONS = load_prompt(_HERE / "questions.toml", Questions, offline=_offline_questions)
CONTEXTS = load_prompt(_HERE / "contexts.toml", ContextLabels, offline=_offline_contexts)

S = "ragas."
SPECS = (
    MetricSpec(name=S + "faithfulness",
               description="Share of the answer's claims supported by the context"),
    MetricSpec(name=S + "answer_relevancy",
               description="Mean cosine of questions generated from the answer to the question"),
    MetricSpec(name=S + "context_precision",
               description="Rank-aware average precision of the useful context chunks"),
    MetricSpec(name=S + "context_recall",
               description="Share of reference sentences attributable to the context"),
)
NAMES = [s.name for s in SPECS]

_embedder: Any = None


def default_embedder() -> Any:
    """The local sentence embedder, built once per process (imported lazily)."""
    global _embedder
    if _embedder is None:
        from ragassay.embed import get_embedder

        _embedder = get_embedder("local")
    return _embedder


def _failed(name: str, verdict: Verdict) -> MetricResult:
    return MetricResult(name=name, value=None,
                        unscored_reason=verdict.unscored_reason or "no verdict",
                        details=verdict.failure_details())


def score_faithfulness(verdict: Verdict) -> MetricResult:
    """supported claims / claims (mean P(supported) when every claim has one)."""
    name = S + "faithfulness"
    if not isinstance(verdict.output, Claims):
        return _failed(name, verdict)
    claims = verdict.output.claims
    flags = [c.supported for c in claims]
    probs = [c.probability for c in claims]
    value = share(flags, probs)
    details: dict[str, Any] = {
        "claims": [{"claim": c.claim, "supported": c.supported, "reason": c.reason}
                   for c in claims]}
    if value is None:
        return MetricResult(name=name, value=None, unscored_reason="no claims in the answer",
                            details=details)
    if is_soft(flags, probs):
        details["soft"] = True
    return MetricResult(name=name, value=value, details=details)


def score_answer_relevancy(verdict: Verdict, n_questions: int,
                           embed: Any = None, question: str = "") -> MetricResult:
    """0 when noncommittal; else the offline judge's direct relevance when given; else the
    mean cosine (clamped to [0, 1]) of the generated questions to the real one.

    `embed(texts) -> array` is called only when questions are needed.
    """
    name = S + "answer_relevancy"
    out = verdict.output
    if not isinstance(out, Questions):
        return _failed(name, verdict)
    questions = out.questions[: max(1, n_questions)]
    details: dict[str, Any] = {"questions": questions, "noncommittal": out.noncommittal}
    if out.noncommittal:
        return MetricResult(name=name, value=0.0, details=details)
    if out.relevance is not None:
        return MetricResult(name=name, value=out.relevance, details={**details, "direct": True})
    try:
        rows = embed([question, *questions])
        value, cosines = mean_cosine(rows[0], rows[1:])
    except Exception as exc:  # any embedder failure unscores this metric only
        return MetricResult(name=name, value=None,
                            unscored_reason=f"embedding failed: {type(exc).__name__}: {exc}",
                            details=details)
    return MetricResult(name=name, value=value, details={**details, "cosines": cosines})


def score_contexts(verdict: Verdict | None, n_chunks: int, n_shown: int,
                   reference: Sequence[KeyedSentence] | None, target: str
                   ) -> list[MetricResult]:
    """Context precision (rank-aware AP over all retrieved chunks; chunks not shown or not
    judged count as not useful) and context recall (attributed / judged reference
    sentences). `target` says what usefulness was judged against: reference or answer.
    """
    prec, rec = S + "context_precision", S + "context_recall"
    if verdict is None:
        return []
    if not isinstance(verdict.output, ContextLabels):
        return [_failed(prec, verdict)] + ([_failed(rec, verdict)] if reference else [])
    labels = verdict.output
    by_index: dict[int, ChunkLabel] = {}
    unknown = 0
    for c in labels.chunks:
        if 0 <= c.index < n_shown:
            by_index.setdefault(c.index, c)
        else:
            unknown += 1
    judged = [by_index[i] for i in sorted(by_index)]
    soft = len(judged) == n_shown and all(c.probability is not None for c in judged)
    v = [0.0] * n_chunks
    for i, c in by_index.items():
        v[i] = float(c.probability) if soft and c.probability is not None else float(c.useful)
    details: dict[str, Any] = {
        "useful_chunks": [i for i in sorted(by_index) if by_index[i].useful],
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
    by_key: dict[str, RefLabel] = {}
    unknown_keys = 0
    for r in labels.reference_sentences:
        if r.key in keys:
            by_key.setdefault(r.key, r)
        else:
            unknown_keys += 1
    ref_judged = [by_key[s.key] for s in reference if s.key in by_key]
    flags = [r.attributed for r in ref_judged]
    probs = [r.probability for r in ref_judged]
    rdetails: dict[str, Any] = {
        "unattributed": [{"key": r.key, "text": keys[r.key]} for r in ref_judged
                         if not r.attributed],
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


class RagasSuite(Suite):
    name: ClassVar[str] = "ragas"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS

    @classmethod
    def prompt_versions(cls) -> dict[str, str]:
        return {p.name: p.version for p in (CLAIMS, QUESTIONS, CONTEXTS)}

    def applicable(self, sample: Sample) -> bool:
        return bool(sample.contexts) or bool(sample.answer.strip())

    async def evaluate(self, sample: Sample, judge: Judge, options: SuiteOptions) -> Outcome:
        contexts, cut = fit_contexts(sample.contexts, options.max_context_tokens)
        has_ctx = any(c.strip() for c in contexts)
        has_answer = bool(sample.answer.strip())
        reference = key_answer(sample.references[0]) if sample.references else []
        target = "reference" if reference else "answer"
        numbered = number_contexts(contexts)
        jobs: dict[str, Awaitable[Verdict]] = {}
        if has_ctx and has_answer:
            jobs["claims"] = judge.run(CLAIMS, sample, {
                "question": sample.question, "contexts": numbered, "answer": sample.answer})
        if has_answer:
            jobs["questions"] = judge.run(QUESTIONS, sample, {
                "n": str(options.n_questions), "answer": sample.answer})
        if has_ctx and (reference or has_answer):
            shown = reference or key_answer(sample.answer)
            jobs["contexts"] = judge.run(CONTEXTS, sample, {
                "question": sample.question, "contexts": numbered,
                "target_kind": "EXPECTED answer" if reference else "SYSTEM's answer",
                "target": "\n".join(f"{s.key}: {s.text}" for s in shown)})
        verdicts = dict(zip(jobs, await asyncio.gather(*jobs.values()), strict=True))

        results: dict[str, MetricResult] = {}
        no_ctx = "no contexts"
        if "claims" in verdicts:
            results[S + "faithfulness"] = score_faithfulness(verdicts["claims"])
        if "questions" in verdicts:

            def embed(texts: list[str]) -> Any:  # resolved only when questions need it
                return (options.embedder or default_embedder()).embed(texts)

            results[S + "answer_relevancy"] = await asyncio.to_thread(
                score_answer_relevancy, verdicts["questions"], options.n_questions, embed,
                sample.question)
        for r in score_contexts(verdicts.get("contexts"), len(sample.contexts), len(contexts),
                                reference, target):
            results[r.name] = r
        why = {
            S + "faithfulness": "empty answer" if has_ctx else no_ctx,
            S + "answer_relevancy": "empty answer",
            S + "context_precision": no_ctx if not has_ctx else "needs a reference or an answer",
            S + "context_recall": no_ctx if not has_ctx else "no reference answer",
        }
        ordered = [results.get(n) or MetricResult(name=n, value=None, unscored_reason=why[n])
                   for n in NAMES]
        if cut:
            ordered = [r.model_copy(update={"details": {**r.details, "context_truncated": True}})
                       for r in ordered]
        return outcome(self.name, sample, ordered, list(verdicts.values()))
