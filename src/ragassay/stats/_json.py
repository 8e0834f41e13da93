"""Make statistics JSON-safe: plain floats rounded to 6 decimals, never NaN or inf.

A p-value (a key ending in "_p" or starting with "p_") below 5e-7 keeps 4 significant
digits instead: rounded to 6 decimals, a p of 4e-7 would read as exactly 0."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

DECIMALS = 6


def is_p_value_key(key: object) -> bool:
    return isinstance(key, str) and (key.endswith("_p") or key.startswith("p_"))


def clean(obj: Any, *, p_value: bool = False) -> Any:
    """Return `obj` with numpy scalars unwrapped, tuples as lists, floats rounded.

    A non-finite float becomes None: "not computable" is a state, not a number.
    `p_value` (set for the values of p-value keys) keeps significant digits.
    """
    if obj is None or isinstance(obj, str | bool):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, int | np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        x = float(obj)
        if not math.isfinite(x):
            return None
        tiny = 0 < abs(x) < 0.5 * 10**-DECIMALS
        r = float(f"{x:.4g}") if p_value and tiny else round(x, DECIMALS)
        return 0.0 if r == 0 else r  # no "-0.0"
    if isinstance(obj, Mapping):
        return {str(k): clean(v, p_value=is_p_value_key(k)) for k, v in obj.items()}
    if isinstance(obj, list | tuple | np.ndarray):
        return [clean(v, p_value=p_value) for v in obj]
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__}")

