"""A monitor run as its readers see it (`ragassay runs show`, the dashboard's Monitor
page): the traces counted by state, each watched metric's baseline, windows (the trend
with its interval band), its newest window so far, its alarms, and the corrected
estimate of each window that people labelled (prediction-powered inference through the
run's annotation labels, `report.corrected_for` on the window's samples).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import BaseModel, ConfigDict

from ragassay.monitor.drift import baseline_size_line, on_scale, watched_metrics
from ragassay.monitor.settings import MonitorSettings, MonitorState
from ragassay.stats.corrected import CorrectedEstimate
from ragassay.store import Store


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Band(_Frozen):
    """A mean with its interval, on the metric's scale."""

    mean: float | None = None
    low: float | None = None
    high: float | None = None
    n: int = 0


class WindowPoint(_Frozen):
    """One closed window of a metric: the trend's point and its band."""

    window: int
    first: int
    last: int
    band: Band
    time: str
    corrected: tuple[CorrectedEstimate, ...] = ()


class MetricView(_Frozen):
    metric: str
    label: str
    baseline: Band | None = None
    source: str = ""
    alpha: float | None = None
    skipped: str | None = None
    asked: int | None = None
    """How many values the baseline would hold had none been unscored (None: a baseline
    stated before the count was kept)."""
    detectable: float | None = None
    """The smallest change from the baseline that can alarm, on the metric's scale."""
    size_line: str | None = None
    """The baseline's size and smallest detectable change, with the console's warning
    (`drift.baseline_size_line`); None without a baseline."""
    size_warns: bool = False
    windows: tuple[WindowPoint, ...] = ()
    current: Band | None = None
    alarms: tuple[dict[str, Any], ...] = ()


class MonitorView(_Frozen):
    run_id: str
    name: str
    status: str
    settings: MonitorSettings
    traces: dict[str, int]
    invalid_reasons: tuple[tuple[str, int], ...] = ()
    metrics: tuple[MetricView, ...] = ()
    alarms: tuple[dict[str, Any], ...] = ()  # every alarm, newest first


def monitor_view(store: Store, run_id: str, corrected: bool = True) -> MonitorView | None:
    """The monitor run's view (None when the run is no monitor)."""
    record = store.get_monitor(run_id)
    if record is None:
        return None
    run = store.get_run(run_id)
    settings = MonitorSettings.model_validate_json(record.settings)
    state = MonitorState.model_validate_json(record.state)
    specs = run.spec_map()
    events = store.monitor_events(run_id)
    counts = store.trace_counts(run_id)
    traces = {k: v + state.pruned.get(k, 0) for k, v in counts.items()}
    traces["accepted"] = sum(traces.values())
    per_window = _window_corrected(store, run_id, events) if corrected else {}
    of: dict[tuple[str, str | None], list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for _, kind, m, created, e in events:  # (kind, metric) -> its events: one pass
        of[kind, m].append((created, e))
    metrics = []
    for metric in watched_metrics(settings, specs):
        spec = specs[metric]
        base = state.baselines.get(metric)
        windows = tuple(
            WindowPoint(window=e["window"], first=e["positions"][0], last=e["positions"][1],
                        band=Band(mean=e["mean"], low=e["low"], high=e["high"], n=e["n"]),
                        time=created,
                        corrected=tuple(c for c in per_window.get(e["window"], ())
                                        if c.metric == metric))
            for created, e in of["window", metric])
        now = state.current.get(metric)
        stated = of["baseline", metric][-1][1] if of["baseline", metric] else {}
        asked, size = stated.get("asked"), stated.get("detectable")
        line, warns = (baseline_size_line(
            metric, base.source, base.interval.n, asked, size, spec.high - spec.low,
            bool(settings.baseline_run)) if base and asked is not None else (None, False))
        metrics.append(MetricView(
            metric=metric, label=spec.display_label,
            baseline=Band(**on_scale(spec, base.interval)) if base else None,
            source=base.source if base else "", alpha=base.alpha if base else None,
            skipped=state.skipped.get(metric), asked=asked, detectable=size,
            size_line=line, size_warns=warns, windows=windows,
            current=Band.model_validate(now) if now else None,
            alarms=tuple(e for _, e in of["alarm", metric])))
    alarms = tuple(e for _, kind, _, _, e in reversed(events) if kind == "alarm")
    return MonitorView(run_id=run_id, name=record.name, status=run.status, settings=settings,
                       traces=traces, invalid_reasons=tuple(store.invalid_reasons(run_id)),
                       metrics=tuple(metrics), alarms=alarms)


def _window_corrected(store: Store, run_id: str, events: list[Any]
                      ) -> dict[int, tuple[CorrectedEstimate, ...]]:
    """Each window's corrected estimates, where people labelled enough of its samples
    (nothing is read when the store holds no label)."""
    if not store.count_labels():
        return {}
    from dataclasses import replace

    from ragassay.report import corrected_for
    from ragassay.report.table import run_table
    from ragassay.stats import ScoreTable

    rt = run_table(store, run_id, keys=True)
    spans = sorted({tuple(e["positions"]) for _, kind, _, _, e in events if kind == "window"})
    if not spans:
        return {}
    positions = store.traces_at(run_id, [p for a, b in spans for p in range(a, b + 1)])
    where = {trace: p for p, (trace, _) in positions.items()}
    out: dict[int, tuple[CorrectedEstimate, ...]] = {}
    window_of = {span: next(e["window"] for _, kind, _, _, e in events
                            if kind == "window" and tuple(e["positions"]) == span)
                 for span in spans}
    for (first, last), window in window_of.items():
        rows = tuple(r for r in rt.table.rows if first <= where.get(r.id, -1) <= last)
        if not any(r.labels for r in rows):
            continue
        sub = replace(rt, table=ScoreTable(rows=rows, specs=rt.table.specs))
        found = corrected_for(store, run_id, rt=sub)
        out[window] = tuple(e for e in found.estimates if e.strategy is None)
    return out
