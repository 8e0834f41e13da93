"""The bundled demo dataset and the file fingerprint."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from ragassay.dataset import DatasetError, dataset_fingerprint, demo_dataset_path, load_samples
from ragassay.types import Sample


@pytest.fixture(scope="module")
def demo() -> list[Sample]:
    out = load_samples(demo_dataset_path())
    assert all(isinstance(s, Sample) for s in out)
    return out  # type: ignore[return-value]


def test_demo_path_is_the_bundled_file(demo_data: Path) -> None:
    assert demo_dataset_path() == demo_data.resolve()
    assert demo_dataset_path().is_file()


def test_demo_shape(demo: list[Sample]) -> None:
    assert len(demo) == 24
    assert len({s.id for s in demo}) == 24
    assert Counter(s.strategy for s in demo) == {"bm25-k3": 12, "dense-k5": 12}
    by_strategy: dict[str, set[str]] = {}
    for s in demo:
        by_strategy.setdefault(s.strategy, set()).add(s.question)
    assert by_strategy["bm25-k3"] == by_strategy["dense-k5"]
    assert len(by_strategy["bm25-k3"]) == 12
    for s in demo:
        assert 2 <= len(s.contexts) <= 5, s.id
        assert s.references, s.id
        assert set(s.labels) == {"hallucination", "correct"}
        assert all(isinstance(v, bool) for v in s.labels.values())
        assert s.metadata["question_id"] in s.id


def test_demo_mix_of_cases(demo: list[Sample]) -> None:
    empty = [s for s in demo if not s.answer.strip()]
    assert len(empty) == 1 and empty[0].labels == {"hallucination": False, "correct": False}
    dont_know = [s for s in demo if s.answer.lower().startswith("i don't know")]
    assert len(dont_know) == 1 and dont_know[0].labels["correct"] is False
    hallucinated = [s for s in demo if s.labels["hallucination"]]
    good = [s for s in demo if s.labels == {"hallucination": False, "correct": True}]
    assert 4 <= len(hallucinated) <= 8
    assert len(good) >= 14
    # hallucinated numbers really are absent from the retrieved contexts
    by_id = {s.id: s for s in demo}
    assert "90 days" in by_id["q03-bm25-k3"].answer
    assert not any("90 days" in c for c in by_id["q03-bm25-k3"].contexts)
    assert "1,000" in by_id["q01-dense-k5"].answer
    assert not any("1,000" in c for c in by_id["q01-dense-k5"].contexts)
    assert not any("DataVault" in c for c in by_id["q12-dense-k5"].contexts)
    assert not any("100 MB" in c for c in by_id["q08-dense-k5"].contexts)


def test_fingerprint(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    data = b'{"question": "Q"}\n' * 100_000
    path.write_bytes(data)
    assert dataset_fingerprint(path) == hashlib.sha256(data).hexdigest()
    assert dataset_fingerprint(str(path)) == dataset_fingerprint(path)
    path.write_bytes(data + b"\n")
    assert dataset_fingerprint(path) != hashlib.sha256(data).hexdigest()
    with pytest.raises(DatasetError, match="file not found"):
        dataset_fingerprint(tmp_path / "missing.jsonl")
