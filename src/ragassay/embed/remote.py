"""Embeddings from an OpenAI-compatible `/embeddings` endpoint.

Requests go through the same policy layer as judge calls (`ragassay.llm.policy.Guard`:
timeout, retries with backoff and Retry-After, AIMD limits, the stops), and the key is
read the same way (`BackendOptions.api_key_env` / `api_key_file`), never logged or echoed.
`embed()` is synchronous (embedders are called from worker threads); each call runs its
batches on a loop of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import numpy as np

from ragassay.aio import run_sync
from ragassay.llm.base import BackendError
from ragassay.llm.openai_backend import resolve_api_key
from ragassay.llm.policy import Guard
from ragassay.llm.retry import is_retryable_status, parse_retry_after
from ragassay.types import BackendOptions

from .base import normalise_rows


class RemoteEmbedderError(RuntimeError):
    """The endpoint failed or answered something unusable."""


class OpenAIEmbedder:
    """POST {base_url}/embeddings with {"model", "input"}; rows are re-normalised."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key_env: str = "OPENAI_API_KEY",
        batch_size: int = 128,
        timeout_s: float = 60.0,
        dim: int = 0,
        options: BackendOptions | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"openai:{model}"
        self.dim = dim  # learned from the first reply when 0
        self.batch_size = batch_size
        self.options = options or BackendOptions(base_url=self.base_url, api_key_env=api_key_env,
                                                 timeout_s=timeout_s)
        key = resolve_api_key(self.options)
        self._headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.guard = Guard(self.options, endpoint=self.base_url, role="embeddings endpoint")

    def close(self) -> None:
        return None

    async def _post(self, client: httpx.AsyncClient, batch: list[str]) -> np.ndarray:
        try:
            resp = await client.post(f"{self.base_url}/embeddings",
                                     json={"model": self.model, "input": batch})
        except httpx.TimeoutException:
            raise BackendError(f"timed out ({self.options.timeout_s:g}s)",
                               retryable=True) from None
        except httpx.HTTPError as exc:
            kind = "connect" if isinstance(exc, httpx.ConnectError) else "other"
            raise BackendError(f"connection error ({type(exc).__name__})", retryable=True,
                               kind=kind) from None
        if resp.status_code != 200:
            raise BackendError(f"HTTP {resp.status_code}", status=resp.status_code,
                               retryable=is_retryable_status(resp.status_code),
                               retry_after=parse_retry_after(dict(resp.headers)))
        try:
            items = sorted(resp.json()["data"], key=lambda d: d.get("index", 0))
            arr = np.asarray([d["embedding"] for d in items], dtype=np.float32)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BackendError(f"unexpected embeddings reply: {type(exc).__name__}") from None
        if arr.shape[0] != len(batch) or arr.ndim != 2:
            raise BackendError(f"asked for {len(batch)} embeddings, got {arr.shape[0]}")
        return arr

    async def _embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        async with httpx.AsyncClient(timeout=self.options.timeout_s,
                                     headers=self._headers) as client:
            parts = []
            for i in range(0, len(texts), self.batch_size):
                batch = list(texts[i : i + self.batch_size])

                async def send(batch: list[str] = batch) -> np.ndarray:
                    return await self._post(client, batch)

                parts.append(await self.guard.call(send))
            return parts

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            parts = run_sync(self._embed(texts))
        except BackendError as exc:
            raise RemoteEmbedderError(exc.stop or f"embeddings request failed: {exc.reason}"
                                      ) from None
        out = normalise_rows(np.concatenate(parts, axis=0))
        self.dim = out.shape[1]
        return out
