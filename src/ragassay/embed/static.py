"""A static embedder: a token table distilled from the packaged MiniLM.

Embedding a sentence is a WordPiece tokenisation plus a weighted mean of
table rows, roughly 1000x cheaper than a transformer forward pass, which is
what lets the offline judge keep up with tens of samples a second on two cores.
The table (`static_minilm.npz`, built by scripts/devsets/distill_static.py)
ships in the package, with the model's WordPiece tokenizer (`static_minilm_tokenizer.json`):
the static embedder needs neither the model nor torch (the core install).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .base import normalise_rows
from .local import EmbedderUnavailable

TABLE_PATH = Path(__file__).resolve().parent / "static_minilm.npz"
TOKENIZER_PATH = Path(__file__).resolve().parent / "static_minilm_tokenizer.json"
MAX_TOKENS = 512  # words per text, like the transformer's sequence limit
MAX_WORDS = 500_000  # word cache bound
_WORD = re.compile(r"\w+|[^\w\s]")


class StaticEmbedder:
    """Weighted mean of distilled token vectors (model2vec-style), L2-normalised."""

    def __init__(self, table_path: str | Path | None = None) -> None:
        self.table_path = Path(table_path) if table_path is not None else TABLE_PATH
        if not self.table_path.is_file():
            raise EmbedderUnavailable(
                f"static embedding table missing at {self.table_path}; "
                "build it with scripts/devsets/distill_static.py"
            )
        with np.load(self.table_path) as z:
            self._table = z["table"].astype(np.float32)
            self._weights = z["weights"].astype(np.float32)
        self.dim = int(self._table.shape[1])
        self.name = "all-MiniLM-L6-v2-static"
        self._tok: Any = None
        self._lock = threading.Lock()
        self._tok_lock = threading.Lock()
        # word -> row of weighted, summed wordpiece vectors (BERT pre-tokenises on
        # whitespace and punctuation, so a sentence is the sum of its words' rows)
        self._word_index: dict[str, int] = {}
        self._buf = np.zeros((0, self.dim), np.float32)  # word rows, grown geometrically
        self._weight_of: dict[str, float] = {}

    def _tokenizer(self) -> Any:
        with self._tok_lock:
            if self._tok is None:
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(TOKENIZER_PATH))
                tok.no_padding()
                tok.no_truncation()
                self._tok = tok
        return self._tok

    @property
    def _word_vecs(self) -> np.ndarray:
        """The rows of the words seen so far (a view; call under the lock)."""
        return self._buf[: len(self._word_index)]

    def _word_rows(self, words: list[str]) -> list[int]:
        """Row indices (into the word table) of words; unseen words are tokenised once."""
        idx = self._word_index
        new = [w for w in dict.fromkeys(words) if w not in idx]
        if new:
            if len(idx) + len(new) > MAX_WORDS:  # bounded: start over rather than grow
                idx.clear()
                self._buf = np.zeros((0, self.dim), np.float32)
                new = list(dict.fromkeys(words))
            encs = self._tokenizer().encode_batch_fast(new, add_special_tokens=False)
            vecs = np.zeros((len(new), self.dim), np.float32)
            for j, enc in enumerate(encs):
                ids = np.asarray(enc.ids, dtype=np.int64)
                if ids.size:
                    vecs[j] = self._weights[ids] @ self._table[ids]
            base = len(idx)
            if base + len(new) > len(self._buf):  # amortised growth, not a copy per call
                size = max(base + len(new), min(2 * len(self._buf), MAX_WORDS), 1024)
                grown = np.zeros((size, self.dim), np.float32)
                grown[:base] = self._buf[:base]
                self._buf = grown
            self._buf[base : base + len(new)] = vecs
            for j, w in enumerate(new):
                idx[w] = base + j
        return [idx[w] for w in words]

    def word_weights(self, words: Sequence[str]) -> list[float]:
        """Per word, the mean SIF weight of its WordPiece tokens (near 1 for a rare word,
        near 0 for "the"): an inverse-frequency weight that needs no corpus."""
        words = [w.lower() for w in words]
        with self._lock:
            cache = self._weight_of
            new = [w for w in dict.fromkeys(words) if w not in cache]
            if new:
                if len(cache) + len(new) > MAX_WORDS:  # bounded: start over
                    cache.clear()
                    new = list(dict.fromkeys(words))
                encs = self._tokenizer().encode_batch_fast(new, add_special_tokens=False)
                for w, e in zip(new, encs, strict=True):
                    cache[w] = float(self._weights[e.ids].mean()) if e.ids else 0.0
            return [cache[w] for w in words]

    def word_vectors(self, words: Sequence[str]) -> np.ndarray:
        """Per word, its L2-normalised static vector (one row per word, zeros for a word
        without word pieces): word-to-word similarity, "tv" ~ "television"."""
        words = [w.lower() for w in words]
        with self._lock:
            rows = np.asarray(self._word_rows(words), dtype=np.int64)
            vecs = self._word_vecs[rows] if rows.size else np.zeros((0, self.dim), np.float32)
        return normalise_rows(vecs)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(texts) == 0:
            return out
        words = [_WORD.findall(t.lower())[:MAX_TOKENS] for t in texts]
        flat = [w for ws in words for w in ws]
        with self._lock:
            rows = np.asarray(self._word_rows(flat), dtype=np.int64)
            vecs = self._word_vecs
        lengths = np.fromiter((len(ws) for ws in words), dtype=np.int64, count=len(words))
        if rows.size:
            from scipy.sparse import csr_matrix

            indptr = np.concatenate([[0], np.cumsum(lengths)])
            counts = csr_matrix(
                (np.ones(rows.size, np.float32), rows, indptr), shape=(len(texts), len(vecs))
            )
            out = np.asarray(counts @ vecs, dtype=np.float32)
        return normalise_rows(out)
