"""Shared fixtures: a deterministic bag-of-words embedder and a tiny corpus."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from ragassay.text import tokens

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handbook"


class HashEmbedder:
    """Hashed bag of words, L2-normalised: texts sharing words are similar."""

    name = "hash-64"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in tokens(t):
                out[i, zlib.crc32(w.encode()) % self.dim] += 1.0
            if not out[i].any():
                out[i, 0] = 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture
def embedder() -> HashEmbedder:
    return HashEmbedder()


TINY_DOCS = {
    "leave.md": "# Leave\n\n## Annual leave\n\nEmployees get 27 days of annual leave. "
    "Unused days expire on 31 March.\n\n## Sick leave\n\nA doctor's note is needed after "
    "3 days of sickness.\n",
    "travel.txt": "Travel\n\nFlights under 6 hours are booked in economy. Longer flights may "
    "use premium economy.\n\nHotels in Toronto cost at most 220 euros per night.\n",
    "wellbeing.html": "<html><head><title>Wellbeing</title></head><body><h1>Wellbeing</h1>"
    "<p>CalmLine offers 6 free counselling sessions per year.</p></body></html>",
}

TINY_QUESTIONS = [
    '{"id": "a", "question": "How many days of annual leave do employees get?", '
    '"reference": "27 days.", "gold_docs": ["leave.md"]}',
    '{"id": "b", "question": "What is the hotel cap in Toronto?", "reference": "220 euros.", '
    '"gold_passages": [{"doc": "travel.txt", '
    '"quote": "Hotels in Toronto cost at most 220 euros"}]}',
    '{"id": "c", "question": "What is the dress code?", "reference": "The handbook does not say."}',
]


@pytest.fixture
def tiny_bench(tmp_path: Path) -> Path:
    """A tiny corpus, questions and bench.toml; returns the config path."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in TINY_DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    (tmp_path / "questions.jsonl").write_text("\n".join(TINY_QUESTIONS) + "\n")
    (tmp_path / "bench.toml").write_text(
        """
[bench]
name = "tiny"
corpus = "corpus"
questions = "questions.jsonl"
cache_dir = "cache"

[grid]
chunker = ["fixed", "markdown"]
size = [12]
overlap = [2]
retriever = ["bm25", "hybrid"]
k = [2]
"""
    )
    return tmp_path / "bench.toml"
