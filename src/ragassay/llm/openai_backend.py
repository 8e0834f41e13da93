"""A judge backend for any OpenAI-compatible chat completions server.

Works with OpenAI, Azure's v1 endpoint, vLLM, Ollama and the llama.cpp server. The
SDK's own retries are off: this module retries (with backoff, Retry-After and an
adaptive concurrency bound), probes which structured-output form the server accepts
(once per backend instance), and drops parameters the server rejects (`seed`,
`temperature`, `max_tokens` -> `max_completion_tokens`). Error messages are built
here from the status code and a short, sanitised body excerpt: the API key never
appears in them, nor in reprs.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import openai

from ragassay.llm.base import BackendError, BackendOptions, BackendStats
from ragassay.llm.parsing import parse_json_reply
from ragassay.llm.retry import (
    AdaptiveLimiter,
    backoff_delay,
    is_retryable_status,
    parse_retry_after,
)
from ragassay.types import JudgeReply, JudgeRequest, TokenLogprob, Usage

PLACEHOLDER_KEY = "not-needed"
MODES = ("json_schema", "json_object", "prompt")
_SCHEMA_WORDS = ("response_format", "json_schema", "schema", "grammar")
_SCHEMA_STATUSES = (400, 422, 500)
# A parameter is dropped only when the error message names it next to one of these.
_REJECT_WORDS = (
    "unsupported",
    "not supported",
    "does not support",
    "unrecognized",
    "unknown",
    "not permitted",
    "not allowed",
    "extra inputs",
    "only the default",
)
_SECRET_PATTERNS = (
    re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),
)
_EXCERPT_CHARS = 160


class _Secret:
    """Holds the key; its repr and str never show it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "_Secret('***')"

    __str__ = __repr__


class _Failure(Exception):
    """One failed attempt, already classified and sanitised."""

    def __init__(
        self,
        short: str,
        *,
        retryable: bool,
        status: int | None = None,
        detail: str = "",
        body: str = "",
        message: str = "",
        retry_after: float | None = None,
        sent: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(short)
        self.short = short
        self.retryable = retryable
        self.status = status
        self.detail = detail
        self.body = body.lower()  # for keyword checks only; never shown
        self.message = message.lower()
        self.retry_after = retry_after
        self.sent = sent


def resolve_api_key(options: BackendOptions) -> str | None:
    """The key from `api_key_file` if given, else from the `api_key_env` variable."""
    if options.api_key_file:
        path = Path(options.api_key_file).expanduser()
        try:
            key = path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise BackendError(f"cannot read api_key_file {path}: {exc.strerror}") from None
        if not key:
            raise BackendError(f"api_key_file {path} is empty")
        return key
    key = os.environ.get(options.api_key_env, "").strip()
    return key or None


class OpenAIBackend:
    """Judge backend speaking the OpenAI chat completions API."""

    name = "openai"

    def __init__(
        self,
        model: str,
        options: BackendOptions | None = None,
        *,
        rng: random.Random | None = None,
    ) -> None:
        if not model or not model.strip():
            raise BackendError("no model given: use a judge spec like 'openai:gpt-4o-mini'")
        self.model = model.strip()
        self.options = options or BackendOptions()
        base_url = self.options.base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = resolve_api_key(self.options)
        if key is None:
            if base_url is None:
                raise BackendError(
                    f"set {self.options.api_key_env} (or api_key_file), or give a base_url "
                    "for a local OpenAI-compatible server"
                )
            key = PLACEHOLDER_KEY
        self._secret = _Secret(key)
        self._base_url, self._default_query = _split_query(base_url)
        self.stats = BackendStats()
        self.limiter = AdaptiveLimiter(self.options.concurrency, self.options.increase_after)
        self._rng = rng or random.Random()
        configured = self.options.structured_output
        self._mode: str | None = None if configured == "auto" else configured
        self._send_seed = True
        self._send_temperature = True
        # token probabilities: asked for until the server rejects them or answers without
        self._send_logprobs = True
        self._max_tokens_field = "max_tokens"
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._probe_lock: asyncio.Lock | None = None

    def __repr__(self) -> str:
        return f"OpenAIBackend(model={self.model!r}, base_url={self._base_url!r})"

    @property
    def structured_output_mode(self) -> str | None:
        """The structured-output form in use; None while "auto" has not probed yet."""
        return self._mode

    def cache_params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "backend": self.name,
            "model": self.model,
            "structured_output": self.options.structured_output,
        }
        if self.options.max_tokens_overridden:
            params["max_tokens"] = self.options.max_tokens
        if self.options.extra_body:
            params["extra_body"] = self.options.extra_body
        return params

    async def aclose(self) -> None:
        """Close the HTTP client (optional: it is also dropped with the backend)."""
        client, self._client = self._client, None
        if client is not None and self._client_loop is asyncio.get_running_loop():
            await client.close()
        self._client_loop = None

    # -- the call ---------------------------------------------------------------------
    async def complete(self, request: JudgeRequest) -> JudgeReply:
        started = time.monotonic()
        probe_lock = self._ensure_client()
        if self._mode is None and request.output_schema is not None:
            async with probe_lock:  # one probe at a time; the others then reuse its mode
                if self._mode is None:
                    return await self._run(request, started, probing=True)
        return await self._run(request, started, probing=False)

    def _ensure_client(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop or self._probe_lock is None:
            headers: dict[str, str] = {}
            host = urlsplit(self._base_url or "").hostname or ""
            if host.endswith(".azure.com"):
                headers["api-key"] = self._secret.reveal()
            self._client = openai.AsyncOpenAI(
                api_key=self._secret.reveal(),
                base_url=self._base_url,
                timeout=self.options.timeout_s,
                max_retries=0,
                default_headers=headers or None,
                default_query=self._default_query or None,
            )
            self._client_loop = loop
            self._probe_lock = asyncio.Lock()
        return self._probe_lock

    async def _run(self, request: JudgeRequest, started: float, *, probing: bool) -> JudgeReply:
        mode = self._mode or MODES[0]
        retries = 0
        sent = 0
        while True:
            sent += 1
            self.stats.attempts += 1
            try:
                reply = await self._attempt(request, mode, started)
            except _Failure as failure:
                if self._adapt_params(failure):
                    self.stats.fallbacks += 1
                    continue
                if probing and _schema_rejected(failure, mode):
                    mode = MODES[MODES.index(mode) + 1]
                    self.stats.fallbacks += 1
                    continue
                if failure.retryable and retries < self.options.max_retries:
                    await asyncio.sleep(self._delay(failure, retries))
                    retries += 1
                    self.stats.retries += 1
                    continue
                self.stats.failures += 1
                raise BackendError(self._final_reason(failure, sent),
                                   status=failure.status) from None
            if probing:
                self._mode = mode
            self.stats.successes += 1
            return reply

    async def _attempt(self, request: JudgeRequest, mode: str, started: float) -> JudgeReply:
        kwargs = self._build_kwargs(request, mode)
        sent = frozenset(kwargs)
        assert self._client is not None
        client = self._client
        timeout_s = self.options.timeout_s
        async with self.limiter.slot() as ticket:
            try:
                async with asyncio.timeout(timeout_s):
                    result = await client.chat.completions.create(**kwargs)
            except openai.APIStatusError as exc:
                if exc.status_code == 429:
                    self.stats.rate_limited += 1
                    self.limiter.on_rate_limited(ticket)
                raise self._status_failure(exc, sent) from None
            except (openai.APITimeoutError, TimeoutError):
                raise _Failure(f"timed out ({timeout_s:g}s)", retryable=True) from None
            except openai.APIConnectionError as exc:
                cause = type(exc.__cause__).__name__ if exc.__cause__ else "no response"
                raise _Failure(f"connection error ({cause})", retryable=True) from None
            except openai.APIResponseValidationError:
                raise _Failure("invalid response body", retryable=True) from None
            except openai.OpenAIError as exc:
                raise _Failure(f"client error ({type(exc).__name__})", retryable=False) from None
        reply = self._to_reply(result, request, started)
        self.limiter.on_success()
        return reply

    def _build_kwargs(self, request: JudgeRequest, mode: str) -> dict[str, Any]:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        schema = request.output_schema
        # The schema goes into the text only when the server is not given it: with
        # json_schema, and json_object + schema (llama.cpp's grammar), the server has it,
        # and every built-in prompt describes its reply in words anyway.
        if schema is not None and mode == "prompt":
            messages = _with_schema_instructions(messages, schema)
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if self._send_temperature:
            kwargs["temperature"] = request.temperature
        opts = self.options
        kwargs[self._max_tokens_field] = (
            opts.max_tokens if opts.max_tokens_overridden else request.max_tokens
        )
        if request.seed is not None and self._send_seed:
            kwargs["seed"] = request.seed
        if request.top_logprobs and self._send_logprobs:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = min(int(request.top_logprobs), 20)
        if schema is not None and mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": _schema_name(request), "schema": schema, "strict": False},
            }
        elif schema is not None and mode == "json_object":
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        if opts.extra_body:
            kwargs["extra_body"] = dict(opts.extra_body)
        return kwargs

    def _adapt_params(self, failure: _Failure) -> bool:
        """Drop or rename a parameter the server rejected; True if worth resending."""
        if "logprobs" in failure.sent and failure.status in (400, 422, 500) and \
                "logprob" in failure.body:
            self._send_logprobs = False  # e.g. llama.cpp without logits_all answers 500
            return True
        if failure.status not in (400, 422):
            return False
        message = failure.message
        if not any(word in message for word in _REJECT_WORDS):
            return False
        if "seed" in failure.sent and re.search(r"\bseed\b", message):
            self._send_seed = False
            return True
        if "max_tokens" in failure.sent and "max_completion_tokens" in message:
            self._max_tokens_field = "max_completion_tokens"
            return True
        if "temperature" in failure.sent and "temperature" in message:
            self._send_temperature = False
            return True
        return False

    def _delay(self, failure: _Failure, retry_index: int) -> float:
        if failure.retry_after is not None and failure.status in (429, 503):
            return min(failure.retry_after, self.options.retry_after_max_s)
        opts = self.options
        return backoff_delay(retry_index, opts.backoff_base_s, opts.backoff_max_s, self._rng)

    def _final_reason(self, failure: _Failure, sent: int) -> str:
        reason = failure.short
        if failure.retryable and sent > 1:
            reason += f" after {sent} attempts"
        if failure.detail:
            reason += f": {failure.detail}"
        return self._sanitise(reason)

    def _status_failure(self, exc: openai.APIStatusError, sent: frozenset[str]) -> _Failure:
        status = exc.status_code
        message, raw = _error_texts(exc)
        try:
            headers: dict[str, str] = dict(exc.response.headers)
        except Exception:  # a malformed response must not hide the status
            headers = {}
        return _Failure(
            f"HTTP {status}",
            retryable=is_retryable_status(status),
            status=status,
            detail=_excerpt(self._sanitise(message)),
            body=f"{message} {raw}",
            message=message,
            retry_after=parse_retry_after(headers),
            sent=sent,
        )

    def _sanitise(self, text: str) -> str:
        key = self._secret.reveal()
        if key != PLACEHOLDER_KEY and len(key) >= 4:
            text = text.replace(key, "***")
        for pattern in _SECRET_PATTERNS:
            text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + "***", text)
        return text

    def _to_reply(self, result: Any, request: JudgeRequest, started: float) -> JudgeReply:
        if isinstance(result, str | bytes | list | dict) or not hasattr(result, "choices"):
            raise _Failure("invalid response body", retryable=True)
        choices = result.choices
        if not choices:
            raise _Failure("empty choices", retryable=True)
        choice = choices[0]
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        text = content if isinstance(content, str) else ("" if content is None else str(content))
        finish_reason = getattr(choice, "finish_reason", None)
        data: Any = None
        parse_error: str | None = None
        if request.output_schema is not None:
            data, parse_error = parse_json_reply(text)
        logprobs = _token_logprobs(getattr(choice, "logprobs", None))
        if request.top_logprobs and logprobs is None:
            self._send_logprobs = False  # the server ignores them: stop asking
        usage = getattr(result, "usage", None)
        input_tokens = getattr(usage, "prompt_tokens", None)
        output_tokens = getattr(usage, "completion_tokens", None)
        cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
        if not isinstance(input_tokens, int):
            input_tokens = sum(len(m.content) for m in request.messages) // 4
        if not isinstance(output_tokens, int):
            output_tokens = len(text) // 4
        return JudgeReply(
            text=text,
            data=data,
            parse_error=parse_error,
            usage=Usage(
                calls=1,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                latency_s=time.monotonic() - started,
                cached_tokens=cached if isinstance(cached, int) else 0,
            ),
            finish_reason=str(finish_reason) if finish_reason is not None else None,
            model=str(getattr(result, "model", None) or self.model),
            logprobs=logprobs,
        )


def _token_logprobs(block: Any) -> tuple[TokenLogprob, ...] | None:
    """`choice.logprobs.content` as TokenLogprobs; None when absent or malformed."""
    content = getattr(block, "content", None)
    if not content:
        return None
    out = []
    try:
        for item in content:
            raw = getattr(item, "bytes", None)
            top = tuple((str(t.token), float(t.logprob))
                        for t in (getattr(item, "top_logprobs", None) or ()))
            out.append(TokenLogprob(token=str(item.token), logprob=float(item.logprob),
                                    bytes=tuple(raw) if raw else None, top=top))
    except (AttributeError, TypeError, ValueError):
        return None
    return tuple(out)


def _schema_rejected(failure: _Failure, mode: str) -> bool:
    """During the probe: does this failure mean "try a simpler structured-output form"?"""
    if mode == MODES[-1] or failure.status not in _SCHEMA_STATUSES:
        return False
    return failure.status == 500 or any(word in failure.body for word in _SCHEMA_WORDS)


def _with_schema_instructions(
    messages: list[dict[str, str]], schema: dict[str, Any]
) -> list[dict[str, str]]:
    """Append the schema as plain JSON instructions to the last user message."""
    note = (
        "Respond with a single JSON object only, no other text, matching this JSON schema:\n"
        + json.dumps(schema, ensure_ascii=False, sort_keys=True)
    )
    out = [dict(m) for m in messages]
    for message in reversed(out):
        if message["role"] == "user":
            message["content"] = f"{message['content']}\n\n{note}"
            return out
    out.append({"role": "user", "content": note})
    return out


def _schema_name(request: JudgeRequest) -> str:
    schema = request.output_schema or {}
    raw = request.prompt_name or str(schema.get("title") or "") or "judge_output"
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", raw).strip("_")[:64]
    return name or "judge_output"


def _error_texts(exc: openai.APIStatusError) -> tuple[str, str]:
    """(message to show, whole body for keyword checks) from an SDK status error."""
    body = exc.body
    raw = ""
    try:
        raw = exc.response.text
    except Exception:  # body not read or not decodable
        raw = ""
    message = ""
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            message = str(err.get("message") or err.get("msg") or "")
        elif err is not None:
            message = str(err)
        if not message:
            message = json.dumps(body, ensure_ascii=False)[: _EXCERPT_CHARS * 2]
    elif body is not None:
        message = str(body)
    return message or raw, raw or message


def _excerpt(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _EXCERPT_CHARS else line[: _EXCERPT_CHARS - 1] + "…"


def _split_query(base_url: str | None) -> tuple[str | None, dict[str, str]]:
    """Move a query string (Azure's `?api-version=`) from the base URL to default params."""
    if not base_url:
        return None, {}
    parts = urlsplit(base_url)
    if not parts.query:
        return base_url, {}
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit(parts._replace(query="")), query
