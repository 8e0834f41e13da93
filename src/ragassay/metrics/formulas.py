"""Formulas shared by the suites: pure functions over verdicts, no judge involved.

Where a verdict carries a probability for every item (the offline judge), the
formulas use the probabilities (a soft value that ranks better); otherwise the
LLM's yes/no verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence


def unit(x: float) -> float:
    """Clamp to [0, 1] (NaN -> 0)."""
    x = float(x)
    if x != x:  # NaN
        return 0.0
    return min(1.0, max(0.0, x))


def is_soft(flags: Sequence[bool], probabilities: Sequence[float | None]) -> bool:
    """Whether every item has a probability (so `share` averages them)."""
    return bool(flags) and len(probabilities) == len(flags) and all(
        p is not None for p in probabilities)


def share(flags: Sequence[bool], probabilities: Sequence[float | None] = ()) -> float | None:
    """Share of true flags; the mean probability when every item has one. None when empty.

    ragas.faithfulness = supported claims / claims; ragas.context_recall = attributed
    reference sentences / reference sentences; trace.adherence_ratio = supported answer
    sentences / judged answer sentences.
    """
    if not flags:
        return None
    if is_soft(flags, probabilities):
        return sum(unit(p) for p in probabilities if p is not None) / len(flags)
    return sum(1 for f in flags if f) / len(flags)
