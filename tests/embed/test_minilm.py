"""The transformer embedder on onnxruntime: the ONNX writer, the graph built from the
packaged weights, its vectors against sentence-transformers on torch (the reference,
installed for development only), and that it runs with torch unimportable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ragassay.embed import get_embedder, packaged_model_path
from ragassay.embed.minilm import ModelFormatError, minilm_graph, read_safetensors
from ragassay.embed.onnx_proto import Graph, value_info
from ragassay.extras import installed

REPO = Path(__file__).resolve().parents[2]
ort = pytest.importorskip("onnxruntime")

# short and long, punctuation, digits, non-ASCII, an empty text, and one past 256 pieces
TEXTS = [
    "The company raised its dividend to 13 cents a share.",
    "Dividends were increased by the firm to $0.13 per share.",
    "",
    "Qu'est-ce que c'est ? Ça coûte 5 € — naïve café, 東京, emoji 🙂.",
    "How many days of annual leave do new employees get in their first year?",
    " ".join(["Employees accrue leave monthly, and unused days roll over once."] * 40),
    "a",
    "Reimbursement requires receipts within 30 days; managers approve claims over $500.",
]


def _session(model: bytes):  # type: ignore[no-untyped-def]
    return ort.InferenceSession(model, providers=["CPUExecutionProvider"])


def test_the_onnx_writer_carries_every_attribute_kind_and_negative_ints() -> None:
    """A graph with float, int (negative) and ints attributes and an int64 constant with
    negative values: onnxruntime reads it and computes what numpy does."""
    g = Graph("probe")
    t = g.node("Transpose", ["x"], perm=[1, 0])
    leaky = g.node("LeakyRelu", [t], alpha=0.25)
    g.node("Softmax", [leaky], axis=-1, output="y")
    g.node("Add", ["k", g.const("minus", np.array([-3, -(2**40)], np.int64))], output="z")
    model = g.model([value_info("x", np.float32, ["rows", 2]),
                     value_info("k", np.int64, [2])],
                    [value_info("y", np.float32, [2, "rows"]), value_info("z", np.int64, [2])],
                    {"": 17})
    x = np.array([[1.0, -2.0], [0.5, 3.0], [-1.0, 0.0]], np.float32)
    y, z = _session(model).run(None, {"x": x, "k": np.array([1, 2], np.int64)})
    leaky_t = np.where(x.T > 0, x.T, 0.25 * x.T)
    want = np.exp(leaky_t) / np.exp(leaky_t).sum(axis=-1, keepdims=True)
    assert np.allclose(y, want, atol=1e-6)
    assert z.tolist() == [-2, 2 - 2**40]


def test_the_graph_reads_the_packaged_weights_as_they_are() -> None:
    path = packaged_model_path()
    weights = read_safetensors(path / "model.safetensors")
    assert weights["embeddings.word_embeddings.weight"].shape == (30522, 384)
    assert weights["embeddings.word_embeddings.weight"].dtype == np.float32
    assert len([k for k in weights if k.endswith("attention.self.query.weight")]) == 6


def test_a_model_this_graph_cannot_run_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "gpt2"}))
    with pytest.raises(ModelFormatError, match="not a BERT encoder"):
        minilm_graph(tmp_path)


def _reference(texts: list[str], cut: int) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(packaged_model_path()), device="cpu")
    model.max_seq_length = cut
    return np.asarray(model.encode(texts, batch_size=3, normalize_embeddings=True))


@pytest.mark.skipif(not installed("sentence_transformers"),
                    reason="the torch reference is a development dependency")
@pytest.mark.parametrize("spec, cut", [("local", 256), ("local:16", 16)])
def test_vectors_match_sentence_transformers_on_torch(spec: str, cut: int) -> None:
    """Every text's vector has a cosine above 0.9999 with sentence-transformers' (the
    torch embedder this one replaced), at the default cut and at a short one; rows stay
    in the order of the texts (the embedder sorts them by length to batch them)."""
    emb = get_embedder(spec)
    emb.inner.batch_size = 3  # several batches, each of a different padded length
    ours = emb.embed(TEXTS)
    ref = _reference(TEXTS, cut)
    cosines = (ours * ref).sum(axis=1)
    assert cosines.min() > 0.9999, cosines
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)


def test_the_embedder_runs_with_torch_unimportable(tmp_path: Path) -> None:
    """With torch, sentence-transformers and transformers unimportable, "local" embeds,
    and nothing of the torch stack is loaded."""
    code = (
        "import importlib.abc, sys\n"
        "class Absent(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('torch', 'sentence_transformers', 'transformers'):\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Absent())\n"
        "from ragassay.embed import get_embedder\n"
        "v = get_embedder('local').embed(['a dividend of 13 cents', 'the cat sat'])\n"
        "print(v.shape, round(float(v[0] @ v[0]), 4))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["(2, 384) 1.0", "[]"]
