"""Embeddings from an OpenAI-compatible `/embeddings` endpoint (httpx, synchronous).

The API key is read from an environment variable and never logged or echoed
in errors.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import httpx
import numpy as np

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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"openai:{model}"
        self.dim = dim  # learned from the first reply when 0
        self.batch_size = batch_size
        key = os.environ.get(api_key_env, "")
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(timeout=timeout_s, headers=headers)

    def close(self) -> None:
        self._client.close()

    def _post(self, batch: list[str]) -> np.ndarray:
        try:
            resp = self._client.post(
                f"{self.base_url}/embeddings", json={"model": self.model, "input": batch}
            )
        except httpx.HTTPError as exc:
            raise RemoteEmbedderError(f"embeddings request failed: {type(exc).__name__}") from None
        if resp.status_code != 200:
            raise RemoteEmbedderError(f"embeddings endpoint answered HTTP {resp.status_code}")
        try:
            items = sorted(resp.json()["data"], key=lambda d: d.get("index", 0))
            arr = np.asarray([d["embedding"] for d in items], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise RemoteEmbedderError(f"unexpected embeddings reply: {exc}") from None
        if arr.shape[0] != len(batch):
            raise RemoteEmbedderError(f"asked for {len(batch)} embeddings, got {arr.shape[0]}")
        return arr

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [
            self._post(list(texts[i : i + self.batch_size]))
            for i in range(0, len(texts), self.batch_size)
        ]
        out = normalise_rows(np.concatenate(parts, axis=0))
        self.dim = out.shape[1]
        return out
