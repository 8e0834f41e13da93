"""A judge backend for any provider LiteLLM speaks: `--judge litellm:PROVIDER/MODEL`.

`litellm:anthropic/claude-3-5-haiku-latest`, `litellm:bedrock/...`, `litellm:vertex_ai/...`,
`litellm:azure/DEPLOYMENT`, or `litellm:openai/MODEL` with a base URL for any
OpenAI-compatible server. Like every backend it implements only `complete()`: one request
in the structured-output form the request names, without the parameters it says to omit,
a failure classified as a `BackendError`; retries, limits, probing and parameter dropping
are the policy layer's, so LiteLLM's own retries are off. Usage is the provider's token
counts; the cost is LiteLLM's price for them (None when it has no price for the model).

Credentials are LiteLLM's: the provider's usual variables (ANTHROPIC_API_KEY, AWS_*,
GOOGLE_APPLICATION_CREDENTIALS, AZURE_API_KEY, ...), or `api_key_env` / `api_key_file`
when set explicitly. Installed with the `litellm` extra (an exact, reviewed pin);
without it, one line says so. LiteLLM's remote price map is never fetched (the copy it
ships is used).
"""

from __future__ import annotations

import os
import re
import time
import warnings
from typing import Any

from ragassay.extras import require
from ragassay.llm.base import BackendError, BackendOptions
from ragassay.llm.openai_backend import (
    MAX_REPLY_CHARS,
    PLACEHOLDER_KEY,
    excerpt,
    resolve_api_key,
    schema_name,
    with_schema_instructions,
)
from ragassay.llm.parsing import parse_json_reply
from ragassay.llm.retry import is_retryable_status, parse_retry_after
from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.types import Usage
from ragassay.urls import mask_secrets, redact_url

EXAMPLE = "litellm:anthropic/claude-3-5-haiku-latest"


def load_litellm() -> Any:
    """The litellm module, set up for ragassay: the packaged price map (no download at
    run time), no telemetry, no debug banners."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    # its pydantic models warn about TypedDict qualifiers as they load; noise for our users
    warnings.filterwarnings("ignore", message=".*`ReadOnly` qualifier", category=UserWarning)
    litellm: Any = require("litellm", "litellm", "the LiteLLM judge backend")
    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


class LiteLLMBackend:
    """Judge backend through `litellm.acompletion`."""

    name = "litellm"

    def __init__(self, model: str, options: BackendOptions | None = None) -> None:
        if not model or not model.strip():
            raise BackendError(f"no model given: use a judge spec like {EXAMPLE!r}")
        self.model = model.strip()
        self.options = options or BackendOptions()
        self._litellm = load_litellm()
        key = None
        if self.options.api_key_file or "api_key_env" in self.options.model_fields_set:
            key = resolve_api_key(self.options)
        provider = self.model.split("/", 1)[0] if "/" in self.model else "openai"
        if key is None and self.options.base_url and provider == "openai" \
                and not os.environ.get("OPENAI_API_KEY"):
            key = PLACEHOLDER_KEY  # a local OpenAI-compatible server needs no key
        self._key = key

    def __repr__(self) -> str:
        shown = redact_url(self.options.base_url) if self.options.base_url else None
        return f"LiteLLMBackend(model={self.model!r}, base_url={shown!r})"

    @property
    def endpoint(self) -> str:
        """Where requests go, as errors name it."""
        return self.options.base_url or f"litellm:{self.model}"

    def cache_params(self) -> dict[str, Any]:
        params: dict[str, Any] = {"backend": self.name, "model": self.model,
                                  "structured_output": self.options.structured_output}
        if self.options.max_tokens_overridden:
            params["max_tokens"] = self.options.max_tokens
        if self.options.extra_body:
            params["extra_body"] = self.options.extra_body
        return params

    def _kwargs(self, request: JudgeRequest) -> dict[str, Any]:
        mode, omit, schema = request.structured_output, request.omit, request.output_schema
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        if schema is not None and mode in ("json_object", "prompt"):
            messages = with_schema_instructions(messages, schema)
        opts = self.options
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages,
                                  "timeout": opts.timeout_s, "num_retries": 0,
                                  "max_retries": 0}
        if "temperature" not in omit:
            kwargs["temperature"] = request.temperature
        field = "max_completion_tokens" if "max_tokens" in omit else "max_tokens"
        kwargs[field] = opts.max_tokens if opts.max_tokens_overridden else request.max_tokens
        if request.seed is not None and "seed" not in omit:
            kwargs["seed"] = request.seed
        if schema is not None and mode == "json_schema":
            kwargs["response_format"] = {"type": "json_schema", "json_schema": {
                "name": schema_name(request), "schema": schema, "strict": False}}
        elif schema is not None and mode == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        if opts.base_url:
            kwargs["api_base"] = opts.base_url
        if self._key is not None:
            kwargs["api_key"] = self._key
        if opts.headers:
            kwargs["extra_headers"] = {k: v.get_secret_value() for k, v in opts.headers.items()}
        if opts.extra_body:
            kwargs["extra_body"] = dict(opts.extra_body)
        return kwargs

    async def complete(self, request: JudgeRequest) -> JudgeReply:
        """One request; a failure is raised as a classified `BackendError`."""
        started = time.monotonic()
        kwargs = self._kwargs(request)
        sent = frozenset(k for k in kwargs if k not in ("timeout", "num_retries",
                                                        "max_retries", "api_key"))
        try:
            response = await self._litellm.acompletion(**kwargs)
        except Exception as exc:  # LiteLLM maps every provider's errors onto its types
            raise self._failure(exc, sent) from None
        return self._to_reply(response, request, started)

    # -- failures ---------------------------------------------------------------------
    def _failure(self, exc: Exception, sent: frozenset[str]) -> BackendError:
        cause = _transport_cause(exc)
        if cause == "timeout":
            return BackendError(f"timed out ({self.options.timeout_s:g}s)", retryable=True)
        if cause in ("connect", "connection"):
            return BackendError("connection error" + (" (no connection)" if cause == "connect"
                                                      else ""),
                                retryable=True, kind="connect" if cause == "connect" else "other")
        status = getattr(exc, "status_code", None)
        status = status if isinstance(status, int) and 100 <= status < 600 else None
        message = self._sanitise(_plain(str(getattr(exc, "message", "") or exc)))
        if status is None:
            return BackendError(f"client error ({type(exc).__name__})", detail=excerpt(message),
                                message=message, body=message, sent=sent)
        return BackendError(f"HTTP {status}", status=status,
                            retryable=is_retryable_status(status),
                            retry_after=parse_retry_after(_headers(exc)),
                            detail=excerpt(message), message=message, body=message,
                            sent=sent)

    def _sanitise(self, text: str) -> str:
        secrets = [self._key or ""] + [v.get_secret_value()
                                       for v in self.options.headers.values()]
        for value in secrets:
            if value and value != PLACEHOLDER_KEY and len(value) >= 4:
                text = text.replace(value, "***")
        return mask_secrets(text)

    # -- replies ----------------------------------------------------------------------
    def _to_reply(self, response: Any, request: JudgeRequest, started: float) -> JudgeReply:
        """The reply from LiteLLM's response, every field checked."""
        choices = getattr(response, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise BackendError("empty choices", retryable=True)
        message = getattr(choices[0], "message", None)
        content = getattr(message, "content", None)
        text = content if isinstance(content, str) else ("" if content is None else str(content))
        if len(text) > MAX_REPLY_CHARS:
            raise BackendError(f"reply text over {MAX_REPLY_CHARS:,} characters")
        data: Any = None
        parse_error: str | None = None
        if request.output_schema is not None:
            data, parse_error = parse_json_reply(text)
        usage = getattr(response, "usage", None)
        input_tokens = _count(getattr(usage, "prompt_tokens", None))
        output_tokens = _count(getattr(usage, "completion_tokens", None))
        if input_tokens is None:
            input_tokens = sum(len(m.content) for m in request.messages) // 4
        if output_tokens is None:
            output_tokens = len(text) // 4
        finish = getattr(choices[0], "finish_reason", None)
        model = getattr(response, "model", None)
        return JudgeReply(
            text=text, data=data, parse_error=parse_error,
            usage=Usage(calls=1, input_tokens=input_tokens, output_tokens=output_tokens,
                        latency_s=time.monotonic() - started, cost_usd=self._cost(response)),
            finish_reason=str(finish)[:40] if finish is not None else None,
            model=str(model)[:200] if isinstance(model, str) and model else self.model,
        )

    def _cost(self, response: Any) -> float | None:
        """LiteLLM's price of the provider's reported usage; None when it has none."""
        hidden = getattr(response, "_hidden_params", None) or {}
        cost = hidden.get("response_cost") if isinstance(hidden, dict) else None
        if cost is None:
            try:
                cost = self._litellm.completion_cost(completion_response=response)
            except Exception:  # no price for this model: unpriced, not free
                return None
        if isinstance(cost, bool) or not isinstance(cost, int | float) or cost < 0:
            return None
        return float(cost) if cost or _priced(self._litellm, self.model) else None


def _priced(litellm: Any, model: str) -> bool:
    """Whether LiteLLM's price map knows the model (a 0.0 cost is then a real zero)."""
    try:
        info = litellm.get_model_info(model)
    except Exception:
        return False
    return bool(info and (info.get("input_cost_per_token") or info.get("output_cost_per_token")))


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= 10**9 else None


def _headers(exc: Exception) -> dict[str, str]:
    for source in (getattr(exc, "litellm_response_headers", None),
                   getattr(getattr(exc, "response", None), "headers", None),
                   getattr(exc, "headers", None)):
        try:
            if source:
                return {str(k): str(v) for k, v in dict(source).items()}
        except Exception:  # a malformed header object must not hide the status
            continue
    return {}


_CONNECT_TYPES = frozenset({"ConnectError", "ConnectionRefusedError", "ClientConnectorError",
                            "gaierror", "UnsupportedProtocol", "InvalidURL"})
_CONNECTION_TYPES = frozenset({"APIConnectionError", "RemoteProtocolError", "ReadError",
                               "ServerDisconnectedError", "ClientOSError",
                               "ConnectionResetError"})
_TIMEOUT_TYPES = frozenset({"Timeout", "APITimeoutError", "TimeoutError", "ReadTimeout",
                            "ConnectTimeout", "PoolTimeout", "ServerTimeoutError"})
_PREFIX = re.compile(r"^(litellm\.\w+:\s*)?(\w+Error:\s*)?(\w+Exception\s*-\s*)?")


def _transport_cause(exc: BaseException) -> str | None:
    """"connect" (no connection could be made), "connection" (it broke), "timeout", or
    None (the server answered), from the exception and its causes: LiteLLM reports a
    refused connection as an HTTP 500 of its own."""
    found: str | None = None
    seen: BaseException | None = exc
    for _ in range(12):
        if seen is None:
            break
        name = type(seen).__name__
        if name in _CONNECT_TYPES:
            return "connect"
        if name in _TIMEOUT_TYPES:
            found = found or "timeout"
        elif name in _CONNECTION_TYPES:
            found = "connection" if found is None else found
        seen = seen.__cause__ or seen.__context__
    return found


def _plain(message: str) -> str:
    """The provider's message without LiteLLM's class-name prefixes."""
    return _PREFIX.sub("", " ".join(message.split()), count=1)
