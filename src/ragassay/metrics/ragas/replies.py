"""The `ragas` suite's LLM replies: the output model of each of its three prompts (loaded
here, `Prompt`s are data) and the mapping of a validated reply onto the verdicts both
judges end in (`verdicts.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ragassay.judge import Flag, SoftValue, item_number, load_prompt
from ragassay.judge.scales import NAMES_NOTHING, expected
from ragassay.metrics.ragas.verdicts import (
    ClaimVerdict,
    ContextVerdict,
    Label,
    RelevancyVerdict,
    p_true,
)
from ragassay.text import norm_key


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


class Claims(BaseModel):
    """The answer's atomic claims, each checked against the context."""

    # Call 1.

    model_config = ConfigDict(extra="ignore")

    claims: list[Claim]


class Questions(BaseModel):
    """Questions the answer would answer, and whether the answer is noncommittal."""

    # Call 2.
    model_config = ConfigDict(extra="ignore")

    questions: Annotated[list[str], BeforeValidator(_texts)] = Field(default_factory=list)
    noncommittal: Flag

    @model_validator(mode="after")
    def _needs_questions(self) -> Questions:
        if not self.questions and not self.noncommittal:
            raise ValueError("no questions were written")
        return self


class ChunkLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    index: Annotated[int, item_number("chunk")]
    useful: Flag


class RefLabel(BaseModel):
    model_config = ConfigDict(extra="ignore")

    key: Annotated[str, BeforeValidator(norm_key)]
    attributed: Flag


class ContextLabels(BaseModel):
    """Per-chunk usefulness and per-reference-sentence attribution. In a reply
    (`scales.reply_context`), labels that judge none of the chunks shown, or none of
    the reference's sentences when there is one, are an invalid reply (`NAMES_NOTHING`),
    never a 0; a reply that judges some and names one that does not exist is scored on
    those it judged (the others counted in `details`)."""

    # Call 3.

    model_config = ConfigDict(extra="ignore")

    chunks: list[ChunkLabel]
    reference_sentences: list[RefLabel] = Field(default_factory=list)

    @field_validator("chunks")
    @classmethod
    def _judges_a_chunk(cls, chunks: list[ChunkLabel], info: ValidationInfo
                        ) -> list[ChunkLabel]:
        n = expected(info).get("chunks")
        if isinstance(n, int) and n > 0 and not any(0 <= c.index < n for c in chunks):
            named = ", ".join(str(c.index) for c in chunks[:5])
            raise PydanticCustomError(
                NAMES_NOTHING, "the reply judges none of the {n} chunks shown (numbered "
                "0-{last}){named}", {"n": n, "last": n - 1,
                                    "named": f"; it names {named}" if named else ""})
        return chunks

    @field_validator("reference_sentences")
    @classmethod
    def _judges_a_sentence(cls, labels: list[RefLabel], info: ValidationInfo
                           ) -> list[RefLabel]:
        keys = expected(info).get("reference_keys")
        if keys and not any(r.key in keys for r in labels):
            named = ", ".join(r.key for r in labels[:5])
            raise PydanticCustomError(
                NAMES_NOTHING, "the reply judges none of the expected answer's sentences "
                "({keys}){named}", {"keys": ", ".join(keys),
                                    "named": f"; it names {named}" if named else ""})
        return labels


_HERE = Path(__file__).parent
CLAIMS = load_prompt(_HERE / "claims.toml", Claims)
QUESTIONS = load_prompt(_HERE / "questions.toml", Questions)
CONTEXTS = load_prompt(_HERE / "contexts.toml", ContextLabels)


def claims_verdict(out: Claims, soft: Mapping[str, SoftValue] | None = None
                   ) -> list[ClaimVerdict]:
    return [ClaimVerdict(c.claim, c.supported, c.reason, p_true(soft, f"claims.{i}.supported"))
            for i, c in enumerate(out.claims)]


def relevancy_verdict(out: Questions) -> RelevancyVerdict:
    return RelevancyVerdict(tuple(out.questions), out.noncommittal)


def context_verdict(out: ContextLabels, soft: Mapping[str, SoftValue] | None = None
                    ) -> ContextVerdict:
    return ContextVerdict(
        [Label(c.index, c.useful, p_true(soft, f"chunks.{i}.useful"))
         for i, c in enumerate(out.chunks)],
        [Label(r.key, r.attributed, p_true(soft, f"reference_sentences.{i}.attributed"))
         for i, r in enumerate(out.reference_sentences)])
