"""Make statistics JSON-safe: plain floats rounded to 6 decimals, never NaN or inf."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

DECIMALS = 6


def clean(obj: Any) -> Any:
    """Return `obj` with numpy scalars unwrapped, tuples as lists, floats rounded.

    A non-finite float becomes None: "not computable" is a state, not a number.
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
        r = round(x, DECIMALS)
        return 0.0 if r == 0 else r  # no "-0.0"
    if isinstance(obj, Mapping):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | np.ndarray):
        return [clean(v) for v in obj]
    raise TypeError(f"not JSON-serialisable: {type(obj).__name__}")

