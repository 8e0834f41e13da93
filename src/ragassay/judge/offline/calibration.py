"""Logistic models fitted offline (scripts/devsets/fit_offline.py), applied without sklearn.

calibration.json holds, per model, the feature names, standardisation and
coefficients: p = sigmoid(intercept + sum(coef * (x - mean) / scale)).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

CALIBRATION_PATH = Path(__file__).resolve().parent / "calibration.json"


@dataclass(frozen=True)
class LogisticModel:
    """A standardised logistic regression over named features."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LogisticModel:
        n = len(d["features"])
        arrays = [np.asarray(d[k], dtype=np.float64) for k in ("mean", "scale", "coef")]
        if any(a.shape != (n,) for a in arrays):
            raise ValueError("calibration model: mean/scale/coef must match the features")
        return cls(tuple(d["features"]), arrays[0], arrays[1], arrays[2], float(d["intercept"]))

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "mean": [round(float(x), 6) for x in self.mean],
            "scale": [round(float(x), 6) for x in self.scale],
            "coef": [round(float(x), 6) for x in self.coef],
            "intercept": round(self.intercept, 6),
        }

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits for a (n, features) matrix."""
        x = np.asarray(x, dtype=np.float64).reshape(-1, len(self.features))
        return ((x - self.mean) / self.scale) @ self.coef + self.intercept

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Probabilities for a (n, features) matrix."""
        return 1.0 / (1.0 + np.exp(-np.clip(self.logits(x), -30, 30)))

    def predict_one(self, row: list[float]) -> float:
        z = float(self.logits(np.asarray([row]))[0])
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@dataclass(frozen=True)
class Calibration:
    support: LogisticModel
    faithfulness: LogisticModel
    reference_match: LogisticModel
    meta: dict[str, Any]


@lru_cache(maxsize=4)
def load_calibration(path: str | None = None) -> Calibration:
    """Load (once) the shipped calibration, or the one at `path`."""
    p = Path(path) if path else CALIBRATION_PATH
    data = json.loads(p.read_text(encoding="utf-8"))
    return Calibration(
        support=LogisticModel.from_dict(data["support"]),
        faithfulness=LogisticModel.from_dict(data["faithfulness"]),
        reference_match=LogisticModel.from_dict(data["reference_match"]),
        meta=data.get("meta", {}),
    )
