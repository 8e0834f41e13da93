"""OpenAI's Batch API (and any server that speaks it): `POST /v1/files` (purpose batch),
`POST /v1/batches` (endpoint `/v1/chat/completions`, a 24 h window), `GET
/v1/batches/{id}`, `POST /v1/batches/{id}/cancel`, `GET /v1/batches` (to find a batch
whose create answer was lost), `GET /v1/files/{id}/content`.

A line's body is exactly what the OpenAI backend sends for the request
(`OpenAIBackend.request_body`), and a reply is read by the backend's own reader
(`completion_reply`): the same checks as a direct call. Every request goes through the
backend's HTTP client (its response guard: no redirect to another origin, capped error
bodies) and the policy layer's `Guard` (timeouts, retries with backoff, the stops).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from ragassay.llm.base import BackendError
from ragassay.llm.batch import BatchState, Limits, LineOutcome, read_jsonl
from ragassay.llm.openai_backend import OpenAIBackend, completion_reply, excerpt, usage_counts
from ragassay.llm.policy import Guard
from ragassay.llm.wire import JudgeReply, JudgeRequest
from ragassay.types import BackendOptions

LIMITS = Limits(requests=50_000, bytes=200_000_000)
"""OpenAI's limits per batch: 50,000 requests, an input file of 200 MB."""
ENDPOINT: Literal["/v1/chat/completions"] = "/v1/chat/completions"
WINDOW: Literal["24h"] = "24h"
TRANSFER_TIMEOUT_S = 3600.0  # an upload or a download of a whole file
MAX_FILE_BYTES = 8_000_000_000  # an output file is read no further than this
FIND_AT_MOST = 1000  # batches listed when looking for one whose create answer was lost


class OpenAIBatches:
    """The batch API of an OpenAI-compatible endpoint for one model."""

    name = "openai"

    def __init__(self, model: str, options: BackendOptions, limits: Limits = LIMITS) -> None:
        self.backend = OpenAIBackend(model, options)
        self.model = self.backend.model
        self.limits = limits
        # a batch is not probed: the form configured, else JSON schema (which OpenAI's
        # batch API takes for every model that has structured outputs)
        mode = options.structured_output
        self.mode = "json_schema" if mode == "auto" else mode
        endpoint = self.backend.endpoint
        self.guard = Guard(options, endpoint=endpoint, role="batch endpoint")
        self.transfers = Guard(options.model_copy(update={
            "timeout_s": max(options.timeout_s, TRANSFER_TIMEOUT_S)}), endpoint=endpoint,
            role="batch endpoint")

    def line(self, custom_id: str, request: JudgeRequest) -> bytes:
        body = self.backend.request_body(request.model_copy(
            update={"structured_output": self.mode}))
        return (json.dumps({"custom_id": custom_id, "method": "POST", "url": ENDPOINT,
                            "body": body}, ensure_ascii=False) + "\n").encode("utf-8")

    async def upload(self, path: Path, name: str) -> str | None:
        client = self.backend.client()

        async def send() -> Any:
            with path.open("rb") as fh:
                return await client.files.create(file=(name, fh, "application/jsonl"),
                                                  purpose="batch")

        found = await self.transfers.call(lambda: self.backend.guarded(send))
        return _text(getattr(found, "id", None), "the file upload returned no file id")

    async def create(self, file_id: str | None, path: Path,
                     metadata: dict[str, str]) -> BatchState:
        client = self.backend.client()
        if file_id is None:
            raise BackendError("no input file to create the batch from")

        async def send() -> Any:
            return await client.batches.create(
                input_file_id=file_id, endpoint=ENDPOINT, completion_window=WINDOW,
                metadata=metadata)

        # sent once: a create that failed for the endpoint's sake (a timeout) may have
        # been made all the same, so it is looked for before it is sent again
        for attempt in range(self.guard.options.max_retries + 1):
            try:
                return _state(await self.backend.guarded(send))
            except BackendError as failure:
                if not failure.retryable or attempt == self.guard.options.max_retries:
                    raise
            made = await self.find(file_id)
            if made is not None:
                return made
        raise AssertionError("unreachable")  # pragma: no cover

    async def find(self, file_id: str) -> BatchState | None:
        client = self.backend.client()

        async def send() -> BatchState | None:
            seen = 0
            async for batch in client.batches.list(limit=100):
                if getattr(batch, "input_file_id", None) == file_id:
                    return _state(batch)
                seen += 1
                if seen >= FIND_AT_MOST:
                    break
            return None

        return await self.guard.call(lambda: self.backend.guarded(send))

    async def get(self, batch_id: str) -> BatchState:
        client = self.backend.client()
        return _state(await self.guard.call(
            lambda: self.backend.guarded(lambda: client.batches.retrieve(batch_id))))

    async def cancel(self, batch_id: str) -> BatchState:
        client = self.backend.client()
        return _state(await self.guard.call(
            lambda: self.backend.guarded(lambda: client.batches.cancel(batch_id))))

    async def download(self, file_id: str, dest: Path) -> None:
        client = self.backend.client()

        async def send() -> None:
            size = 0
            async with client.files.with_streaming_response.content(file_id) as resp:
                with dest.open("wb") as fh:
                    async for chunk in resp.iter_bytes():
                        size += len(chunk)
                        if size > MAX_FILE_BYTES:
                            raise BackendError(f"batch file {file_id} is over "
                                               f"{MAX_FILE_BYTES // 10**9} GB; not read")
                        fh.write(chunk)

        await self.transfers.call(lambda: self.backend.guarded(send))

    def outcomes(self, path: Path) -> Iterator[LineOutcome]:
        for obj in read_jsonl(path):
            custom_id = obj.get("custom_id")
            if not isinstance(custom_id, str) or not custom_id:
                continue
            yield self._outcome(custom_id, obj)

    def _outcome(self, custom_id: str, obj: dict[str, Any]) -> LineOutcome:
        response = obj.get("response")
        if not isinstance(response, dict):
            response = {}
        status = response.get("status_code")
        body = response.get("body")
        error = obj.get("error")
        if status == 200 and isinstance(body, dict) and not error:
            return LineOutcome(custom_id, body=body)
        message = ""
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            message = str(body["error"].get("message") or "")
        if isinstance(error, dict):
            message = message or str(error.get("message") or error.get("code") or "")
        head = f"HTTP {status}" if isinstance(status, int) else "batch line failed"
        detail = excerpt(self.backend.sanitise(message)) if message else ""
        return LineOutcome(custom_id, error=f"{head}: {detail}" if detail else head)

    def reply(self, body: Any, request: JudgeRequest) -> JudgeReply:
        return completion_reply(body, request, self.model)

    def usage(self, body: Any) -> tuple[int, int, int]:
        tin, tout, cached = usage_counts(body)
        return tin or 0, tout or 0, min(cached or 0, tin or 0)

    async def aclose(self) -> None:
        await self.backend.aclose()


def _text(value: Any, missing: str) -> str:
    if not isinstance(value, str) or not value:
        raise BackendError(missing)
    return value


def _state(batch: Any) -> BatchState:
    """The SDK's batch object as a BatchState (every field checked: a server is untrusted)."""
    batch_id = _text(getattr(batch, "id", None), "the batch endpoint returned no batch id")
    counts = getattr(batch, "request_counts", None)

    def count(name: str) -> int:
        value = getattr(counts, name, 0) if counts is not None else 0
        return value if isinstance(value, int) and value >= 0 else 0

    errors = getattr(getattr(batch, "errors", None), "data", None) or []
    messages = [str(getattr(e, "message", "") or getattr(e, "code", "")) for e in errors]
    error = "; ".join(m for m in messages if m)[:300] or None

    def file(name: str) -> str | None:
        value = getattr(batch, name, None)
        return value if isinstance(value, str) and value else None

    status = getattr(batch, "status", None)
    return BatchState(batch_id=batch_id, status=str(status or "unknown")[:40],
                      total=count("total"), completed=count("completed"),
                      failed=count("failed"), input_file=file("input_file_id"),
                      output_file=file("output_file_id"), error_file=file("error_file_id"),
                      error=error)


__all__ = ["LIMITS", "OpenAIBatches"]
