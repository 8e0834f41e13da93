"""Metric trends across runs, ordered by creation time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ragassay.stats.describe import mean_ci
from ragassay.stats.table import ScoreTable

Created = datetime | str


def _when(created: Created) -> tuple[int, Any]:
    """Sort key: datetimes (and ISO strings) by time, unparsable strings after, by text."""
    if isinstance(created, datetime):
        dt = created
    else:
        try:
            dt = datetime.fromisoformat(created)
        except ValueError:
            return (1, created)
    if dt.tzinfo is not None:  # naive times are taken as UTC so both kinds compare
        dt = dt.astimezone(UTC).replace(tzinfo=None)
    return (0, dt)


def _iso(created: Created) -> str:
    return created.isoformat() if isinstance(created, datetime) else created


def trend(points: Sequence[tuple[str, Created, float | None]]) -> list[dict[str, Any]]:
    """[{run_id, created, mean, delta}] sorted by time (stable for equal times).

    `delta` is the change from the previous point with a mean (None for the first
    or when either mean is missing).
    """
    ordered = sorted(points, key=lambda p: _when(p[1]))
    out: list[dict[str, Any]] = []
    prev: float | None = None
    for run_id, created, mean in ordered:
        delta = mean - prev if mean is not None and prev is not None else None
        out.append({"run_id": run_id, "created": _iso(created), "mean": mean, "delta": delta})
        if mean is not None:
            prev = mean
    return out


def trends(
    runs: Sequence[tuple[str, Created, ScoreTable]],
    metrics: Sequence[str] | None = None,
    *,
    seed: int = 0,
    n_resamples: int = 2000,
) -> dict[str, list[dict[str, Any]]]:
    """Per metric, the trend of its mean across runs, each point with a CI and count.

    `metrics` defaults to every metric seen in any run, in first-seen order; a run
    lacking a metric contributes a point with mean None and count 0.
    """
    names = (
        list(metrics)
        if metrics is not None
        else list(dict.fromkeys(m for _, _, t in runs for m in t.metrics))
    )
    order = sorted(range(len(runs)), key=lambda i: _when(runs[i][1]))
    out: dict[str, list[dict[str, Any]]] = {}
    for m in names:
        stats = [
            mean_ci(runs[i][2].values(m), seed=seed, n_resamples=n_resamples)
            if m in runs[i][2].specs
            else {"mean": None, "ci_low": None, "ci_high": None, "count": 0}
            for i in order
        ]
        points = trend(
            [(runs[i][0], runs[i][1], s["mean"]) for i, s in zip(order, stats, strict=True)]
        )
        for p, s in zip(points, stats, strict=True):
            p.update(ci_low=s["ci_low"], ci_high=s["ci_high"], count=s["count"])
        out[m] = points
    return out
