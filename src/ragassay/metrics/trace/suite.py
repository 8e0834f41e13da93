"""The `trace` suite: RAGBench's TRACe metrics (relevance, utilization, completeness,
adherence) from one sentence-labelling judge call per sample.

The contexts are split into keyed sentences (0a, 0b, 1a ...) and the answer into
a, b, ...; the judge names the relevant and the utilized context sentences and says
which answer sentences are supported. Pure functions in `formulas` turn the labels
into length-weighted scores.

When the contexts exceed `max_context_tokens`, the sentences past the cut are not
shown to the judge and count as neither relevant nor used (they stay in the
denominators), and the results carry `context_truncated`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from ragassay.judge import Flag, Judge, Unit, load_prompt
from ragassay.metrics.base import Outcome, Suite, SuiteOptions, outcome, unscored
from ragassay.metrics.trace.formulas import (
    adherence,
    adherence_ratio,
    completeness,
    length_share,
)
from ragassay.text import KeyedSentence, approx_tokens, key_answer, key_contexts
from ragassay.types import MetricResult, MetricSpec, Sample


def norm_key(value: Any) -> str:
    """'[0A].' -> '0a': judges decorate keys; compare them bare and lower-case."""
    return str(value).strip().strip("[]()<>'\"`*.,:;").strip().lower()


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
    probability: SkipJsonSchema[Unit | None] = None  # offline judge: P(supported)


class TraceLabels(BaseModel):
    """TRACe sentence labels for one sample."""

    # `relevance` / `utilization` (per context key) and `SentenceLabel.probability` are
    # hidden from the LLM's schema (the docstrings are sent to it too); the offline
    # judge fills them so that the scores can be soft.
    model_config = ConfigDict(extra="ignore")

    relevant_keys: Keys = Field(default_factory=list)
    utilized_keys: Keys = Field(default_factory=list)
    sentences: list[SentenceLabel] = Field(default_factory=list)
    overall_supported: Flag
    relevance: SkipJsonSchema[dict[str, Unit] | None] = None
    utilization: SkipJsonSchema[dict[str, Unit] | None] = None


def _offline(sample: Sample, evidence: Any, values: Any) -> TraceLabels:
    from ragassay.judge.offline import RELEVANCE_THRESHOLD, SUPPORT_THRESHOLD, USED_THRESHOLD

    ctx = [s.key for s in evidence.context_sentences]
    rel = dict(zip(ctx, evidence.relevance, strict=True))
    used = dict(zip(ctx, evidence.used, strict=True))
    sentences = [
        SentenceLabel(key=s.key, supported=p >= SUPPORT_THRESHOLD, supporting_keys=list(keys),
                      probability=p)
        for s, p, keys in zip(evidence.answer_sentences, evidence.support,
                              evidence.support_keys, strict=True)
    ]
    return TraceLabels(
        relevant_keys=[k for k, p in rel.items() if p >= RELEVANCE_THRESHOLD],
        utilized_keys=[k for k, p in used.items() if p >= USED_THRESHOLD],
        sentences=sentences,
        overall_supported=all(s.supported for s in sentences),
        relevance=rel,
        utilization=used,
    )


PROMPT = load_prompt(Path(__file__).with_name("labels.toml"), TraceLabels, offline=_offline)

S = "trace."
SPECS = (
    MetricSpec(name=S + "context_relevance",
               description="Share of the context (by length) relevant to the question"),
    MetricSpec(name=S + "context_utilization",
               description="Share of the context (by length) the answer uses"),
    MetricSpec(name=S + "completeness",
               description="Share of the relevant context (by length) the answer uses"),
    MetricSpec(name=S + "adherence",
               description="1 when every answer sentence is supported by the context, else 0"),
    MetricSpec(name=S + "adherence_ratio",
               description="Share of answer sentences supported by the context"),
)
NAMES = [s.name for s in SPECS]
ADHERENCE = [S + "adherence", S + "adherence_ratio"]


@dataclass
class CleanLabels:
    """Labels restricted to the sentences shown, as weights per key, plus what was dropped."""

    relevant: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    relevant_keys: list[str] = field(default_factory=list)
    used_keys: list[str] = field(default_factory=list)
    judged: list[SentenceLabel] = field(default_factory=list)
    unjudged: list[str] = field(default_factory=list)
    unknown_keys: int = 0
    soft_context: bool = False


def clean_labels(labels: TraceLabels, context: Sequence[KeyedSentence], shown: set[str],
                 answer: Sequence[KeyedSentence]) -> CleanLabels:
    """Drop keys that name no shown sentence (counting those that name none at all)."""
    all_keys = {s.key for s in context}
    out = CleanLabels()

    def keep(keys: Sequence[str]) -> list[str]:
        kept = []
        for k in dict.fromkeys(keys):
            if k in shown:
                kept.append(k)
            elif k not in all_keys:
                out.unknown_keys += 1
        return kept

    out.relevant_keys = keep(labels.relevant_keys)
    out.used_keys = keep(labels.utilized_keys) if answer else []
    rel, used = labels.relevance, labels.utilization if answer else {}
    if rel is not None and used is not None and shown <= rel.keys() and (
            not answer or shown <= used.keys()):
        out.relevant = {k: rel[k] for k in shown}
        out.used = {k: used[k] for k in shown if k in used}
        out.soft_context = True
    else:
        out.relevant = dict.fromkeys(out.relevant_keys, 1.0)
        out.used = dict.fromkeys(out.used_keys, 1.0)
    answer_keys = {s.key for s in answer}
    by_key: dict[str, SentenceLabel] = {}
    for lab in labels.sentences:
        if lab.key not in answer_keys:
            out.unknown_keys += 1
            continue
        by_key.setdefault(lab.key, lab.model_copy(
            update={"supporting_keys": keep(lab.supporting_keys)}))
    out.judged = [by_key[s.key] for s in answer if s.key in by_key]
    out.unjudged = [s.key for s in answer if s.key not in by_key]
    return out


def score_trace(context: Sequence[KeyedSentence], shown: set[str],
                answer: Sequence[KeyedSentence], labels: TraceLabels | None,
                reason: str | None = None,
                failure: dict[str, Any] | None = None) -> list[MetricResult]:
    """Turn the judge's labels into the five TRACe results (pure, no judge call)."""
    if labels is None:
        return unscored(NAMES, reason or "no verdict", **(failure or {}))
    c = clean_labels(labels, context, shown, answer)
    common: dict[str, Any] = {"unknown_keys": c.unknown_keys} if c.unknown_keys else {}
    soft = {"soft": True} if c.soft_context else {}
    results = []

    def add(name: str, value: float | None, why: str, **details: Any) -> None:
        d = {**common, **details}
        if value is None:
            results.append(MetricResult(name=S + name, value=None, unscored_reason=why,
                                        details=d))
        else:
            results.append(MetricResult(name=S + name, value=value, details=d))

    rel_keys = {"relevant_keys": c.relevant_keys}
    used_keys = {"used_keys": c.used_keys}
    add("context_relevance", length_share(context, c.relevant), "no context text",
        **rel_keys, **soft)
    add("context_utilization", length_share(context, c.used), "no context text",
        **used_keys, **soft)
    comp = completeness(context, c.relevant, c.used) if c.relevant_keys else None
    add("completeness", comp, "no relevant context sentences", **rel_keys, **used_keys, **soft)
    if not answer:
        results.extend(unscored(ADHERENCE, "empty answer", **common))
        return results
    text = {s.key: s.text for s in answer}
    unsupported = [{"key": lab.key, "text": text[lab.key]}
                   for lab in c.judged if not lab.supported]
    flags = [lab.supported for lab in c.judged]
    probs = [lab.probability for lab in c.judged]
    sent = {"unsupported": unsupported, "unjudged": c.unjudged,
            "overall_supported": labels.overall_supported}
    if not c.judged:
        adh = 1.0 if labels.overall_supported else 0.0
        add("adherence", adh, "", **sent, decided_by="overall_supported")
    else:
        add("adherence", adherence(flags, not c.unjudged, labels.overall_supported), "", **sent)
    ratio = adherence_ratio(flags, probs)
    add("adherence_ratio", ratio, "judge labelled no answer sentence", **sent,
        judged=len(c.judged),
        supporting_keys={lab.key: lab.supporting_keys for lab in c.judged},
        **({"soft": True} if ratio is not None and all(p is not None for p in probs) else {}))
    return results


def fit_sentences(context: Sequence[KeyedSentence], max_tokens: int
                  ) -> tuple[list[KeyedSentence], bool]:
    """The leading sentences that fit the token budget (the last may be cut, marked [...])."""
    shown: list[KeyedSentence] = []
    budget = max_tokens
    for s in context:
        need = approx_tokens(s.text) + 2
        if need <= budget:
            shown.append(s)
            budget -= need
            continue
        if budget > 50:
            shown.append(s._replace(text=s.text[: (budget - 2) * 4] + " [...]"))
        return shown, True
    return shown, False


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

    @classmethod
    def prompt_versions(cls) -> dict[str, str]:
        return {PROMPT.name: PROMPT.version}

    def applicable(self, sample: Sample) -> bool:
        return bool(sample.contexts)

    async def evaluate(self, sample: Sample, judge: Judge, options: SuiteOptions) -> Outcome:
        context = key_contexts(sample.contexts)
        if not context:
            return outcome(self.name, sample, unscored(NAMES, "no contexts"))
        answer = key_answer(sample.answer)
        shown, cut = fit_sentences(context, options.max_context_tokens)
        if not shown:
            return outcome(self.name, sample, unscored(
                NAMES, "no context sentence fits max_context_tokens", context_truncated=True))
        verdict = await judge.run(PROMPT, sample, {
            "question": sample.question,
            "contexts": render_keyed(shown),
            "answer": render_keyed(answer) or "(empty answer)",
        })
        results = score_trace(context, {s.key for s in shown}, answer,
                              verdict.output,  # type: ignore[arg-type]
                              verdict.unscored_reason, verdict.failure_details())
        if cut:
            extra = {"context_truncated": True, "sentences_shown": len(shown),
                     "sentences_total": len(context)}
            results = [r.model_copy(update={"details": {**r.details, **extra}})
                       for r in results]
        return outcome(self.name, sample, results, [verdict])
