"""How a report publishes its statistics: floats rounded to 6 decimals, never NaN or
inf (`stats` computes them unrounded; the report rounds them here, in one place, for
the JSON and for every rendering, so that the HTML, the terminal and the dashboard show
the figures the JSON holds).

A p-value (a field or key ending in "_p" or starting with "p_") below 5e-7 keeps 4
significant digits instead: rounded to 6 decimals, a p of 4e-7 would read as exactly 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from pydantic import BaseModel

DECIMALS = 6


def is_p_value_key(key: object) -> bool:
    return isinstance(key, str) and (key.endswith("_p") or key.startswith("p_"))


def _number(x: float, p_value: bool) -> float | None:
    if not math.isfinite(x):
        return None
    tiny = 0 < abs(x) < 0.5 * 10**-DECIMALS
    r = float(f"{x:.4g}") if p_value and tiny else round(x, DECIMALS)
    return 0.0 if r == 0 else r  # no "-0.0"


def rounded(obj: Any, *, p_value: bool = False) -> Any:
    """`obj` with every float rounded (a non-finite one becomes None: "not computable" is
    a state, not a number) and numpy scalars unwrapped; a model is copied with its
    fields rounded, a mapping's keys become strings, arrays become lists. `p_value`
    (set for the values of p-value fields and keys) keeps significant digits."""
    if obj is None or isinstance(obj, str | bool):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, int | np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        return _number(float(obj), p_value)
    if isinstance(obj, BaseModel):
        return obj.model_copy(update={name: rounded(getattr(obj, name),
                                                    p_value=is_p_value_key(name))
                                      for name in type(obj).model_fields})
    if isinstance(obj, Mapping):
        return {str(k): rounded(v, p_value=is_p_value_key(k)) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return tuple(rounded(v, p_value=p_value) for v in obj)
    if isinstance(obj, list | np.ndarray):
        return [rounded(v, p_value=p_value) for v in obj]
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__}")
