"""Questions written by an LLM through the judge layer (cache, repair, the policy layer's
retries and limits): prompts are data (`prompts/*.toml`, typed outputs, validated
examples). Every quote the model gives must occur in its passage, or the item is
dropped: the gold passages are the documents' own words."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from ragassay.corpus import locate
from ragassay.corpus.chunking import Chunk
from ragassay.judge import load_prompt, make_judge
from ragassay.testset.drafts import Draft, SourceChunk
from ragassay.types import BackendOptions

if TYPE_CHECKING:
    from ragassay.judge.llm_judge import Cache

PROMPTS = Path(__file__).resolve().parent / "prompts"


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")

    question: str = Field(min_length=8, max_length=500)


class SingleOut(_Out):
    answer: str = Field(min_length=1, max_length=1500)
    quote: str = Field(min_length=3, max_length=1500)


class MultiOut(_Out):
    answer: str = Field(min_length=1, max_length=2000)
    quote_a: str = Field(min_length=3, max_length=1500)
    quote_b: str = Field(min_length=3, max_length=1500)


class UnanswerableOut(_Out):
    missing: str = Field(default="", max_length=500)


def _quote(chunk: Chunk, quote: str) -> str | None:
    """The passage's own text for a quote the model copied (whitespace and case may
    differ), or None when the passage does not contain it."""
    span = locate(quote.strip().strip('"'), chunk.text)
    return None if span is None else chunk.text[span[0]:span[1]]


class LLMGenerator:
    """Drafts from an LLM judge spec (`openai:MODEL`, `litellm:PROVIDER/MODEL`, ...)."""

    def __init__(self, spec: str, *, cache: Cache | None = None, base_url: str | None = None,
                 timeout_s: float = 60.0, concurrency: int = 4, no_answer: str = "") -> None:
        self.label = f"llm:{spec}"
        self.no_answer = no_answer
        self.judge: Any = make_judge(spec, cache=cache, backend_options=BackendOptions(
            base_url=base_url, timeout_s=timeout_s, concurrency=concurrency))
        self.single_prompt = load_prompt(PROMPTS / "single.toml", SingleOut)
        self.multi_prompt = load_prompt(PROMPTS / "multi.toml", MultiOut)
        self.unanswerable_prompt = load_prompt(PROMPTS / "unanswerable.toml", UnanswerableOut)

    async def _ask(self, prompt: Any, values: dict[str, str]) -> Any:
        verdict = await self.judge.ask(prompt, values)
        if verdict.output is None:
            return f"unusable reply: {verdict.unscored_reason}"
        return verdict.output

    async def single(self, chunk: Chunk) -> Draft | str:
        out = await self._ask(self.single_prompt, {"chunk": chunk.text})
        if isinstance(out, str):
            return out
        quote = _quote(chunk, out.quote)
        if quote is None:
            return "the quote is not in the passage"
        return Draft(kind="single-fact", question=out.question.strip(),
                     reference=out.answer.strip(), quotes=((chunk.doc_id, quote),),
                     sources=(SourceChunk.of(chunk),))

    async def multi(self, a: Chunk, b: Chunk, shared: tuple[str, ...]) -> Draft | str:
        out = await self._ask(self.multi_prompt, {"chunk_a": a.text, "chunk_b": b.text,
                                                  "shared": ", ".join(shared[:3])})
        if isinstance(out, str):
            return out
        qa, qb = _quote(a, out.quote_a), _quote(b, out.quote_b)
        if qa is None or qb is None:
            return "the quote is not in the passage"
        return Draft(kind="multi-hop", question=out.question.strip(),
                     reference=out.answer.strip(), quotes=((a.doc_id, qa), (b.doc_id, qb)),
                     sources=(SourceChunk.of(a), SourceChunk.of(b)))

    async def unanswerable(self, chunk: Chunk, title: str) -> Draft | str:
        out = await self._ask(self.unanswerable_prompt, {"chunk": chunk.text})
        if isinstance(out, str):
            return out
        return Draft(kind="unanswerable", question=out.question.strip(),
                     reference=self.no_answer, sources=(SourceChunk.of(chunk),))

    async def aclose(self) -> None:
        await self.judge.aclose()
