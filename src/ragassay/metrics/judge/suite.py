"""The `judge` suite: context relevance, answer similarity, faithfulness (1-10),
hallucination (bool) and overall, from one judge call per sample."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from ragassay.judge import Flag, Judge, Reasoning, Score10, load_prompt
from ragassay.llm.logprobs import SoftValue
from ragassay.metrics.base import (
    Outcome,
    Suite,
    SuiteOptions,
    fit_contexts,
    number_contexts,
    outcome,
    unscored,
)
from ragassay.stats.strategies import WEIGHTS
from ragassay.types import MetricResult, MetricSpec, Sample

# one definition of the guide's weights, shared with the per-strategy statistics
OVERALL_WEIGHTS = dict(zip(("context_relevance", "answer_similarity", "faithfulness"), WEIGHTS,
                           strict=True))


def _all_required(schema: dict[str, Any]) -> None:
    # Every field is asked for (a grammar then writes each one, in order, instead of
    # letting a small model skip answer_similarity or stop early); replies that leave
    # out an optional one are still accepted.
    schema["required"] = list(schema.get("properties", {}))


class JudgeScores(BaseModel):
    """The judge's reply for one sample."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_all_required)

    # the order the reply is written in (the grammar keeps it): faithfulness first
    faithfulness: Score10
    hallucination: Flag
    context_relevance: Score10
    answer_similarity: Score10 | None = None
    reasoning: Reasoning = ""


def _offline(sample: Sample, evidence: Any, values: Any) -> JudgeScores:
    from ragassay.judge.offline import HALLUCINATION_THRESHOLD, reasoning, to_ten_point

    faith = evidence.faithfulness
    match = evidence.reference_match
    rel = evidence.context_relevance
    return JudgeScores(
        context_relevance=to_ten_point(rel) if rel is not None else 1.0,
        answer_similarity=to_ten_point(match) if match is not None else None,
        faithfulness=to_ten_point(faith) if faith is not None else 1.0,
        hallucination=faith is not None and faith < HALLUCINATION_THRESHOLD,
        reasoning=reasoning(evidence),
    )


PROMPT = load_prompt(Path(__file__).with_name("scores.toml"), JudgeScores, offline=_offline)

S = "judge."
SPECS = (
    MetricSpec(name=S + "context_relevance", low=1, high=10,
               description="Do the retrieved chunks help answer the question? (1-10)"),
    MetricSpec(name=S + "answer_similarity", low=1, high=10,
               description="How close is the answer to the reference? (1-10)"),
    MetricSpec(name=S + "faithfulness", low=1, high=10,
               description="Is the answer based on the context? (1-10)"),
    MetricSpec(name=S + "hallucination", low=0, high=1, kind="bool", higher_is_better=False,
               description="Does the answer contain information not in the context?"),
    MetricSpec(name=S + "overall", low=0, high=10,
               description="(0.3 CR + 0.4 AS + 0.3 F) x (1 - hallucination)"),
)
NAMES = [s.name for s in SPECS]


def overall_score(context_relevance: float | None, answer_similarity: float | None,
                  faithfulness: float | None, hallucination_rate: float | None
                  ) -> tuple[float | None, dict[str, float]]:
    """(0.3*CR + 0.4*AS + 0.3*F) * (1 - hallucination_rate).

    When a component is missing (no reference, say) the others are reweighted to sum
    to 1, and the weights used are returned; without faithfulness or the
    hallucination rate there is no overall score.
    """
    parts = {"context_relevance": context_relevance, "answer_similarity": answer_similarity,
             "faithfulness": faithfulness}
    present = {k: v for k, v in parts.items() if v is not None}
    if faithfulness is None or hallucination_rate is None or not present:
        return None, {}
    total = sum(OVERALL_WEIGHTS[k] for k in present)
    weights = {k: OVERALL_WEIGHTS[k] / total for k in present}
    base = sum(weights[k] * v for k, v in present.items())
    return base * (1.0 - hallucination_rate), weights


def score_judge(sample: Sample, scores: JudgeScores | None, reason: str | None = None,
                failure: dict[str, Any] | None = None,
                soft: Mapping[str, SoftValue] | None = None) -> list[MetricResult]:
    """Turn the judge's reply into metric results, unscoring what the inputs don't allow.

    With `soft` readings (probability-weighted, see `ragassay.judge.soft`) a rating's
    value is its expected rating; the stated one and the distribution stay in the
    details, and `hallucination` keeps its stated flag with P(true) beside it.
    """
    if scores is None:
        return unscored(NAMES, reason or "no verdict", **(failure or {}))
    no_ctx = "no contexts" if not sample.contexts else None
    no_answer = "empty answer" if not sample.answer.strip() else None
    no_ref = "no reference answer" if not sample.references else None
    soft = soft or {}

    def one(name: str, value: float | bool | None, why: str | None) -> MetricResult:
        if why is not None or value is None:
            return MetricResult(name=S + name, value=None,
                                unscored_reason=why or "judge gave no value")
        reading = soft.get(name)
        if reading is None:
            return MetricResult(name=S + name, value=value)
        details = {"rating_mode": "expected", "stated": reading.greedy,
                   "distribution": reading.distribution, "mass": round(reading.mass, 4)}
        if reading.kind == "flag":
            return MetricResult(name=S + name, value=value,
                                details={**details, "p_true": reading.value})
        return MetricResult(name=S + name, value=reading.value, details=details)

    def rating(name: str, stated: float | None) -> float | None:
        reading = soft.get(name)
        return reading.value if reading is not None and stated is not None else stated

    cr = None if no_ctx else rating("context_relevance", scores.context_relevance)
    sim = None if no_ref else rating("answer_similarity", scores.answer_similarity)
    faith = None if (no_ctx or no_answer) else rating("faithfulness", scores.faithfulness)
    hall = None if (no_ctx or no_answer) else scores.hallucination
    overall, weights = overall_score(cr, sim, faith, None if hall is None else float(hall))
    results = [
        one("context_relevance", cr, no_ctx),
        one("answer_similarity", sim, no_ref),
        one("faithfulness", faith, no_ctx or no_answer),
        one("hallucination", hall, no_ctx or no_answer),
    ]
    if overall is None:
        results.append(MetricResult(name=S + "overall", value=None,
                                    unscored_reason="needs faithfulness and hallucination"))
    else:
        results.append(MetricResult(name=S + "overall", value=overall,
                                    details={"weights": weights}))
    return results


class JudgeSuite(Suite):
    name: ClassVar[str] = "judge"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS

    @classmethod
    def prompt_versions(cls) -> dict[str, str]:
        return {PROMPT.name: PROMPT.version}

    async def evaluate(self, sample: Sample, judge: Judge, options: SuiteOptions) -> Outcome:
        if not sample.contexts and not sample.references:
            return outcome(self.name, sample,
                           unscored(NAMES, "needs contexts or a reference answer"))
        contexts, cut = fit_contexts(sample.contexts, options.max_context_tokens)
        verdict = await judge.run(PROMPT, sample, {
            "question": sample.question,
            "contexts": number_contexts(contexts),
            "answer": sample.answer or "(empty answer)",
            "reference": " | ".join(sample.references) or "(none given)",
        })
        results = score_judge(sample, verdict.output,  # type: ignore[arg-type]
                              verdict.unscored_reason, verdict.failure_details(), verdict.soft)
        mode = verdict.flags.get("rating_mode")
        if mode:  # an LLM judge: say how each value was read
            extra = {"rating_mode": mode}
            if verdict.flags.get("rating_fallback"):
                extra["rating_fallback"] = verdict.flags["rating_fallback"]
            results = [r.model_copy(update={"details": {**extra, **r.details}})
                       if r.scored else r for r in results]
        if cut:
            results = [r.model_copy(update={"details": {**r.details, "context_truncated": True}})
                       for r in results]
        reasoning = getattr(verdict.output, "reasoning", None) if verdict.ok else None
        return outcome(self.name, sample, results, [verdict], reasoning)
