"""The `trace` suite: RAGBench's TRACe metrics (relevance, utilization, completeness,
adherence) from one sentence-labelling judge call per sample.

The contexts are split into keyed sentences (0a, 0b, 1a ...) and the answer into
a, b, ...; the judge names the relevant and the utilized context sentences and says
which answer sentences are supported. Both judges end in a `TraceVerdict` (the LLM's
labels cleaned against the keys shown; the offline judge's probabilities), and pure
functions in `formulas` turn it into length-weighted scores.

When the contexts exceed the token budget, the sentences past the cut are not shown to
the judge and count as neither relevant nor used (they stay in the denominators), and
the results name the texts cut (`MetricResult.truncated`). Context relevance needs no
answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from ragassay.judge import Asker, Flag, SoftValue, load_prompt
from ragassay.judge.offline import (
    RELEVANCE_THRESHOLD,
    SUPPORT_THRESHOLD,
    USED_THRESHOLD,
    Evidence,
)
from ragassay.judge.scales import EXPECT, NAMES_NOTHING, expected
from ragassay.metrics.base import (
    RELEVANT,
    SUPPORTED,
    Outcome,
    Suite,
    SuiteOptions,
    abstain,
    judge_line,
    outcome,
    unscored,
    with_details,
    with_truncated,
)
from ragassay.metrics.formulas import is_soft, share
from ragassay.metrics.trace.formulas import adherence, completeness, length_share
from ragassay.text import KeyedSample, KeyedSentence, norm_key
from ragassay.types import (
    EMPTY_ANSWER,
    NO_CONTEXTS,
    MetricResult,
    MetricSpec,
    Rule,
    Sample,
    SentenceMarks,
    at_least,
    below,
)


def _keys(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = value.replace(";", ",").split(",")
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of sentence keys, got {value!r}")
    return [k for k in (norm_key(v) for v in value) if k]


Keys = Annotated[list[str], BeforeValidator(_keys)]
"""A list of sentence keys; also accepts "0a, 0b" and decorated keys like "[0a]"."""


class SentenceLabel(BaseModel):
    """One answer sentence: supported by the context or not, and by which sentences."""

    model_config = ConfigDict(extra="ignore")

    key: Annotated[str, BeforeValidator(norm_key)]
    supported: Flag
    supporting_keys: Keys = Field(default_factory=list)


def _names_nothing(what: str, named: Sequence[str], known: str) -> PydanticCustomError:
    return PydanticCustomError(NAMES_NOTHING, "{what}: {named}; {known}", {
        "what": what, "named": ", ".join(named[:5]), "known": known})


class TraceLabels(BaseModel):
    """TRACe sentence labels for one sample. In a reply (`scales.reply_context`), a key
    list whose every key names no sentence shown ("9z"), or sentence labels that judge
    none of the answer's sentences, are an invalid reply (`NAMES_NOTHING`), never a 0;
    an empty key list is a judgment (nothing relevant), and a list with some known keys
    is scored on those (the others counted in `details.unknown_keys`)."""

    model_config = ConfigDict(extra="ignore")

    relevant_keys: Keys = Field(default_factory=list)
    utilized_keys: Keys = Field(default_factory=list)
    sentences: list[SentenceLabel] = Field(default_factory=list)
    overall_supported: Flag
    abstains: Flag = False

    @field_validator("relevant_keys", "utilized_keys")
    @classmethod
    def _names_a_context_sentence(cls, keys: list[str], info: ValidationInfo) -> list[str]:
        shown = expected(info).get("context_keys")
        if shown and keys and not any(k in shown for k in keys):
            raise _names_nothing("every key names no context sentence shown", keys,
                                 f"the keys are {shown[0]}-{shown[-1]}")
        return keys

    @field_validator("sentences")
    @classmethod
    def _judges_an_answer_sentence(cls, labels: list[SentenceLabel], info: ValidationInfo
                                   ) -> list[SentenceLabel]:
        answer = expected(info).get("answer_keys")
        if answer and not any(lab.key in answer for lab in labels):
            raise _names_nothing("the reply judges none of the answer's sentences",
                                 [lab.key for lab in labels] or ["none"],
                                 f"the answer's keys are {', '.join(answer)}")
        return labels


PROMPT = load_prompt(Path(__file__).with_name("labels.toml"), TraceLabels)


@dataclass(frozen=True)
class SentenceVerdict:
    """One judged answer sentence; `probability` when the judge gives one (the offline
    judge, or an LLM judge's P(supported) from token probabilities)."""

    key: str
    supported: bool
    supporting_keys: tuple[str, ...] = ()
    probability: float | None = None


@dataclass
class TraceVerdict:
    """What both judges end in: weights per shown context key (1/0 labels, or
    probabilities when the judge gives one for every shown sentence), the hard labels,
    and the judged answer sentences in answer order."""

    relevant: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    relevant_keys: list[str] = field(default_factory=list)
    used_keys: list[str] = field(default_factory=list)
    judged: list[SentenceVerdict] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)
    overall_supported: bool = True
    unknown_keys: int = 0
    soft_context: bool = False


S = "trace."
EQUIVALENCE = 0.025
"""The practical-equivalence margin of the shares (adherence, a 0/1 rate: 0.03)."""
UNSUPPORTED_SENTENCES = Rule(
    name="unsupported_sentences", conditions=(below(S + "adherence_ratio", 0.8),),
    unless=(at_least(S + "adherence", 0.5),),
    message="Adherence failures: the judge calls answer sentences unsupported by the "
    "context, and the answer's share of supported sentences (with a judge that gives "
    "probabilities, their mean support) is below 0.8.",
    fix="Instruct the model to answer only from the context and to say when it cannot.")
"""Adherence ratio below 0.8, unless the judge calls every answer sentence supported
(trace.adherence = yes): under the offline judge the ratio is a mean probability, a
supported sentence's 0.5-1, so `< 0.8` alone fired on answers the same verdicts call
fully supported (trial 65: 117 of 130 samples, 37 of them one-sentence answers adherence
passed). Cleared so, it fires only where the verdicts find an unsupported sentence
(`answer_not_adherent`): on those whose answers are least supported."""

SPECS = (
    MetricSpec(
        name=S + "context_relevance", headline=50, labels=RELEVANT, equivalence=EQUIVALENCE,
        soft_target=judge_line(RELEVANCE_THRESHOLD),
        description="Share of the context (by length) relevant to the question",
        rules=(Rule(name="retrieval_noise", conditions=(below(S + "context_relevance", 0.3),),
                    message="Retrieval noise: most of the retrieved context is irrelevant to "
                    "the question.",
                    fix="Lower top-k, rerank, or use smaller / better-bounded chunks."),)),
    MetricSpec(
        name=S + "context_utilization", headline=60, equivalence=EQUIVALENCE,
        soft_target=judge_line(USED_THRESHOLD),
        description="Share of the context (by length) the answer uses",
        rules=(Rule(name="evidence_underused",
                    conditions=(at_least(S + "context_relevance", 0.5),
                                below(S + "context_utilization", 0.3)),
                    message="The generator underuses retrieved evidence: relevant context is "
                    "retrieved but little of it is used in the answer.",
                    fix="Prompt the model to use all relevant passages; check context ordering "
                    "and length."),)),
    MetricSpec(
        name=S + "completeness", headline=70, equivalence=EQUIVALENCE,
        soft_target=judge_line(USED_THRESHOLD),
        description="Share of the relevant context (by length) the answer uses",
        rules=(Rule(name="incomplete_answer",
                    conditions=(at_least(S + "context_relevance", 0.5),
                                below(S + "completeness", 0.5)),
                    message="The answer is incomplete: it leaves out much of the relevant "
                    "retrieved information.",
                    fix="Ask for complete answers covering every relevant passage; raise max "
                    "tokens."),)),
    MetricSpec(
        name=S + "adherence", headline=40, labels=SUPPORTED, equivalence=0.03, verdict=True,
        description="1 when every answer sentence is supported by the context, else 0",
        rules=(Rule(name="answer_not_adherent", conditions=(below(S + "adherence", 0.5),),
                    message="Adherence failure: the answer is not fully supported by the "
                    "context.",
                    fix="Instruct the model to answer only from the context and to say when "
                    "it cannot."),)),
    MetricSpec(
        name=S + "adherence_ratio", rank=3, labels=SUPPORTED, equivalence=EQUIVALENCE,
        soft_target=judge_line(SUPPORT_THRESHOLD),
        description="Share of answer sentences supported by the context",
        rules=(UNSUPPORTED_SENTENCES,)),
)
NAMES = [s.name for s in SPECS]
ADHERENCE = [S + "adherence", S + "adherence_ratio"]
ANSWER_METRICS = (S + "context_utilization", S + "completeness", *ADHERENCE)
"""What an answer that declines abstains on (context relevance needs no answer)."""
LLM_BASIS = "judge: abstains, relevant context sentences"


def llm_abstention(labels: TraceLabels, verdict: TraceVerdict) -> str | None:
    """An LLM judge's abstention outcome: "false" when it found context sentences
    relevant to the question (they hold what the answer declined), else "correct"."""
    if not labels.abstains:
        return None
    return "false" if verdict.relevant_keys else "correct"


def clean_labels(labels: TraceLabels, item: KeyedSample,
                 soft: Mapping[str, SoftValue] | None = None) -> TraceVerdict:
    """The LLM's labels restricted to the sentences shown, as 1/0 weights per key; keys
    that name no sentence at all are counted. `soft` (the judge's token-probability
    readings) gives each sentence its P(supported)."""
    all_keys = {s.key for s in item.all_contexts}
    shown = item.shown_keys
    out = TraceVerdict(overall_supported=labels.overall_supported)

    def keep(keys: Sequence[str]) -> list[str]:
        kept = []
        for k in dict.fromkeys(keys):
            if k in shown:
                kept.append(k)
            elif k not in all_keys:
                out.unknown_keys += 1
        return kept

    out.relevant_keys = keep(labels.relevant_keys)
    out.used_keys = keep(labels.utilized_keys) if item.answer else []
    out.relevant = dict.fromkeys(out.relevant_keys, 1.0)
    out.used = dict.fromkeys(out.used_keys, 1.0)
    answer_keys = {s.key for s in item.answer}
    by_key: dict[str, SentenceVerdict] = {}
    for i, lab in enumerate(labels.sentences):
        if lab.key not in answer_keys:
            out.unknown_keys += 1
            continue
        reading = (soft or {}).get(f"sentences.{i}.supported")
        by_key.setdefault(lab.key, SentenceVerdict(
            lab.key, lab.supported, tuple(keep(lab.supporting_keys)),
            reading.value if reading is not None and reading.kind == "flag" else None))
    out.judged = [by_key[s.key] for s in item.answer if s.key in by_key]
    out.unjudged = [s.key for s in item.answer if s.key not in by_key]
    return out


BEST_SENTENCE_BAR = RELEVANCE_THRESHOLD ** 1.5
"""What the most relevant context sentence must reach to count as relevant when none
reaches RELEVANCE_THRESHOLD (`offline_relevant_keys`): 0.354, the relevance of the best
sentence of a passage at the balanced cut whose own score is at the cut too."""


def offline_relevant_keys(relevant: Mapping[str, float]) -> list[str]:
    """The context sentences the offline judge's relevance counts as relevant (what
    completeness rests on, and marks): those at RELEVANCE_THRESHOLD; when none is, the
    most relevant one if it reaches BEST_SENTENCE_BAR. A sentence's relevance is its
    passage's times the square root of its own score (`judge.offline.relevance`), a
    product of two figures each with its balanced cut at 0.5, so a passage at its cut
    gives its best sentence, at its cut too, 0.5 x sqrt(0.5): the bar of 0.5 on the
    product is stricter than either cut (trial 63: completeness unscored, "no relevant
    context sentences", on 15 of 144 rows whose short passages answer their question in
    other words, their best sentence at 0.37-0.49). Only the best sentence is let in: an
    unrelated sentence of a relevant passage still does not count."""
    keys = [k for k, p in relevant.items() if p >= RELEVANCE_THRESHOLD]
    if keys or not relevant:
        return keys
    best = max(relevant, key=lambda k: relevant[k])
    return [best] if relevant[best] >= BEST_SENTENCE_BAR else []


def offline_verdict(item: KeyedSample, evidence: Evidence) -> TraceVerdict:
    """The offline judge's probabilities for every shown sentence (soft weights)."""
    keys = [s.key for s in evidence.context_sentences]
    relevant = dict(zip(keys, evidence.relevance, strict=True))
    used = dict(zip(keys, evidence.used, strict=True)) if item.answer else {}
    judged = [
        SentenceVerdict(s.key, p >= SUPPORT_THRESHOLD, tuple(k), p)
        for s, p, k in zip(evidence.answer_sentences, evidence.support, evidence.support_keys,
                           strict=True)
    ]
    return TraceVerdict(
        relevant=relevant, used=used,
        relevant_keys=offline_relevant_keys(relevant),
        used_keys=[k for k, p in used.items() if p >= USED_THRESHOLD],
        judged=judged, overall_supported=all(j.supported for j in judged),
        soft_context=True,
    )


def score_trace(item: KeyedSample, verdict: TraceVerdict) -> list[MetricResult]:
    """The five TRACe results from a verdict (pure, no judge call)."""
    context, answer = item.all_contexts, item.answer
    common: dict[str, Any] = {"unknown_keys": verdict.unknown_keys} if verdict.unknown_keys \
        else {}
    soft = {"soft": True} if verdict.soft_context else {}
    results = []

    def add(name: str, value: float | None, why: str, marks: SentenceMarks,
            **details: Any) -> None:
        d = {**common, **details}
        if value is None:
            results.append(MetricResult(name=S + name, value=None, unscored_reason=why,
                                        details=d, marks=marks or None))
        else:
            results.append(MetricResult(name=S + name, value=value, details=d,
                                        marks=marks or None))

    relevant = SentenceMarks(relevant=tuple(verdict.relevant_keys))
    used = SentenceMarks(used=tuple(verdict.used_keys))
    add("context_relevance", length_share(context, verdict.relevant), "no context text",
        relevant, **soft)
    if not answer:  # what the answer used of the context, and adherence, need an answer
        results.extend(unscored((S + "context_utilization", S + "completeness", *ADHERENCE),
                                EMPTY_ANSWER, **common))
        return results
    add("context_utilization", length_share(context, verdict.used), "no context text",
        used, **soft)
    comp = (completeness(context, verdict.relevant, verdict.used) if verdict.relevant_keys
            else None)
    both = SentenceMarks(relevant=relevant.relevant, used=used.used)
    add("completeness", comp, "no relevant context sentences", both, **soft)
    judged = verdict.judged
    unsupported = SentenceMarks(unsupported=tuple(j.key for j in judged if not j.supported))
    flags = [j.supported for j in judged]
    probs = [j.probability for j in judged]
    sent = {"unjudged": verdict.unjudged, "overall_supported": verdict.overall_supported}
    if not judged:
        adh = 1.0 if verdict.overall_supported else 0.0
        add("adherence", adh, "", unsupported, **sent, decided_by="overall_supported")
    else:
        add("adherence", adherence(flags, not verdict.unjudged, verdict.overall_supported), "",
            unsupported, **sent)
    add("adherence_ratio", share(flags, probs), "judge labelled no answer sentence",
        unsupported, **sent,
        judged=len(judged),
        supporting_keys={j.key: list(j.supporting_keys) for j in judged},
        **({"soft": True} if is_soft(flags, probs) else {}))
    return results


def render_keyed(sentences: Sequence[KeyedSentence]) -> str:
    """One "key: text" line per sentence; a blank line between context documents."""
    lines: list[str] = []
    for i, s in enumerate(sentences):
        if i and s.doc >= 0 and s.doc != sentences[i - 1].doc:
            lines.append("")
        lines.append(f"{s.key}: {s.text}")
    return "\n".join(lines)


class TraceSuite(Suite):
    name: ClassVar[str] = "trace"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS
    prompts = (PROMPT,)

    def applicable(self, sample: Sample) -> bool:
        return bool(sample.contexts)

    @staticmethod
    def _missing(item: KeyedSample) -> list[MetricResult] | None:
        if not item.all_contexts:
            return unscored(NAMES, NO_CONTEXTS)
        if not item.contexts:
            return unscored(NAMES, "no context sentence fits max_context_tokens",
                            truncated=sorted(item.truncated))
        return None

    @staticmethod
    def _finish(item: KeyedSample, results: list[MetricResult]) -> list[MetricResult]:
        results = with_truncated(results, item)
        if not item.context_truncated:
            return results
        return with_details(results, {"sentences_shown": len(item.contexts),
                                      "sentences_total": len(item.all_contexts)})

    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions) -> Outcome:
        if (missing := self._missing(item)) is not None:
            return outcome(self.name, item.sample, missing)
        verdict = await judge.ask(PROMPT, {
            "question": item.question,
            "contexts": render_keyed(item.contexts),
            "answer": render_keyed(item.answer) or "(empty answer)",
            EXPECT: {"context_keys": [s.key for s in item.contexts],
                     "answer_keys": [s.key for s in item.answer]},
        })
        if isinstance(verdict.output, TraceLabels):
            cleaned = clean_labels(verdict.output, item, verdict.soft)
            results = abstain(score_trace(item, cleaned), ANSWER_METRICS,
                              llm_abstention(verdict.output, cleaned), LLM_BASIS)
        else:
            results = unscored(NAMES, verdict.unscored_reason or "no verdict",
                               failure=verdict.failure())
        return outcome(self.name, item.sample, self._finish(item, results), [verdict])

    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        if (missing := self._missing(item)) is not None:
            return outcome(self.name, item.sample, missing)
        results = abstain(score_trace(item, offline_verdict(item, evidence)), ANSWER_METRICS,
                          evidence.abstention(), evidence.abstention_basis)
        return outcome(self.name, item.sample, self._finish(item, results))
