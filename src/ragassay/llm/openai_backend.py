"""A judge backend for any OpenAI-compatible chat completions server.

Works with OpenAI, Azure's v1 endpoint, vLLM, Ollama and the llama.cpp server. It sends
one request per `complete()` in the structured-output form the request names, without
the parameters it says to omit (token probabilities are asked for when the request wants
them and the policy has not dropped "logprobs"), and classifies a failure as a
`BackendError`; retries, backoff, limits, probing and parameter dropping are the policy layer's
(`ragassay.llm.policy`), as for every backend. The SDK's own retries are off. Error
messages are built here from the status code and a short, sanitised body excerpt: the
API key never appears in them, nor in reprs.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import openai

from ragassay.llm import http_guard
from ragassay.llm.base import BackendError, BackendOptions
from ragassay.llm.parsing import parse_json_reply
from ragassay.llm.retry import is_retryable_status, parse_retry_after
from ragassay.llm.wire import JudgeReply, JudgeRequest, TokenLogprob
from ragassay.types import Usage
from ragassay.urls import mask_secrets, redact_url

PLACEHOLDER_KEY = "not-needed"
MAX_REPLY_BYTES = http_guard.MAX_REPLY_BYTES
MAX_REPLY_CHARS = 200_000  # reply text parsed for JSON (the parse is bounded too)
MAX_TOKEN_COUNT = 10**9  # a usage figure above this is not believed (it would overflow)
_NO_CONNECTION = frozenset({"ConnectError", "UnsupportedProtocol", "InvalidURL"})
_EXCERPT_CHARS = 160
T = TypeVar("T")


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

    def __init__(self, model: str, options: BackendOptions | None = None) -> None:
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
        self._client: openai.AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    def __repr__(self) -> str:
        shown = redact_url(self._base_url) if self._base_url else None
        return f"OpenAIBackend(model={self.model!r}, base_url={shown!r})"

    @property
    def endpoint(self) -> str:
        """Where requests go, as errors name it."""
        return self._base_url or "https://api.openai.com/v1"

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
        """One request; a failure is raised as a classified `BackendError`."""
        started = time.monotonic()
        client = self.client()
        kwargs = self._build_kwargs(request)
        # The body is plain JSON already, so it goes as extra_body (merged over the typed
        # params by the SDK, the same bytes on the wire): the SDK's typed-params transform
        # walks every prompt string recursively; skipping it cut the client's CPU per call
        # by about a fifth (benches/client_cpu.py, benches/RESULTS.md).
        payload = _payload(kwargs)

        async def send() -> bytes:
            async with client.chat.completions.with_streaming_response.create(
                    model=self.model, messages=[], extra_body=payload) as resp:
                return await _read_capped(resp)

        body = await self.guarded(send, frozenset(kwargs))
        return self._to_reply(_decode(body), request, started)

    def request_body(self, request: JudgeRequest) -> dict[str, Any]:
        """The JSON body `complete` sends for this request (a batch line's `body`)."""
        return _payload(self._build_kwargs(request))

    async def guarded(self, send: Callable[[], Awaitable[T]],
                      sent: frozenset[str] = frozenset()) -> T:
        """`send()` (one request through this backend's client) with every failure raised
        as a classified `BackendError` (`sent`: the parameters it sent)."""
        try:
            return await send()
        except openai.APIStatusError as exc:  # an SDK that reads the body itself
            try:
                headers: dict[str, str] = dict(exc.response.headers)
                raw = exc.response.text
            except Exception:  # a malformed response must not hide the status
                headers, raw = {}, ""
            raise self._status_failure(exc.status_code, headers, raw, sent) from None
        except openai.APITimeoutError:
            raise BackendError(f"timed out ({self.options.timeout_s:g}s)",
                               retryable=True) from None
        except http_guard.Refused as exc:
            raise self._refused(exc, sent) from None
        except openai.APIConnectionError as exc:
            cause = exc.__cause__
            if isinstance(cause, http_guard.Refused):  # an SDK that wraps hook errors
                raise self._refused(cause, sent) from None
            name = type(cause).__name__ if cause else "no response"
            # the SDK's HTTP library (httpx or httpx2) names these the same way
            kind = "connect" if name in _NO_CONNECTION else "other"
            raise BackendError(f"connection error ({name})", retryable=True,
                               kind=kind) from None
        except openai.APIResponseValidationError:
            raise BackendError("invalid response body", retryable=True) from None
        except openai.OpenAIError as exc:
            raise BackendError(f"client error ({type(exc).__name__})") from None

    def _refused(self, exc: http_guard.Refused, sent: frozenset[str]) -> BackendError:
        """What the response hook stopped: an error reply, or a cross-origin redirect."""
        if isinstance(exc, http_guard.ErrorReply):
            return self._status_failure(exc.status, exc.headers, exc.text, sent)
        target = getattr(exc, "target", "?")
        return BackendError(f"redirected to {target}", stop=(
            f"the judge endpoint {redact_url(self.endpoint)} redirected the request to "
            f"another origin ({target}): not followed, so that its headers and prompt "
            "are not sent there; give the URL you mean as --base-url"))

    def client(self) -> openai.AsyncOpenAI:
        """The HTTP client of this event loop (made on first use, with the response guard)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            headers: dict[str, str] = {}
            host = urlsplit(self._base_url or "").hostname or ""
            if host.endswith(".azure.com"):
                headers["api-key"] = self._secret.reveal()
            headers.update({k: v.get_secret_value() for k, v in self.options.headers.items()})
            self._client = openai.AsyncOpenAI(
                api_key=self._secret.reveal(),
                base_url=self._base_url,
                timeout=self.options.timeout_s,
                max_retries=0,
                default_headers=headers or None,
                default_query=self._default_query or None,
                http_client=openai.DefaultAsyncHttpxClient(
                    event_hooks={"response": [http_guard.guard_response]}),
            )
            self._client_loop = loop
        return self._client

    def _build_kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        mode, omit = request.structured_output, request.omit
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        schema = request.output_schema
        # The schema goes into the text only when the server is not given it: with
        # json_schema, and json_object + schema (llama.cpp's grammar), the server has it,
        # and every built-in prompt describes its reply in words anyway.
        if schema is not None and mode == "prompt":
            messages = with_schema_instructions(messages, schema)
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages}
        if "temperature" not in omit:
            kwargs["temperature"] = request.temperature
        opts = self.options
        field = "max_completion_tokens" if "max_tokens" in omit else "max_tokens"
        kwargs[field] = opts.max_tokens if opts.max_tokens_overridden else request.max_tokens
        if request.seed is not None and "seed" not in omit:
            kwargs["seed"] = request.seed
        if request.top_logprobs and "logprobs" not in omit:
            kwargs["logprobs"] = True
            kwargs["top_logprobs"] = min(int(request.top_logprobs), 20)
        if schema is not None and mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name(request), "schema": schema, "strict": False},
            }
        elif schema is not None and mode == "json_object":
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        if opts.extra_body:
            kwargs["extra_body"] = dict(opts.extra_body)
        return kwargs

    def _status_failure(self, status: int, headers: dict[str, str], raw: str,
                        sent: frozenset[str]) -> BackendError:
        message, raw = _error_texts(raw)
        return BackendError(
            f"HTTP {status}",
            retryable=is_retryable_status(status),
            status=status,
            detail=excerpt(self.sanitise(message)),
            body=f"{message} {raw}",
            message=message,
            retry_after=parse_retry_after(headers),
            sent=sent,
        )

    def sanitise(self, text: str) -> str:
        key = self._secret.reveal()
        if key != PLACEHOLDER_KEY and len(key) >= 4:
            text = text.replace(key, "***")
        secrets = [v.get_secret_value() for v in self.options.headers.values()]
        secrets += list(self._default_query.values())  # a base URL's query may hold a token
        for value in secrets:
            if len(value) >= 4:
                text = text.replace(value, "***")
        return mask_secrets(text)

    def _to_reply(self, result: Any, request: JudgeRequest, started: float) -> JudgeReply:
        return completion_reply(result, request, self.model, time.monotonic() - started)


def completion_reply(result: Any, request: JudgeRequest, model_name: str,
                     latency_s: float = 0.0) -> JudgeReply:
    """The reply from a decoded chat completion body, every field checked: a server is
    untrusted (a direct reply, or a batch's output line)."""
    choices = result.get("choices") if isinstance(result, dict) else None
    if not isinstance(choices, list):
        raise BackendError("invalid response body (no list of choices)", retryable=True)
    if not choices:
        raise BackendError("empty choices", retryable=True)
    choice = choices[0] if isinstance(choices[0], dict) else {}
    message = choice.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    text = content if isinstance(content, str) else ("" if content is None else str(content))
    if len(text) > MAX_REPLY_CHARS:
        raise BackendError(f"reply text over {MAX_REPLY_CHARS:,} characters")
    finish_reason = choice.get("finish_reason")
    data: Any = None
    parse_error: str | None = None
    if request.output_schema is not None:
        data, parse_error = parse_json_reply(text)
    input_tokens, output_tokens, cached = usage_counts(result)
    if input_tokens is None:
        input_tokens = sum(len(m.content) for m in request.messages) // 4
    if output_tokens is None:
        output_tokens = len(text) // 4
    model = result.get("model")
    return JudgeReply(
        text=text,
        data=data,
        parse_error=parse_error,
        usage=Usage(
            calls=1,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            latency_s=latency_s,
            cached_tokens=min(cached or 0, input_tokens),
        ),
        finish_reason=str(finish_reason)[:40] if finish_reason is not None else None,
        model=str(model)[:200] if isinstance(model, str) and model else model_name,
        logprobs=_token_logprobs(choice.get("logprobs")),
    )


def usage_counts(result: Any) -> tuple[int | None, int | None, int | None]:
    """(input, output, prompt-cached) tokens a chat completion body reports; None for a
    figure it lacks or that is not a sane count."""
    usage = result.get("usage") if isinstance(result, dict) else None
    if not isinstance(usage, dict):
        return None, None, None
    details = usage.get("prompt_tokens_details")
    cached = _count(details.get("cached_tokens")) if isinstance(details, dict) else None
    return _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens")), cached


def _payload(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The request's JSON body: the parameters with `extra_body` merged over them."""
    payload = {k: v for k, v in kwargs.items() if k != "extra_body"}
    payload.update(kwargs.get("extra_body") or {})
    return payload


def _token_logprobs(block: Any) -> tuple[TokenLogprob, ...] | None:
    """`choice.logprobs.content` as TokenLogprobs; None when absent or malformed (the
    reply is then read greedily)."""
    content = block.get("content") if isinstance(block, dict) else None
    if not isinstance(content, list) or not content:
        return None
    out = []
    try:
        for item in content:
            raw = item.get("bytes")
            top = tuple((str(t["token"]), float(t["logprob"]))
                        for t in (item.get("top_logprobs") or ()))
            out.append(TokenLogprob(token=str(item["token"]), logprob=float(item["logprob"]),
                                    bytes=tuple(int(b) for b in raw) if raw else None, top=top))
    except (AttributeError, KeyError, TypeError, ValueError):
        return None
    return tuple(out)


async def _read_capped(resp: Any) -> bytes:
    """The response body, refusing to read past MAX_REPLY_BYTES (a hostile server can
    send gigabytes, or a gzip bomb)."""
    try:
        return await http_guard.read_capped(resp.iter_bytes(), MAX_REPLY_BYTES)
    except http_guard.TooLarge:
        raise BackendError(f"reply body over {MAX_REPLY_BYTES // 1_000_000} MB; "
                           "stopped reading") from None
    except Exception as exc:  # the connection broke mid-body (the HTTP library's errors)
        if not type(exc).__module__.startswith("httpx"):
            raise
        raise BackendError(f"connection error ({type(exc).__name__})", retryable=True) from None


def _decode(body: bytes) -> Any:
    try:
        return json.loads(body)
    except RecursionError:
        raise BackendError("invalid response body (JSON nested too deep)",
                           retryable=True) from None
    except ValueError:  # also UnicodeDecodeError
        raise BackendError("invalid response body (not JSON)", retryable=True) from None


def _count(value: Any) -> int | None:
    """A token count from the server, when it is one: a plain integer in a sane range."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_TOKEN_COUNT else None


def with_schema_instructions(
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


def schema_name(request: JudgeRequest) -> str:
    schema = request.output_schema or {}
    raw = request.prompt_name or str(schema.get("title") or "") or "judge_output"
    name = re.sub(r"[^A-Za-z0-9_-]+", "_", raw).strip("_")[:64]
    return name or "judge_output"


def _error_texts(raw: str) -> tuple[str, str]:
    """(message to show, whole body for keyword checks) from an error reply's body: the
    `error.message` of an OpenAI-style JSON body (or its JSON, or its text)."""
    try:
        body: Any = json.loads(raw)
    except (ValueError, RecursionError):
        body = raw.strip() or None
    if isinstance(body, dict):
        body = body.get("error", body)  # as the SDK unwraps it
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


def excerpt(text: str) -> str:
    """One line of at most _EXCERPT_CHARS, without control characters (a binary body)."""
    head = text[: _EXCERPT_CHARS * 8]
    line = " ".join("".join(c if c.isprintable() else " " for c in head).split())
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
