"""Answer generators: an OpenAI-compatible LLM with a grounded prompt, and an offline
extractive generator (no LLM) that answers with the best-supported context sentences."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Protocol

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ragassay.bench.retrieval import bm25_tokens
from ragassay.corpus import NO_ANSWER
from ragassay.corpus.chunking import SECTION_PREFIX
from ragassay.embed import Embedder
from ragassay.text import split_sentences, tokens
from ragassay.types import Usage


class GenerationOptions(BaseModel):
    """Generator settings ([generation] in the bench config)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    no_answer: str = NO_ANSWER
    # offline extractive generator
    threshold: float = 0.45  # best sentence score below this -> no answer
    max_sentences: int = Field(default=2, ge=1)
    margin: float = Field(default=0.12, ge=0.0)  # keep sentences within this of the best
    semantic_weight: float = Field(default=0.6, ge=0.0, le=1.0)
    # OpenAI-compatible generator
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    max_tokens: int = Field(default=300, ge=1)
    timeout_s: float = 60.0


class Generation(BaseModel):
    """One generated answer with what it cost."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: str
    latency_s: float
    usage: Usage = Usage()
    model: str = ""
    details: dict[str, float | str | None] = Field(default_factory=dict)


class Generator(Protocol):
    name: str

    async def generate(self, question: str, contexts: Sequence[str]) -> Generation: ...


SYSTEM_PROMPT = (
    "You answer questions about a company's documents using ONLY the numbered context "
    "passages. Do not use outside knowledge. Answer in one to three sentences. If the "
    "context does not contain the answer, reply exactly: {no_answer}"
)


def grounded_messages(
    question: str, contexts: Sequence[str], no_answer: str
) -> list[dict[str, str]]:
    """The grounded-answer prompt as chat messages."""
    ctx = "\n\n".join(f"[{i}] {c}" for i, c in enumerate(contexts, 1)) or "(no context)"
    return [
        {"role": "system", "content": SYSTEM_PROMPT.format(no_answer=no_answer)},
        {"role": "user", "content": f"Context:\n{ctx}\n\nQuestion: {question}\nAnswer:"},
    ]


class OpenAIGenerator:
    """Grounded answers from any OpenAI-compatible server, through the same backend as the
    judge (retries, rate-limit back-off, key handling, usage accounting)."""

    def __init__(self, model: str, options: GenerationOptions) -> None:
        from ragassay.llm import BackendOptions, get_backend

        self.model, self.options = model, options
        self.name = f"openai:{model}"
        self.backend = get_backend(self.name, BackendOptions(
            base_url=options.base_url, api_key_env=options.api_key_env,
            timeout_s=options.timeout_s, max_tokens=options.max_tokens))

    async def generate(self, question: str, contexts: Sequence[str]) -> Generation:
        from ragassay.llm import BackendError
        from ragassay.llm.wire import JudgeRequest, Message

        messages = tuple(Message(role=m["role"], content=m["content"])  # type: ignore[arg-type]
                         for m in grounded_messages(question, contexts, self.options.no_answer))
        request = JudgeRequest(messages=messages, output_schema=None,
                               temperature=self.options.temperature,
                               max_tokens=self.options.max_tokens, prompt_name="bench.generate")
        t0 = time.perf_counter()
        try:
            reply = await self.backend.complete(request)
        except BackendError as exc:
            # an answer that could not be generated is judged as such, not dropped
            return Generation(answer="", latency_s=time.perf_counter() - t0,
                              usage=Usage(calls=1), model=self.model,
                              details={"error": exc.reason})
        return Generation(answer=reply.text.strip(), latency_s=time.perf_counter() - t0,
                          usage=reply.usage, model=self.model)


_HEADING = re.compile(rf"^\s*(#{{1,6}}\s|{SECTION_PREFIX})")


def _body(context: str) -> str:
    """A context without its heading lines (markdown `#` lines and heading-path prefixes):
    headings help retrieval but are not answers."""
    return "\n".join(line for line in context.splitlines() if not _HEADING.match(line))


def _clean(sentence: str) -> str:
    """Drop list markers from an extracted sentence."""
    return " ".join(w for w in sentence.split() if w not in {"-", "*"})


def _stem(word: str) -> str:
    """A crude, deterministic stem: the first 5 letters (password/passwords, refresh/ed)."""
    return word[:5]


class OfflineGenerator:
    """Extractive answers: score every context sentence by a mix of embedding similarity
    to the question and the share of the question's content words it contains; answer
    with the top sentences, or with `no_answer` when the best score is below threshold."""

    name = "offline"

    def __init__(self, embedder: Embedder, options: GenerationOptions | None = None) -> None:
        self.embedder = embedder
        self.options = options or GenerationOptions()
        self._vecs: dict[str, np.ndarray] = {}

    def _embed(self, texts: list[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self._vecs]
        if todo:
            for t, v in zip(todo, self.embedder.embed(todo), strict=True):
                self._vecs[t] = np.asarray(v, dtype=np.float32)
        return np.stack([self._vecs[t] for t in texts])

    def score(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Each sentence's support score in [0, 1] (roughly)."""
        if not sentences:
            return []
        vecs = self._embed([question, *sentences])
        cos = vecs[1:] @ vecs[0]
        content = {_stem(t) for t in bm25_tokens(question)}
        w = self.options.semantic_weight
        out = []
        for s, c in zip(sentences, cos, strict=True):
            lex = len(content & {_stem(t) for t in tokens(s)}) / len(content) if content else 0.0
            out.append(float(w * max(0.0, float(c)) + (1 - w) * lex))
        return out

    def pick(self, question: str, contexts: Sequence[str]) -> tuple[list[str], float]:
        """The chosen sentences (in context order) and the best score (0 with no context)."""
        sentences: list[str] = []
        for ctx in contexts:
            for s in split_sentences(_body(ctx)):
                s = _clean(s)
                if len(tokens(s)) >= 3 and s not in sentences:
                    sentences.append(s)
        scores = self.score(question, sentences)
        if not scores:
            return [], 0.0
        best = max(scores)
        o = self.options
        ranked = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        keep = [i for i in ranked[: o.max_sentences] if scores[i] >= best - o.margin]
        return [sentences[i] for i in sorted(keep)], best

    async def generate(self, question: str, contexts: Sequence[str]) -> Generation:
        t0 = time.perf_counter()
        chosen, best = self.pick(question, contexts)
        answer = " ".join(chosen) if chosen and best >= self.options.threshold else ""
        answer = answer or self.options.no_answer
        return Generation(
            answer=answer,
            latency_s=time.perf_counter() - t0,
            model="offline-extractive",
            details={"best_score": round(best, 4)},
        )


def make_generator(name: str, embedder: Embedder | None, options: GenerationOptions) -> Generator:
    """`offline` or `openai:<model>` (any OpenAI-compatible server via base_url)."""
    if name == "offline":
        if embedder is None:
            raise ValueError("the offline generator needs an embedder")
        return OfflineGenerator(embedder, options)
    if name.startswith("openai:") and len(name) > len("openai:"):
        return OpenAIGenerator(name.split(":", 1)[1], options)
    raise ValueError(f"unknown generator {name!r}: use 'offline' or 'openai:<model>'")
