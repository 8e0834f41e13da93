"""Your own RAG pipeline as a bench strategy: a Python callable or an HTTP endpoint.

    [[strategy]]
    name = "my app"
    pipeline = "myapp.rag:answer"            # question -> answer and contexts, sync or async

    [[strategy]]
    name = "my service"
    pipeline = "http://127.0.0.1:8000/rag"   # POST {"question": ...} -> JSON
    fields = { question = "query", answer = "output.text", contexts = "sources" }
    headers = { Authorization = "Bearer ${RAG_TOKEN}" }   # ${NAME}: from the environment

A pipeline answers with a mapping (`answer`, `contexts`, optionally `docs`; the names
are `fields`, dotted paths reach into nested JSON), a `(answer, contexts)` pair, or an
object with those attributes. A context is a string, a mapping (`text`, optional `doc`)
or a document object (`.page_content` / `.text`, `.metadata["source"]`). A question whose
call fails, times out or answers something else is one failed row with the reason, not
a failed bench.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from ragassay.urls import redact_url

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_REASON_CHARS = 200


class PipelineFields(BaseModel):
    """Field names (dotted paths into the JSON) of a pipeline's request and answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str = "question"
    answer: str = "answer"
    contexts: str = "contexts"
    text: str = "text"  # a context given as a mapping: its text
    doc: str = "doc"  # ... and its document id (gives the retrieval metrics)
    docs: str = "docs"  # or the retrieved documents' ids beside the contexts


class PipelineSpec(BaseModel):
    """A strategy's pipeline as configured: `target` is "module:function" or a URL."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: str
    fields: PipelineFields = PipelineFields()
    headers: dict[str, str] = Field(default_factory=dict)  # values may name ${ENV} vars
    body: dict[str, Any] = Field(default_factory=dict)  # sent with every HTTP request

    @field_serializer("headers")
    def _masked(self, headers: dict[str, str]) -> dict[str, str]:
        """Stored and shown: ${NAME} templates as written, literal values masked."""
        return {k: v if "${" in v else "***" for k, v in headers.items()}

    @property
    def is_http(self) -> bool:
        return self.target.startswith(("http://", "https://"))

    @property
    def label(self) -> str:
        return redact_url(self.target) if self.is_http else self.target


class PipelineAnswer(BaseModel):
    """What a pipeline answered for one question."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    answer: str
    contexts: tuple[str, ...] = ()
    docs: tuple[str | None, ...] = ()  # per context, when the pipeline names them


class PipelineError(Exception):
    """One question's call failed; `reason` is one line for its failed row."""

    def __init__(self, reason: str) -> None:
        self.reason = " ".join(reason.split())[:_REASON_CHARS]
        super().__init__(self.reason)


class PipelineSetupError(ValueError):
    """A pipeline that cannot be used at all (not importable, not callable)."""


def _path(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if isinstance(data, Mapping) and part in data:
            data = data[part]
        elif isinstance(data, Sequence) and not isinstance(data, str) and part.isdigit() \
                and int(part) < len(data):
            data = data[int(part)]
        else:
            return _MISSING
    return data


_MISSING = object()


def _context(item: Any, fields: PipelineFields) -> tuple[str, str | None]:
    if isinstance(item, str):
        return item, None
    text: Any
    doc: Any
    if isinstance(item, Mapping):
        text, doc = _path(item, fields.text), _path(item, fields.doc)
    else:  # LangChain Document, LlamaIndex node, or any object with text
        text = getattr(item, "page_content", None)
        if text is None:
            text = getattr(item, "text", None)
        found = getattr(item, "metadata", None)
        doc = found.get("source", _MISSING) if isinstance(found, Mapping) else _MISSING
    if not isinstance(text, str):
        raise PipelineError(f"a context is {type(item).__name__} without a text "
                            f"(expected a string or {{{fields.text!r}: ...}})")
    return text, (str(doc) if doc is not _MISSING and doc is not None else None)


def to_answer(result: Any, fields: PipelineFields) -> PipelineAnswer:
    """A pipeline's result, whatever its shape, as a PipelineAnswer (PipelineError when
    it is not one)."""
    expected = f"expected {{{fields.answer!r}: str, {fields.contexts!r}: [str, ...]}}"
    answer: Any
    contexts: Any
    docs: Any
    if isinstance(result, str):
        answer, contexts, docs = result, [], _MISSING
    elif isinstance(result, Mapping):
        answer, contexts = _path(result, fields.answer), _path(result, fields.contexts)
        docs = _path(result, fields.docs)
    elif isinstance(result, tuple | list) and len(result) == 2:
        (answer, contexts), docs = result, _MISSING
    else:
        answer = getattr(result, "answer", _MISSING)
        contexts = getattr(result, "contexts", [])
        docs = getattr(result, "docs", _MISSING)
    if not isinstance(answer, str):
        raise PipelineError(f"returned no string answer ({type(result).__name__}); {expected}")
    if contexts is _MISSING or contexts is None:
        contexts = []
    if isinstance(contexts, str) or not isinstance(contexts, Sequence):
        raise PipelineError(f"contexts are {type(contexts).__name__}, not a list; {expected}")
    pairs = [_context(c, fields) for c in contexts]
    ids: list[str | None] = [d for _, d in pairs]
    if isinstance(docs, Sequence) and not isinstance(docs, str) and len(docs) == len(pairs):
        ids = [str(d) if d is not None else None for d in docs]
    return PipelineAnswer(answer=answer, contexts=tuple(t for t, _ in pairs),
                          docs=tuple(ids) if any(d is not None for d in ids) else ())


def load_callable(target: str, base_dir: Path) -> Callable[[str], Any]:
    """Import "package.module:function" (the config's folder and the working directory
    on the import path); PipelineSetupError with one line when it cannot be used."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise PipelineSetupError(f"pipeline {target!r}: expected 'module:function' or an "
                                 "http(s):// URL")
    for folder in (str(base_dir), os.getcwd()):
        if folder not in sys.path:
            sys.path.append(folder)
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except ImportError as exc:
        raise PipelineSetupError(f"pipeline {target!r}: cannot import {module_name} "
                                 f"({exc})") from None
    except AttributeError:
        raise PipelineSetupError(f"pipeline {target!r}: {module_name} has no {attr}") from None
    except Exception as exc:  # the user's module failed while importing
        raise PipelineSetupError(f"pipeline {target!r}: importing {module_name} failed: "
                                 f"{type(exc).__name__}: {exc}") from None
    if not callable(obj):
        raise PipelineSetupError(f"pipeline {target!r} is not callable")
    return obj


class Pipeline:
    """Runs one configured pipeline: `await pipeline.ask(question)` -> PipelineAnswer, or
    PipelineError for that question."""

    def __init__(self, spec: PipelineSpec, base_dir: Path, timeout_s: float) -> None:
        self.spec, self.timeout_s = spec, timeout_s
        self.label = spec.label
        self._call: Callable[[str], Any] | None = None
        self._client: Any = None
        if not spec.is_http:
            self._call = load_callable(spec.target, base_dir)

    async def ask(self, question: str) -> PipelineAnswer:
        try:
            async with asyncio.timeout(self.timeout_s):
                if self._call is None:
                    return await self._post(question)
                return to_answer(await self._invoke(question), self.spec.fields)
        except TimeoutError:
            raise PipelineError(f"timed out ({self.timeout_s:g}s)") from None
        except PipelineError:
            raise
        except Exception as exc:  # the user's code: its failure is this question's row
            raise PipelineError(f"raised {type(exc).__name__}: {exc}") from None

    async def _invoke(self, question: str) -> Any:
        assert self._call is not None
        if inspect.iscoroutinefunction(self._call):
            return await self._call(question)
        result = await asyncio.to_thread(self._call, question)  # sync code off the loop
        if inspect.isawaitable(result):
            result = await result
        return result

    def _headers(self) -> dict[str, str]:
        def expand(value: str) -> str:
            return _ENV.sub(lambda m: os.environ.get(m.group(1), ""), value)

        return {k: expand(v) for k, v in self.spec.headers.items()}

    async def _post(self, question: str) -> PipelineAnswer:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout_s, follow_redirects=False)
        body = {**self.spec.body, self.spec.fields.question: question}
        try:
            resp = await self._client.post(self.spec.target, json=body,
                                           headers=self._headers())
        except httpx.TimeoutException:
            raise PipelineError(f"timed out ({self.timeout_s:g}s)") from None
        except httpx.HTTPError as exc:
            raise PipelineError(f"connection error ({type(exc).__name__})") from None
        if resp.status_code >= 400:
            raise PipelineError(f"HTTP {resp.status_code}: {resp.text[:120]}")
        try:
            data = resp.json()
        except ValueError:
            raise PipelineError("the reply is not JSON") from None
        return to_answer(data, self.spec.fields)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


async def timed(ask: Callable[[str], Awaitable[PipelineAnswer]], question: str
                ) -> tuple[PipelineAnswer | PipelineError, float]:
    """(answer or the question's error, seconds it took)."""
    t0 = time.perf_counter()
    try:
        result: PipelineAnswer | PipelineError = await ask(question)
    except PipelineError as exc:
        result = exc
    return result, time.perf_counter() - t0


__all__ = ["Pipeline", "PipelineAnswer", "PipelineError", "PipelineFields",
           "PipelineSetupError", "PipelineSpec", "load_callable", "timed", "to_answer"]
