"""The `judge` suite: context relevance, answer similarity, faithfulness (1-10),
hallucination (bool) and overall, from one judge call per sample."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from ragassay.judge import Asker, Flag, Reasoning, Score10, SoftValue, Verdict, load_prompt
from ragassay.judge.offline import (
    HALLUCINATION_THRESHOLD,
    REFERENCE_MATCH_THRESHOLD,
    RELEVANCE_THRESHOLD,
    Evidence,
)
from ragassay.metrics.base import (
    CORRECT,
    RELEVANT,
    SUPPORTED,
    UNSUPPORTED,
    Outcome,
    Suite,
    SuiteOptions,
    abstain,
    judge_line,
    number_contexts,
    outcome,
    unscored,
    with_truncated,
)
from ragassay.text import KeyedSample
from ragassay.types import (
    EMPTY_ANSWER,
    NO_CONTEXTS,
    NO_CONTEXTS_OR_REFERENCE,
    NO_REFERENCE,
    Composite,
    JudgeFailure,
    MetricResult,
    MetricSpec,
    RatingReading,
    Rule,
    Sample,
    Target,
    at_least,
    below,
)


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
    abstains: Flag = False
    context_has_answer: Flag | None = None
    reasoning: Reasoning = ""

    def abstention(self) -> str | None:
        """The answer's abstention outcome (`types.MetricResult.abstention`), or None."""
        if not self.abstains:
            return None
        return ("unknown" if self.context_has_answer is None
                else "false" if self.context_has_answer else "correct")


PROMPT = load_prompt(Path(__file__).with_name("scores.toml"), JudgeScores)

S = "judge."
OVERALL = Composite(
    weights={S + "context_relevance": 0.3, S + "answer_similarity": 0.4,
             S + "faithfulness": 0.3},
    penalty=S + "hallucination",
    required=(S + "faithfulness",),
)
"""The scoring guide's composite: (0.3 CR + 0.4 AS + 0.3 F) x (1 - hallucination), the
weights of the parts present rescaled to sum to 1 (answer similarity needs a reference)."""
OVERALL_WEIGHTS = {k.removeprefix(S): w for k, w in OVERALL.weights.items()}

EQUIVALENCE = 0.25
"""The practical-equivalence margin of the ten-point ratings: a quarter point (the
hallucination rate's is three percentage points)."""

SUPPORTED_ANSWER = (at_least(S + "faithfulness", 0.7), below(S + "hallucination", 0.5))
"""An answer its contexts support: faithful (7.3 or more on 1-10, the bar
`reference_mismatch` reads as faithful) and not flagged a hallucination."""

RETRIEVAL_PROBLEM = Rule(
    name="retrieval_problem", conditions=(below(S + "context_relevance", 0.5),),
    unless=SUPPORTED_ANSWER,
    message="Retrieval problem: the retrieved context is judged mostly irrelevant.",
    fix="Improve retrieval: embeddings, chunking, hybrid search, reranking, top-k.")
"""Context relevance below the middle of its range, unless the answer is one the contexts
support (`SUPPORTED_ANSWER`): then retrieval found what the answer needed, whatever the
relevance rating says (issue #38: on 128 probes whose contexts answer them, the offline
judge's relevance, Spearman 0.25 held apart, blamed retrieval on 59). An answer that
abstained or was flagged clears nothing: no evidence that retrieval found the answer."""

LINES = {S + "context_relevance": RELEVANCE_THRESHOLD,
         S + "answer_similarity": REFERENCE_MATCH_THRESHOLD,
         S + "faithfulness": HALLUCINATION_THRESHOLD}
"""The offline judge's own line for each rating, a probability: 5.5 on 1-10 (it flags a
hallucination below faithfulness 5.5). The ratings' soft targets (`judge_line`)."""
OVERALL_LINE = OVERALL.combine({**LINES, S + "hallucination": 0.0})[0]
"""`overall` with every part at its line and no hallucination: its soft target's `good`,
on the parts' 1-10."""

SPECS = (
    MetricSpec(
        name=S + "context_relevance", low=1, high=10, target=Target(good=8, warning=6),
        soft_target=judge_line(LINES[S + "context_relevance"], 1, 10),
        labels=RELEVANT, equivalence=EQUIVALENCE,
        description="Do the retrieved chunks help answer the question? (1-10)",
        rules=(RETRIEVAL_PROBLEM,)),
    MetricSpec(
        name=S + "answer_similarity", low=1, high=10, target=Target(good=8, warning=6),
        soft_target=judge_line(LINES[S + "answer_similarity"], 1, 10),
        labels=CORRECT, equivalence=EQUIVALENCE,
        description="How close is the answer to the reference? (1-10)",
        rules=(Rule(name="reference_mismatch",
                    conditions=(below(S + "answer_similarity", 0.5),
                                at_least(S + "faithfulness", 0.7)),
                    message="The answer is faithful to the context yet far from the reference: "
                    "a retrieval gap (the passage holding the reference answer is missing) or "
                    "a wrong reference.",
                    fix="Check retrieval recall for these questions and verify the "
                    "references."),)),
    MetricSpec(name=S + "faithfulness", low=1, high=10, target=Target(good=9, warning=7),
               soft_target=judge_line(LINES[S + "faithfulness"], 1, 10),
               headline=20, labels=SUPPORTED, equivalence=EQUIVALENCE,
               description="Is the answer based on the context? (1-10)"),
    MetricSpec(
        name=S + "hallucination", low=0, high=1, kind="bool", higher_is_better=False,
        target=Target(good=0.1, warning=0.2), headline=30, labels=UNSUPPORTED,
        equivalence=0.03,
        description="Does the answer contain information not in the context?",
        rules=(Rule(name="hallucination_despite_good_context",
                    conditions=(at_least(S + "hallucination", 0.5),
                                at_least(S + "context_relevance", 0.7)),
                    message="The model adds unsupported information despite relevant context.",
                    fix="Constrain the generator to the context (prompt, lower temperature, "
                    "citations)."),)),
    MetricSpec(name=S + "overall", low=0, high=10, headline=10, rank=1, composite=OVERALL,
               soft_target=judge_line(OVERALL_LINE, 1, 10),
               equivalence=EQUIVALENCE,
               description="(0.3 CR + 0.4 AS + 0.3 F) x (1 - hallucination)"),
)
NAMES = [s.name for s in SPECS]
ANSWER_METRICS = (S + "answer_similarity", S + "faithfulness", S + "hallucination",
                  S + "overall")
"""What an answer that declines abstains on (context relevance needs no answer); the
hallucination penalty applies only to answers that made claims."""
LLM_BASIS = "judge: abstains, context_has_answer"


def overall_score(context_relevance: float | None, answer_similarity: float | None,
                  faithfulness: float | None, hallucination_rate: float | None
                  ) -> tuple[float | None, dict[str, float]]:
    """`OVERALL` for one sample's parts; returns (value, weights used by short name)."""
    value, weights = OVERALL.combine({
        S + "context_relevance": context_relevance, S + "answer_similarity": answer_similarity,
        S + "faithfulness": faithfulness, S + "hallucination": hallucination_rate})
    return value, {k.removeprefix(S): w for k, w in weights.items()}


def offline_scores(evidence: Evidence) -> JudgeScores:
    """The judge suite's verdict from the offline judge's evidence."""
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


def offline_p_hallucinated(evidence: Evidence) -> float | None:
    """P(the answer says something the contexts do not support) as the offline judge's
    calibrated support model gives it: 1 - its probability that the answer is faithful.
    Kept as the hallucination flag's `p_true`, like an LLM's token probability: a routing
    cascade reads it as the offline judge's confidence in its verdict."""
    faith = evidence.faithfulness
    return None if faith is None else round(1.0 - faith, 6)


def _with_p_true(results: list[MetricResult], p: float | None) -> list[MetricResult]:
    if p is None:
        return results
    return [r.model_copy(update={"details": {**r.details, "p_true": p}})
            if r.name == S + "hallucination" and r.scored else r for r in results]


def _soft_result(name: str, value: float | bool, reading: SoftValue | None) -> MetricResult:
    """One scored value; with a soft reading a rating's value is its expected rating (the
    stated one and the distribution in its `rating`), a flag keeps its stated value with
    P(true) beside it."""
    if reading is None:
        return MetricResult(name=S + name, value=value)
    rating = RatingReading(mode="expected", stated=reading.greedy,
                           distribution=reading.distribution, mass=round(reading.mass, 4))
    if reading.kind == "flag":
        return MetricResult(name=S + name, value=value,
                            rating=rating.model_copy(update={"p_true": reading.value}))
    return MetricResult(name=S + name, value=reading.value, rating=rating)


def score_judge(sample: Sample, scores: JudgeScores | None, reason: str | None = None,
                failure: JudgeFailure | None = None,
                soft: Mapping[str, SoftValue] | None = None) -> list[MetricResult]:
    """Turn the judge's reply into metric results, unscoring what the inputs don't allow.

    With `soft` readings (probability-weighted, see `ragassay.judge.soft`) each rating's
    value, and so `overall`, is its expected rating.
    """
    no_ctx = NO_CONTEXTS if not any(c.strip() for c in sample.contexts) else None
    no_answer = EMPTY_ANSWER if not sample.answer.strip() else None
    no_ref = NO_REFERENCE if not sample.references else None
    if scores is None:  # a metric its inputs rule out says so, whatever the reply was
        missing = {S + "context_relevance": no_ctx, S + "answer_similarity": no_ref or no_answer}
        out: list[MetricResult] = []
        for n in NAMES:
            why = missing.get(n, no_ctx or no_answer)
            out += (unscored([n], why) if why is not None
                    else unscored([n], reason or "no verdict", failure=failure))
        return out
    soft = soft or {}

    def one(name: str, value: float | bool | None, why: str | None) -> MetricResult:
        if why is not None or value is None:
            return MetricResult(name=S + name, value=None,
                                unscored_reason=why or "judge gave no value")
        return _soft_result(name, value, soft.get(name))

    def rating(name: str, stated: float | None) -> float | None:
        reading = soft.get(name)
        return reading.value if reading is not None and stated is not None else stated

    cr = None if no_ctx else rating("context_relevance", scores.context_relevance)
    sim = None if (no_ref or no_answer) else rating("answer_similarity", scores.answer_similarity)
    faith = None if (no_ctx or no_answer) else rating("faithfulness", scores.faithfulness)
    hall = None if (no_ctx or no_answer) else scores.hallucination
    overall, weights = overall_score(cr, sim, faith, None if hall is None else float(hall))
    results = [
        one("context_relevance", cr, no_ctx),
        one("answer_similarity", sim, no_ref or no_answer),
        one("faithfulness", faith, no_ctx or no_answer),
        one("hallucination", hall, no_ctx or no_answer),
    ]
    if overall is None:  # for want of an input when its parts are, else a failure
        why = no_ctx or no_answer or "needs faithfulness and hallucination"
        results.append(MetricResult(name=S + "overall", value=None, unscored_reason=why))
    else:
        results.append(MetricResult(name=S + "overall", value=overall,
                                    details={"weights": weights}))
    return results


def _said(read: RatingReading | None, said: RatingReading) -> RatingReading:
    """A value's own reading (its soft reading), with the verdict's fallback reason; or
    what the verdict says of how it was read."""
    return said if read is None else read.model_copy(update={"fallback": said.fallback})


class JudgeSuite(Suite):
    name: ClassVar[str] = "judge"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS
    prompts = (PROMPT,)

    @staticmethod
    def _missing(item: KeyedSample) -> str | None:
        # blank strings are no contexts ([""] reads as []), as in the trace suite
        return None if item.all_contexts or item.sample.references else NO_CONTEXTS_OR_REFERENCE

    @staticmethod
    def _finish(item: KeyedSample, results: list[MetricResult]) -> list[MetricResult]:
        return with_truncated(results, item)

    @staticmethod
    def _reading_mode(verdict: Verdict, results: list[MetricResult]) -> list[MetricResult]:
        """An LLM judge's scored values say how they were read (expected or greedy, and
        why greedy when probabilities were asked for): `MetricResult.rating`."""
        said = verdict.rating_reading()
        if said is None:
            return results
        return [r.model_copy(update={"rating": _said(r.rating, said)}) if r.scored else r
                for r in results]

    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions) -> Outcome:
        sample = item.sample
        if (why := self._missing(item)) is not None:
            return outcome(self.name, sample, unscored(NAMES, why))
        verdict = await judge.ask(PROMPT, {
            "question": item.question,
            "contexts": number_contexts(item.documents),
            "answer": item.answer_text or "(empty answer)",
            "reference": " | ".join(sample.references) or "(none given)",
        })
        scores = verdict.output if isinstance(verdict.output, JudgeScores) else None
        results = self._reading_mode(verdict, score_judge(
            sample, scores, verdict.unscored_reason, verdict.failure(), verdict.soft))
        if scores is not None:
            results = abstain(results, ANSWER_METRICS, scores.abstention(), LLM_BASIS)
        return outcome(self.name, sample, self._finish(item, results), [verdict],
                       scores.reasoning if scores is not None else None)

    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        sample = item.sample
        if (why := self._missing(item)) is not None:
            return outcome(self.name, sample, unscored(NAMES, why))
        scores = offline_scores(evidence)
        results = _with_p_true(score_judge(sample, scores), offline_p_hallucinated(evidence))
        results = abstain(results, ANSWER_METRICS, evidence.abstention(),
                          evidence.abstention_basis)
        return outcome(self.name, sample, self._finish(item, results),
                       reasoning=scores.reasoning)
