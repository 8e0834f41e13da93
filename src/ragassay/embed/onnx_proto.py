"""A minimal writer of ONNX models (the protobuf wire format), so that a graph can be
built from numpy weights without the `onnx` package (31 MB, and protobuf classes).

Only what an inference graph needs: nodes with int, float and ints attributes, float32
and int64 initialisers as raw little-endian data, inputs and outputs of symbolic shape.
The field numbers are those of onnx/onnx.proto3 (stable since IR version 3).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

import numpy as np

IR_VERSION = 8  # ONNX 1.10; every onnxruntime since 1.10 reads it
_ELEM = {np.dtype(np.float32): 1, np.dtype(np.int32): 6, np.dtype(np.int64): 7}
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7


Parts: TypeAlias = list[bytes | memoryview]  # a message as pieces, joined once at the end


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # a negative int64 is its two's complement, 10 bytes
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _int(num: int, value: int) -> Parts:
    return [_varint(num << 3) + _varint(value)]


def _len(num: int, parts: Parts) -> Parts:
    """A length-delimited field around `parts` (no copy of them: big tensors stay views)."""
    return [_varint(num << 3 | 2) + _varint(sum(len(p) for p in parts)), *parts]


def _str(num: int, text: str) -> Parts:
    return _len(num, [text.encode()])


def _attribute(name: str, value: int | float | Sequence[int]) -> Parts:
    body: Parts
    if isinstance(value, float):
        body = [_varint(2 << 3 | 5) + struct.pack("<f", value), *_int(20, _ATTR_FLOAT)]
    elif isinstance(value, int):
        body = [*_int(3, value), *_int(20, _ATTR_INT)]
    else:
        body = [p for v in value for p in _int(8, v)] + _int(20, _ATTR_INTS)
    return _str(1, name) + body


def tensor(name: str, array: np.ndarray) -> Parts:
    """A TensorProto: dims, data type, name and the raw little-endian data (a view)."""
    if array.dtype not in _ELEM:
        raise TypeError(f"tensor {name!r}: unsupported dtype {array.dtype}")
    raw = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).data.cast("B")
    dims = [p for d in array.shape for p in _int(1, d)]
    return dims + _int(2, _ELEM[array.dtype]) + _str(8, name) + _len(9, [raw])


def value_info(name: str, dtype: type, dims: Sequence[int | str]) -> Parts:
    """A graph input or output: name, element type and shape (ints or symbolic names)."""
    shape = [p for d in dims for p in _len(1, _int(1, d) if isinstance(d, int) else _str(2, d))]
    tensor_type = _int(1, _ELEM[np.dtype(dtype)]) + _len(2, shape)
    return _str(1, name) + _len(2, _len(1, tensor_type))


@dataclass
class Graph:
    """Nodes and initialisers added in order; `model()` serialises the whole ModelProto."""

    name: str
    nodes: list[Parts] = field(default_factory=list)
    initialisers: list[Parts] = field(default_factory=list)
    _count: int = 0

    def const(self, name: str, array: np.ndarray) -> str:
        self.initialisers.append(tensor(name, array))
        return name

    def node(self, op: str, inputs: Sequence[str], domain: str = "", output: str | None = None,
             unused_outputs: int = 0, **attrs: int | float | Sequence[int]) -> str:
        """Add one node (its output named after the op unless given); the output's name.
        `unused_outputs` more outputs are declared for ops that must have them."""
        self._count += 1
        out = output or f"{op}_{self._count}"
        outs = [out] + [f"{out}_{j}" for j in range(1, unused_outputs + 1)]
        body = [p for i in inputs for p in _str(1, i)] + [p for o in outs for p in _str(2, o)]
        body += _str(3, out) + _str(4, op)
        body += [p for k, v in attrs.items() for p in _len(5, _attribute(k, v))]
        if domain:
            body += _str(7, domain)
        self.nodes.append(body)
        return out

    def model(self, inputs: Sequence[Parts], outputs: Sequence[Parts],
              opsets: dict[str, int]) -> bytes:
        """The ModelProto's bytes (the one copy of the weights)."""
        graph = [p for n in self.nodes for p in _len(1, n)] + _str(2, self.name)
        graph += [p for t in self.initialisers for p in _len(5, t)]
        graph += [p for i in inputs for p in _len(11, i)]
        graph += [p for o in outputs for p in _len(12, o)]
        opset = [p for d, v in opsets.items()
                 for p in _len(8, (_str(1, d) if d else []) + _int(2, v))]
        return b"".join([*_int(1, IR_VERSION), *_str(2, "ragassay"), *_len(7, graph), *opset])
