"""Number and interval formatting shared by the CLI's tables."""

from __future__ import annotations

from typing import Any

from ragassay.stats.describe import NO_INTERVAL

__all__ = ["NO_INTERVAL", "ci_text", "num"]


def num(v: Any, digits: int = 3) -> str:
    """A float with fixed decimals; None as `-`; anything else as text."""
    return "-" if v is None else f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def ci_text(pair: Any, n: int | None = None, digits: int = 3) -> str:
    """`[0.412, 0.733]`; `n=1, no interval` for one value; `-` when there is none."""
    if n == 1:
        return NO_INTERVAL
    if not pair or pair[0] is None or pair[1] is None:
        return "-"
    return f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"
