"""The `citations` suite: does each cited passage support its sentence, does every claim
cite one, and does any marker point at nothing?

1. The answer's citation markers, parsed where the sample is keyed (`text.markers`, the
   grammar every suite shares: they read the answer without them), map onto the
   sample's contexts; fabricated and unreadable markers are reported per sample.
2. A sentence that quotes every passage it cites (verbatim or near-verbatim,
   `formulas.quotes`) is supported without a judge.
3. The rest: the offline judge's support model over the cited passages only
   (`checks.offline_checks`), or ONE LLM call per sample with every sentence and its
   citations (`citations.check`).

Both judges end in `SentenceCheck`s, which `formulas.score_citations` turns into
citations.recall, citations.precision and citations.fabricated.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ragassay.judge import Asker, Flag, Verdict, item_number, load_prompt
from ragassay.judge.offline import Evidence
from ragassay.metrics.base import (
    Outcome,
    Suite,
    SuiteOptions,
    outcome,
    unscored,
    with_truncated,
)
from ragassay.metrics.citations.checks import FirstPass, offline_checks, quote_check
from ragassay.metrics.citations.formulas import (
    S,
    SentenceCheck,
    fabricated_result,
    score_citations,
)
from ragassay.text import KeyedSample, ParsedAnswer, norm_key
from ragassay.types import (
    EMPTY_ANSWER,
    NO_CONTEXTS,
    MetricResult,
    MetricSpec,
    Rule,
    Target,
    at_least,
    below,
)


class CitationLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    passage: Annotated[int, item_number("passage")]
    relevant: Flag


class SentenceLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    key: Annotated[str, BeforeValidator(norm_key)]
    needs_citation: Flag
    supported: Flag = False
    citations: list[CitationLabel] = Field(default_factory=list)


class CitationLabels(BaseModel):
    """Per answer sentence: needs a citation, supported by its citations, each relevant."""

    model_config = ConfigDict(extra="ignore")

    sentences: list[SentenceLabel]


CHECK = load_prompt(Path(__file__).with_name("check.toml"), CitationLabels)


def _miscited(name: str, faithfulness: str) -> Rule:
    """High faithfulness (of a suite run beside this one) with low citation precision."""
    return Rule(name=name,
                conditions=(below(S + "precision", 0.7), at_least(faithfulness, 0.8)),
                message="The answer is grounded but cites the wrong passages: it is faithful "
                "to the context, yet its citations do not support its sentences.",
                fix="Cite by passage id after generation (post-hoc attribution), or number "
                "the passages in the prompt exactly as the citations should name them.")


EQUIVALENCE = 0.025
"""The practical-equivalence margin of the shares (fabricated citations: 0.01)."""
_CITE = "Instruct the model to cite, after each factual sentence, the passage it took it from."
SPECS = (
    MetricSpec(
        name=S + "recall", gate=True, equivalence=EQUIVALENCE, headline=110,
        target=Target(good=0.9, warning=0.7),
        description="Share of answer sentences that need a citation and are supported by "
        "the passages they cite",
        rules=(Rule(name="uncited_claims", conditions=(below(S + "recall", 0.7),),
                    message="Claims go uncited, or their citations do not support them.",
                    fix=_CITE),)),
    MetricSpec(
        name=S + "precision", gate=True, equivalence=EQUIVALENCE, headline=120,
        target=Target(good=0.9, warning=0.7),
        description="Share of citations that support their sentence (ALCE's irrelevant-"
        "citation rule)",
        rules=tuple(_miscited(name, faithfulness) for name, faithfulness in (
            ("grounded_but_miscited", "ragas.faithfulness"),
            ("grounded_but_miscited_judge", "judge.faithfulness")))),
    MetricSpec(
        name=S + "fabricated", gate=True, equivalence=0.01, higher_is_better=False,
        target=Target(good=0.0, warning=0.05),
        description="Share of citations that point at no retrieved passage",
        rules=(Rule(name="fabricated_citations", conditions=(at_least(S + "fabricated", 0.01),),
                    message="Citations point at passages that were never retrieved.",
                    fix="Number the passages in the prompt and reject citations outside "
                    "them; check the marker style (1-based [1] vs 0-based [0])."),)),
)
NAMES = [s.name for s in SPECS]


def parse(item: KeyedSample) -> ParsedAnswer:
    """The answer's citations over the sample's contexts, with id problems first: read
    once, where the sample is keyed (`text.key_sample`)."""
    return item.citations


def passages(item: KeyedSample) -> list[str]:
    """Each context's text as shown to the judge (within the token budget; "" past it)."""
    docs = list(item.documents)
    return docs + [""] * (len(item.sample.contexts) - len(docs))


def render(parsed: ParsedAnswer, keys: Sequence[str], texts: Sequence[str]) -> dict[str, str]:
    """The prompt's passages (those the shown sentences cite) and keyed sentences."""
    shown = [s for s in parsed.sentences if s.key in keys]
    cited = sorted({i for s in shown for i in s.cited})
    lines = []
    for s in shown:
        cites = ", ".join(f"[{i + 1}]" for i in s.cited) or "nothing"
        lines.append(f"{s.key}: {s.text} (cites {cites})")
    body = "\n\n".join(f"[{i + 1}] {texts[i]}" for i in cited) or "(none)"
    return {"passages": body, "sentences": "\n".join(lines)}


def llm_checks(parsed: ParsedAnswer, labels: CitationLabels, keys: Sequence[str]
               ) -> list[SentenceCheck]:
    """The LLM's labels for the sentences it was shown; one it left out is unjudged."""
    by_key: dict[str, SentenceLabel] = {}
    for lab in labels.sentences:
        by_key.setdefault(lab.key, lab)
    out = []
    for s in parsed.sentences:
        if s.key not in keys:
            continue
        got = by_key.get(s.key)
        if got is None:
            out.append(SentenceCheck(s.key, False, decided_by="unjudged"))
            continue
        said = {c.passage - 1: c.relevant for c in got.citations}
        supported = bool(got.supported) and bool(s.cited)
        relevant = {i: supported and (said.get(i, False) or len(s.cited) == 1) for i in s.cited}
        out.append(SentenceCheck(
            s.key, got.needs_citation, supported if s.cited or s.fabricated else None,
            relevant, decided_by="judge" if s.cited else "no citation"))
    return out


class CitationsSuite(Suite):
    name: ClassVar[str] = "citations"
    specs: ClassVar[tuple[MetricSpec, ...]] = SPECS
    prompts = (CHECK,)

    def applicable(self, sample: Any) -> bool:
        return bool(sample.answer.strip())

    @staticmethod
    def _missing(item: KeyedSample, parsed: ParsedAnswer) -> list[MetricResult] | None:
        if not item.answer_text.strip():
            return unscored(NAMES, EMPTY_ANSWER)
        if not item.sample.contexts:
            details: dict[str, Any] = ({"marker_problems": parsed.problems}
                                       if parsed.problems else {})
            return [*unscored(NAMES[:2], NO_CONTEXTS, **details),
                    fabricated_result(parsed, details)]
        return None

    def _finish(self, item: KeyedSample, results: list[MetricResult],
                verdicts: Sequence[Verdict] = ()) -> Outcome:
        return outcome(self.name, item.sample, with_truncated(results, item), verdicts)

    async def evaluate(self, item: KeyedSample, judge: Asker, options: SuiteOptions) -> Outcome:
        parsed = parse(item)
        if (missing := self._missing(item, parsed)) is not None:
            return self._finish(item, missing)
        texts = passages(item)
        decided = [quote_check(s) for s in parsed.sentences
                   if FirstPass.of(s, texts).decides(s)]
        done = {c.key for c in decided}
        pending = [s.key for s in parsed.sentences if s.key not in done]
        if not pending:
            return self._finish(item, score_citations(parsed, decided, {"judge_calls": 0}))
        verdict = await judge.ask(CHECK, {"question": item.question,
                                          **render(parsed, pending, texts)})
        if not isinstance(verdict.output, CitationLabels):
            failed = unscored(NAMES[:2], verdict.unscored_reason or "no verdict",
                              failure=verdict.failure())
            return self._finish(item, [*failed, fabricated_result(parsed, {})], [verdict])
        checks = decided + llm_checks(parsed, verdict.output, pending)
        return self._finish(item, score_citations(parsed, checks), [verdict])

    def evaluate_offline(self, item: KeyedSample, evidence: Evidence, options: SuiteOptions
                         ) -> Outcome:
        parsed = parse(item)
        if (missing := self._missing(item, parsed)) is not None:
            return self._finish(item, missing)
        checks = offline_checks(parsed, passages(item), item.question, options.analyzer)
        return self._finish(item, score_citations(parsed, checks))
