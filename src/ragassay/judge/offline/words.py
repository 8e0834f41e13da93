"""Word-level views from the packaged static table, shared by relevance and support.

One `StaticEmbedder` per process, built on first use: its SIF weights ("naturalization"
counts, "the" does not) and its word vectors ("tv" ~ "television"). The table ships
with the core install, so these work whatever sentence embedder a run uses.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ragassay.embed import StaticEmbedder, get_embedder

_table: StaticEmbedder | None = None
_lock = threading.Lock()


def static_table() -> StaticEmbedder:
    """The process's shared static table: the one `get_embedder("static")` wraps, so
    the table and its word cache are in memory once."""
    global _table
    with _lock:
        if _table is None:
            inner = getattr(get_embedder("static"), "inner", None)
            _table = inner if isinstance(inner, StaticEmbedder) else StaticEmbedder()
        return _table


def word_weights(words: Sequence[str]) -> list[float]:
    """Per word, its inverse-frequency (SIF) weight, near 1 for a rare word."""
    return static_table().word_weights(words)


def word_vectors(words: Sequence[str]) -> np.ndarray:
    """Per word, its L2-normalised static vector."""
    return static_table().word_vectors(words)
