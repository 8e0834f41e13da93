"""How far each offline-judge metric agrees with people on data it was not fitted on.

`reliability.json` (shipped next to this module) holds the leave-one-dataset-out
figures of `scripts/devsets/loo.py --reliability`: per metric and dev set, the
agreement statistic (AUROC against a binary label, Spearman against a graded one),
its bootstrap 95% CI and the lexical baseline. Each set was scored by models fitted
and chosen without it, so these are figures on unseen human-labelled data; they travel
with a run so that a reader knows how much to trust each number.

    from ragassay.judge.offline import load_reliability
    rel = load_reliability()["judge.faithfulness"]
    rel.summary()   # "AUROC 0.57-0.93 on 7 unseen human-labelled sets (median 0.73)"
    rel.below()     # True: below LOW_AGREEMENT (AUROC 0.7) on some set, worth a warning
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

RELIABILITY_PATH = Path(__file__).resolve().parent / "reliability.json"
# Below these a gate on the metric deserves a warning (the 0.7 for AUROC; a
# Spearman under 0.4 ranks graded labels weakly).
LOW_AGREEMENT = {"AUROC": 0.7, "Spearman": 0.4}


@dataclass(frozen=True)
class SetFigure:
    """One metric on one held-out dev set."""

    dataset: str
    statistic: str  # "AUROC" or "Spearman"
    value: float
    ci: tuple[float, float] | None
    n: int
    baseline: float | None  # the lexical baseline's value of the same statistic


@dataclass(frozen=True)
class MetricReliability:
    """A metric's measured agreement with people across the held-out dev sets."""

    metric: str
    figures: tuple[SetFigure, ...]

    def values(self, statistic: str) -> list[float]:
        return [f.value for f in self.figures if f.statistic == statistic]

    @property
    def statistics(self) -> list[str]:
        """The statistics it was measured with, most sets first (AUROC, Spearman)."""
        stats = [f.statistic for f in self.figures]
        return sorted(set(stats), key=lambda s: (-stats.count(s), s))

    @property
    def low(self) -> float:
        """The lowest value of its main statistic across the held-out sets."""
        return min(self.values(self.statistics[0]))

    def below(self) -> bool:
        """Whether its agreement is below LOW_AGREEMENT on some held-out set."""
        return any(f.value < LOW_AGREEMENT.get(f.statistic, float("inf")) for f in self.figures)

    def summary(self) -> str:
        """One line for a report or the CLI: "AUROC 0.57-0.93 on 7 unseen human-labelled
        sets (median 0.73)"; statistics joined by "; "."""
        parts = []
        for stat in self.statistics:
            vals = sorted(self.values(stat))
            n = len(vals)
            if n == 1:
                parts.append(f"{stat} {vals[0]:.2f} on 1 unseen human-labelled set")
            else:
                parts.append(
                    f"{stat} {vals[0]:.2f}-{vals[-1]:.2f} on {n} unseen human-labelled sets "
                    f"(median {statistics.median(vals):.2f})"
                )
        return "; ".join(parts)


def _figure(d: dict[str, Any]) -> SetFigure:
    ci = d.get("ci")
    return SetFigure(
        dataset=str(d["set"]),
        statistic=str(d["statistic"]),
        value=float(d["value"]),
        ci=(float(ci[0]), float(ci[1])) if ci else None,
        n=int(d["n"]),
        baseline=float(d["baseline"]) if d.get("baseline") is not None else None,
    )


@lru_cache(maxsize=4)
def load_reliability(path: str | None = None) -> dict[str, MetricReliability]:
    """Metric name -> its measured reliability (the shipped table, or the one at `path`).
    A metric absent from the table has no measured agreement."""
    data = json.loads(Path(path or RELIABILITY_PATH).read_text(encoding="utf-8"))
    by_metric: dict[str, list[SetFigure]] = {}
    for d in data["figures"]:
        if d.get("value") is not None:
            by_metric.setdefault(str(d["metric"]), []).append(_figure(d))
    return {m: MetricReliability(m, tuple(f)) for m, f in by_metric.items()}


def reliability_meta(path: str | None = None) -> dict[str, Any]:
    """The table's provenance: protocol, date, command, judge configuration."""
    data = json.loads(Path(path or RELIABILITY_PATH).read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if k != "figures"}
