"""The offline judge: evidence from embeddings, lexical checks and a small calibration.

from ragassay.judge.offline import Analyzer, reasoning, to_ten_point
ev = Analyzer().analyze(sample)
"""

from __future__ import annotations

from .analyzer import DEFAULT_EMBEDDER, Analyzer, Limits, Prepared
from .calibration import CALIBRATION_PATH, Calibration, LogisticModel, load_calibration
from .declines import is_noncommittal
from .evidence import (
    ATTRIBUTION_THRESHOLD,
    HALLUCINATION_THRESHOLD,
    REFERENCE_MATCH_THRESHOLD,
    RELEVANCE_THRESHOLD,
    SUPPORT_THRESHOLD,
    USED_THRESHOLD,
    USEFUL_THRESHOLD,
    Evidence,
    to_ten_point,
)
from .lexical import normalise_answer
from .reasoning import reasoning

__all__ = [
    "ATTRIBUTION_THRESHOLD",
    "CALIBRATION_PATH",
    "DEFAULT_EMBEDDER",
    "HALLUCINATION_THRESHOLD",
    "REFERENCE_MATCH_THRESHOLD",
    "RELEVANCE_THRESHOLD",
    "SUPPORT_THRESHOLD",
    "USED_THRESHOLD",
    "USEFUL_THRESHOLD",
    "Analyzer",
    "Calibration",
    "Evidence",
    "Limits",
    "LogisticModel",
    "Prepared",
    "is_noncommittal",
    "load_calibration",
    "normalise_answer",
    "reasoning",
    "to_ten_point",
]
