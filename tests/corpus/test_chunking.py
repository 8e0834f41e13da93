"""Chunker invariants: no text lost, sizes within bounds, overlap as configured."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragassay.corpus.chunking import Chunk, ChunkerSpec, chunk_document
from ragassay.corpus.documents import Document, load_corpus
from tests.bench.conftest import EXAMPLE, HashEmbedder

KINDS = ["fixed", "recursive", "sentence", "markdown", "semantic"]


def check_invariants(doc: Document, chunks: list[Chunk], spec: ChunkerSpec) -> None:
    covered = [False] * len(doc.text)
    for c in chunks:
        assert c.doc_id == doc.id
        assert c.text == doc.text[c.start : c.end]
        assert c.n_tokens == len(c.text.split())
        assert 1 <= c.n_tokens <= spec.size
        assert not c.text[0].isspace() and not c.text[-1].isspace()
        for i in range(c.start, c.end):
            covered[i] = True
    lost = [i for i, ch in enumerate(doc.text) if not ch.isspace() and not covered[i]]
    assert lost == [], f"characters not in any chunk: {doc.text[lost[0]:lost[0] + 20]!r}"
    starts = [c.start for c in chunks]
    assert starts == sorted(starts)


@pytest.fixture(scope="module")
def example_docs() -> list[Document]:
    return load_corpus(EXAMPLE / "corpus")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("size,overlap", [(40, 8), (128, 0), (7, 2)])
def test_invariants_on_the_example_corpus(
    example_docs: list[Document], kind: str, size: int, overlap: int
) -> None:
    spec = ChunkerSpec(kind=kind, size=size, overlap=1 if kind == "sentence" else overlap)
    for doc in example_docs:
        chunks = chunk_document(doc, spec, HashEmbedder())
        check_invariants(doc, chunks, spec)


def test_fixed_chunks_share_exactly_overlap_tokens() -> None:
    text = " ".join(f"w{i}" for i in range(23))
    chunks = chunk_document(Document(id="d", text=text), ChunkerSpec(kind="fixed", size=5,
                                                                      overlap=2))
    words = [c.text.split() for c in chunks]
    assert words[0] == ["w0", "w1", "w2", "w3", "w4"]
    for a, b in zip(words, words[1:], strict=False):
        assert a[-2:] == b[:2]
    assert words[-1][-1] == "w22"
    assert [len(w) for w in words] == [5, 5, 5, 5, 5, 5, 5]  # stride 3 over 23 words


def test_recursive_prefers_paragraph_boundaries() -> None:
    para = "alpha beta gamma delta."
    text = "\n\n".join([para] * 4)
    chunks = chunk_document(Document(id="d", text=text), ChunkerSpec(kind="recursive", size=9))
    assert [c.text for c in chunks] == [para + "\n\n" + para] * 2


def test_sentence_chunker_repeats_the_overlap_sentence() -> None:
    text = "One two three. Four five six. Seven eight nine. Ten eleven twelve."
    spec = ChunkerSpec(kind="sentence", size=6, overlap=1)
    chunks = chunk_document(Document(id="d", text=text), spec)
    assert [c.text for c in chunks] == [
        "One two three. Four five six.",
        "Four five six. Seven eight nine.",
        "Seven eight nine. Ten eleven twelve.",
    ]


def test_markdown_keeps_heading_paths() -> None:
    text = "# Guide\n\n## Leave\n\nTake 27 days.\n\n## Travel\n### Flights\nFly economy.\n"
    chunks = chunk_document(Document(id="g.md", text=text), ChunkerSpec(kind="markdown",
                                                                         size=50))
    assert [(c.heading_path, c.text.split("\n")[-1]) for c in chunks] == [
        (("Guide", "Leave"), "Take 27 days."),
        (("Guide", "Travel", "Flights"), "Fly economy."),
    ]
    assert chunks[0].indexed_text.startswith("Section: Guide > Leave\n\n# Guide")


def test_semantic_splits_where_topics_change() -> None:
    text = ("Cats purr softly. Cats purr loudly. Cats purr often. "
            "Rockets launch fast. Rockets launch high. Rockets launch daily.")
    spec = ChunkerSpec(kind="semantic", size=100, percentile=20)
    chunks = chunk_document(Document(id="d", text=text), spec, HashEmbedder(dim=256))
    assert [c.text for c in chunks] == [text[: text.index(" Rockets")],
                                        text[text.index("Rockets"):]]


def test_semantic_needs_an_embedder() -> None:
    with pytest.raises(ValueError, match="embedder"):
        chunk_document(Document(id="d", text="a b. c d."), ChunkerSpec(kind="semantic"))


def test_overlap_must_be_smaller_than_size() -> None:
    with pytest.raises(ValueError, match="overlap"):
        ChunkerSpec(kind="fixed", size=10, overlap=10)


_words = st.text(alphabet="abcde.#\n \t,", min_size=0, max_size=300)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(text=_words, kind=st.sampled_from(KINDS), size=st.integers(1, 12),
       overlap=st.integers(0, 11))
def test_invariants_on_random_text(text: str, kind: str, size: int, overlap: int) -> None:
    if kind != "sentence":
        overlap = min(overlap, size - 1)
    spec = ChunkerSpec(kind=kind, size=size, overlap=overlap)
    doc = Document(id="r", text=text)
    chunks = chunk_document(doc, spec, HashEmbedder())
    check_invariants(doc, chunks, spec)
    if not re.search(r"\S", text):
        assert chunks == []
    if kind == "fixed":
        for a, b in zip(chunks, chunks[1:], strict=False):
            shared = a.text[b.start - a.start:] if b.start < a.end else ""
            assert len(shared.split()) == overlap
