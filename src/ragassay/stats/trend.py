"""Metric trends across runs, ordered by creation time."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ragassay.stats.describe import Interval, metric_ci
from ragassay.stats.result import Result
from ragassay.stats.table import ScoreTable

Created = datetime | str


class TrendPoint(Result):
    """One run's point of a metric's trend: its mean with interval and count, and the
    change from the previous point with a mean (`delta`, None for the first)."""

    run_id: str
    created: str
    mean: float | None
    delta: float | None
    ci_low: float | None = None
    ci_high: float | None = None
    count: int = 0


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


def trend(points: Sequence[tuple[str, Created, float | Interval | None]]) -> list[TrendPoint]:
    """The points (run id, created, mean or the mean's interval) sorted by time (stable
    for equal times), each with its `delta`: the change from the previous point with a
    mean (None for the first or when either mean is missing)."""
    ordered = sorted(points, key=lambda p: _when(p[1]))
    out: list[TrendPoint] = []
    prev: float | None = None
    for run_id, created, value in ordered:
        stats = value if isinstance(value, Interval) else Interval(mean=value)
        mean = stats.mean
        delta = mean - prev if mean is not None and prev is not None else None
        out.append(TrendPoint(run_id=run_id, created=_iso(created), mean=mean, delta=delta,
                              ci_low=stats.ci_low, ci_high=stats.ci_high, count=stats.count))
        if mean is not None:
            prev = mean
    return out


def trends(
    runs: Sequence[tuple[str, Created, ScoreTable]],
    metrics: Sequence[str] | None = None,
    *,
    seed: int = 0,
    n_resamples: int = 2000,
) -> dict[str, list[TrendPoint]]:
    """Per metric, the trend of its mean across runs, each point with a CI and count.

    `metrics` defaults to every metric seen in any run, in first-seen order; a run
    lacking a metric contributes a point with mean None and count 0.
    """
    names = (
        list(metrics)
        if metrics is not None
        else list(dict.fromkeys(m for _, _, t in runs for m in t.metrics))
    )
    out: dict[str, list[TrendPoint]] = {}
    for m in names:
        out[m] = trend([(run_id, created, metric_ci(table, m, seed=seed,
                                                    n_resamples=n_resamples)
                         if m in table.specs else Interval())
                        for run_id, created, table in runs])
    return out
