"""The `ragas` suite's verdicts, what both judges end in, and the offline judge's mapping
from `Evidence` onto them (the LLM replies' mapping lives beside their output models)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ragassay.judge import SoftValue
from ragassay.judge.offline import Evidence
from ragassay.text import letter_key


@dataclass(frozen=True)
class ClaimVerdict:
    claim: str
    supported: bool
    reason: str = ""
    probability: float | None = None


@dataclass(frozen=True)
class RelevancyVerdict:
    """Generated questions (LLM), or a direct relevance (offline judge)."""

    questions: tuple[str, ...] = ()
    noncommittal: bool = False
    direct: float | None = None


@dataclass(frozen=True)
class Label:
    """A chunk's usefulness (`key` = its index) or a reference sentence's attribution."""

    key: Any
    value: bool
    probability: float | None = None


@dataclass
class ContextVerdict:
    chunks: list[Label] = field(default_factory=list)
    reference: list[Label] = field(default_factory=list)


def p_true(soft: Mapping[str, SoftValue] | None, path: str) -> float | None:
    """An LLM judge's P(true) for the flag at `path` of its reply (`Verdict.soft`, from
    token probabilities), or None."""
    reading = (soft or {}).get(path)
    return reading.value if reading is not None and reading.kind == "flag" else None


def _claim_reason(evidence: Evidence, i: int) -> str:
    """Cites support only for a supported claim (`Evidence.support_keys`); an unsupported
    one names the sentence it contradicts (`Evidence.contradicted_keys`, the one the
    judge's reasoning quotes, else its closest match), or, contradicting none, its
    closest matches; a sentence that asserts nothing (an answer that only abstains)
    says so."""
    if i < len(evidence.asserts) and not evidence.asserts[i]:
        return "asserts nothing (an abstention or filler): nothing to support"
    if evidence.support_keys[i]:
        return "supported by " + ", ".join(evidence.support_keys[i])
    near = evidence.match_keys[i] if i < len(evidence.match_keys) else []
    flip = evidence.contradicts[i] if i < len(evidence.contradicts) else None
    known = evidence.contradicted_keys[i] if i < len(evidence.contradicted_keys) else None
    if flip and (known or near):
        return f"contradicts {known or near[0]} ({flip})"
    return "no supporting sentence" + (f" (closest: {', '.join(near)})" if near else "")


def offline_claims(evidence: Evidence) -> list[ClaimVerdict]:
    """Abstentions and filler make no claim (`Evidence.claim_indices`)."""
    from ragassay.judge.offline import SUPPORT_THRESHOLD

    return [
        ClaimVerdict(evidence.answer_sentences[i].text,
                     evidence.support[i] >= SUPPORT_THRESHOLD,
                     _claim_reason(evidence, i), evidence.support[i])
        for i in evidence.claim_indices()
    ]


def offline_contexts(evidence: Evidence) -> ContextVerdict:
    from ragassay.judge.offline import ATTRIBUTION_THRESHOLD, USEFUL_THRESHOLD

    return ContextVerdict(
        [Label(i, p >= USEFUL_THRESHOLD, p) for i, p in enumerate(evidence.chunk_usefulness)],
        [Label(letter_key(i), p >= ATTRIBUTION_THRESHOLD, p)
         for i, p in enumerate(evidence.reference_attribution)])
