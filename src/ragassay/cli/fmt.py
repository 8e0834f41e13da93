"""Number and interval formatting shared by the CLI's tables."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ragassay.stats.describe import NO_INTERVAL, interval_text

if TYPE_CHECKING:
    from ragassay.types import MetricSpec

__all__ = ["NO_INTERVAL", "auroc_of", "ci_text", "created_text", "num", "penalty_note"]


def num(v: Any, digits: int = 3) -> str:
    """A float with fixed decimals; None as `-`; anything else as text."""
    return "-" if v is None else f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def ci_text(pair: Any, n: int | None = None, digits: int = 3) -> str:
    """`[0.412, 0.733]`; `n=1, no interval` for one value; `-` when there is none."""
    low, high = (pair[0], pair[1]) if pair else (None, None)
    return interval_text(low, high, n, digits)


def created_text(when: datetime) -> str:
    """When a run was created, as its tables show it: `2026-12-05 09:13` (the JSON keeps
    the full ISO time); two words, so that a narrow column wraps it whole."""
    return when.strftime("%Y-%m-%d %H:%M")


def penalty_note(spec: MetricSpec) -> str | None:
    """What a composite with a penalty is on a penalised answer, by design (trial 83: an
    overall of 0 beside good part scores read as a bug): `METRIC = (0.3 CR + ...) x (1 -
    hallucination): 0 on every answer PENALTY flags, by design, so its mean counts each
    flagged answer as 0 whatever its other scores`; None for any other metric."""
    if spec.composite is None or spec.composite.penalty is None:
        return None
    return (f"{spec.name} = {spec.description}: 0 on every answer {spec.composite.penalty} "
            "flags, by design, so its mean counts each flagged answer as 0 whatever its "
            "other scores")


def auroc_of(spec: MetricSpec | None, verdict: bool = False) -> str:
    """What an AUROC ranks, in words (trial 87: `eval` said "AUROC 0.90", the 1-10
    rating's, and `gate` "AUROC 0.82", the yes/no verdict's, and a user could not tell
    which to trust): `the yes/no verdict` (a metric giving yes/no, or `verdict`), else
    `the 1-10 rating` on the metric's scale; `the score` without a spec."""
    if verdict or (spec is not None and spec.kind == "bool"):
        return "the yes/no verdict"
    if spec is None:
        return "the score"
    return f"the {spec.low:g}-{spec.high:g} rating"
