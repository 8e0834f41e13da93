"""The monitor's drift tests: one `stats.drift.DriftTest` per watched metric, fed each
scored trace's value in the order traces were scored (their positions), the baseline
established once and kept in the monitor's state, every event written through the
`EventSink` (stored once per key: a restart replays its live windows silently).

The false-alarm budget `alpha` is split evenly over the metrics tested (Bonferroni), so
that the chance of any false alarm of the whole monitor, on any metric, ever, is at most
alpha. Values are put on 0-1 by each metric's declared range (`MetricSpec.normalise`);
what is written is on the metric's own scale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ragassay.monitor.events import EventSink
from ragassay.monitor.settings import BaselineRecord, MonitorSettings, StateBox
from ragassay.stats.drift import (
    Crossing,
    DriftSettings,
    DriftTest,
    Event,
    Recovery,
    Watched,
    WindowClosed,
)
from ragassay.stats.sequential import StreamInterval
from ragassay.store import Store
from ragassay.types import MetricSpec

MIN_BASELINE = 20
"""A metric with fewer scored values in its baseline is not tested (said once)."""

DETECTABLE_BOUND = 0.2
"""A baseline whose smallest detectable change exceeds this share of the metric's range
(e.g. a rate change above 0.2) is too wide to see an ordinary drop: said once."""


def detectable(interval: StreamInterval, watched: Watched) -> float | None:
    """The smallest change (0-1) from the baseline's mean that can alarm: a window must
    lie wholly past the baseline's watched end, so a smaller shift never can."""
    if interval.mean is None or interval.low is None or interval.high is None:
        return None
    gaps = {"lower": interval.mean - interval.low, "higher": interval.high - interval.mean}
    return max(gaps.values()) if watched == "both" else gaps[watched]


def baseline_size_line(metric: str, source: str, n: int, asked: int, size: float | None,
                       span: float, from_run: bool) -> tuple[str, bool]:
    """How large a baseline is, as the console, `runs show` and the dashboard say it: the
    values it holds (of how many asked) and its smallest detectable change `size` (metric
    scale), with one warning when that is wider than DETECTABLE_BOUND of the `span` or
    values are missing. Returns (the line, whether it warns)."""
    held = f"{n} values" + (f" of the {asked} asked" if asked > n else "")
    line = f"{metric} baseline ({source}): {held}; smallest detectable change " \
        + ("-" if size is None else f"{size:.3g}")
    problems = []
    if size is not None and size > DETECTABLE_BOUND * span:
        problems.append(f"wider than {DETECTABLE_BOUND * span:.3g}, so smaller drifts "
                        "cannot alarm")
    if asked > n:
        problems.append(f"{asked - n} baseline values were unscored or abstained")
    if not problems:
        return line, False
    fix = "name a larger --baseline run" if from_run else \
        "raise --baseline-traces (a larger baseline window)"
    return f"{line}; warning: {'; '.join(problems)}: {fix}", True


def watched_metrics(settings: MonitorSettings, specs: dict[str, MetricSpec]) -> list[str]:
    """The metrics whose drift raises alarms: those named, else the run's headline
    metrics (their declared order)."""
    if settings.alarm_metrics:
        return [m for m in settings.alarm_metrics if m in specs]
    ranked = sorted((s for s in specs.values() if s.headline is not None),
                    key=lambda s: s.headline or 0)
    return [s.name for s in ranked]


def on_scale(spec: MetricSpec, interval: StreamInterval) -> dict[str, Any]:
    """An interval on 0-1 as written: on the metric's own scale."""

    def scale(v: float | None) -> float | None:
        return None if v is None else spec.low + v * (spec.high - spec.low)

    return {"mean": scale(interval.mean), "low": scale(interval.low),
            "high": scale(interval.high), "n": interval.n}


class DriftWatch:
    """Every watched metric's test for one monitor run."""

    def __init__(self, store: Store, run_id: str, settings: MonitorSettings,
                 specs: dict[str, MetricSpec], box: StateBox, sink: EventSink,
                 say: Callable[[str], None]) -> None:
        self.store, self.run_id, self.settings = store, run_id, settings
        self.say = say  # a line for the person (stderr)
        self.specs = specs
        self.box = box
        self.sink = sink
        self.metrics = watched_metrics(settings, specs)
        self.start = 0 if settings.baseline_run else settings.baseline_traces
        self.tests: dict[str, DriftTest] = {}

    # -- baseline ---------------------------------------------------------------------

    @property
    def established(self) -> bool:
        return bool(self.box.state.baselines or self.box.state.skipped)

    def _normalised(self, metric: str, values: Sequence[float | None]) -> np.ndarray:
        spec = self.specs[metric]
        return np.array([np.nan if v is None else min(1.0, max(0.0, spec.normalise(v)))
                         for v in values], dtype=np.float64)

    def establish(self, baseline: dict[str, list[float]], source: str,
                  asked: dict[str, int]) -> None:
        """Fix each metric's baseline from its values (metric scale); a metric with too
        few is skipped. Written as `baseline` events and kept in the state. `asked`: how
        many values each metric's baseline would hold had none been unscored."""
        enough = {m: v for m, v in baseline.items() if len(v) >= MIN_BASELINE}
        skipped = {m: f"only {len(baseline.get(m, []))} scored values in the baseline "
                      f"({source}); at least {MIN_BASELINE} are needed"
                   for m in self.metrics if m not in enough}
        share = self.settings.alpha / max(1, len(enough))
        records = {}
        for metric, values in enough.items():
            interval = self._settings(metric, share).baseline_interval(
                self._normalised(metric, values))
            records[metric] = BaselineRecord(metric=metric, interval=interval, source=source,
                                             alpha=share)
        self.box.update(baselines=records, skipped=skipped)
        for metric, rec in records.items():
            self._state_baseline(metric, rec, asked.get(metric, rec.interval.n))
        for metric, why in skipped.items():
            self.sink.emit({"event": "note", "metric": metric,
                            "message": f"{metric} is not tested: {why}"},
                           key=f"skipped:{metric}", metric=metric)

    def _state_baseline(self, metric: str, rec: BaselineRecord, asked: int) -> None:
        """The `baseline` event with how many values it holds (of how many asked) and the
        smallest change it can detect; one warning line (a `note`, and to the person)
        when that change is wider than DETECTABLE_BOUND or values are missing."""
        spec = self.specs[metric]
        gap = detectable(rec.interval, self._settings(metric).watched)
        span = spec.high - spec.low
        size = None if gap is None else gap * span
        emitted = self.sink.emit({"event": "baseline", "metric": metric,
                                  "source": rec.source, "alpha": rec.alpha,
                                  **on_scale(spec, rec.interval), "asked": asked,
                                  "detectable": size},
                                 key=f"baseline:{metric}", metric=metric)
        line, warning = baseline_size_line(metric, rec.source, rec.interval.n, asked, size,
                                           span, bool(self.settings.baseline_run))
        if warning:
            self.sink.emit({"event": "note", "metric": metric, "message": line},
                           key=f"baseline-warning:{metric}", metric=metric)
        if emitted:
            self.say(line)

    def baseline_from_run(self, run_id: str) -> None:
        """The baseline of every watched metric from another run's scored values."""
        rows = {m: [v for _, _, v, _ in self.store.metric_values(run_id, m)]
                for m in self.metrics}
        self.establish({m: [v for v in r if v is not None] for m, r in rows.items()},
                       f"run {run_id}", {m: len(r) for m, r in rows.items()})

    def _baseline_from_traces(self) -> None:
        n = self.settings.baseline_traces
        values = {m: [v for _, v in self.store.position_values(self.run_id, m, 0, n - 1)
                      if v is not None] for m in self.metrics}
        self.establish(values, f"first {n} scored traces", dict.fromkeys(self.metrics, n))

    # -- tests ------------------------------------------------------------------------

    def _settings(self, metric: str, alpha: float | None = None) -> DriftSettings:
        """The metric's test: its share of alpha, its worse side (or both)."""
        if alpha is None:
            alpha = self.box.state.baselines[metric].alpha
        higher = self.specs[metric].higher_is_better
        watched: Watched = "both" if self.settings.watch == "both" else (
            "lower" if higher else "higher")
        return DriftSettings(alpha=alpha, window=self.settings.window,
                             horizon=self.settings.horizon, watched=watched)

    def resume(self) -> None:
        """Start (or restart) the tests: the baseline from the stored values if it is due,
        then the live windows replayed from the store (their events already stored are
        not written again)."""
        if self.settings.baseline_run and not self.established:
            self.baseline_from_run(self.settings.baseline_run)
        scored = self.store.next_position(self.run_id)
        if not self.established and scored >= self.start:
            self._baseline_from_traces()
        if not self.established:
            return
        alarmed = self._alarmed()
        for metric, rec in self.box.state.baselines.items():
            settings = self._settings(metric)
            test = DriftTest(rec.interval, settings, self.start,
                             alarmed=set(alarmed.get(metric, set())))
            if scored > self.start:
                test.resume_window = max(1, test.window_of(scored - 1) - settings.horizon + 1)
            self.tests[metric] = test
        if scored > self.start:
            first = min(t.window_first(t.resume_window) for t in self.tests.values())
            self._feed(first, scored - first)

    def _alarmed(self) -> dict[str, set[Any]]:
        """Per metric, the directions whose last alarm has not recovered."""
        out: dict[str, set[Any]] = {}
        for _, kind, metric, _, event in self.store.monitor_events(self.run_id):
            if metric is None or kind not in ("alarm", "recovery"):
                continue
            d = event.get("direction")
            if kind == "alarm":
                out.setdefault(metric, set()).add(d)
            else:
                out.setdefault(metric, set()).discard(d)
        return out

    def observe(self, first: int, count: int) -> None:
        """Positions first .. first + count - 1 were just scored."""
        end = first + count
        if not self.established:
            if end < self.start:
                return
            self._baseline_from_traces()
            self.resume()  # replays what came after the baseline in this batch
            return
        self._feed(max(first, self.start), end - max(first, self.start))

    def _feed(self, first: int, count: int) -> None:
        if count <= 0:
            return
        last = first + count - 1
        for metric, test in self.tests.items():
            found = dict(self.store.position_values(self.run_id, metric, first, last))
            raw = [found.get(p) for p in range(first, last + 1)]
            start = max(first, test.window_first(test.resume_window))
            values = self._normalised(metric, raw)[start - first:]
            done = test.next_position
            if done is not None and done > start:  # already fed (a replay)
                values = values[done - start:]
                start = done
            for event in test.add_many(start, values):
                self._write(metric, event)

    def _write(self, metric: str, event: Event) -> None:
        spec = self.specs[metric]
        base = self.box.state.baselines[metric]
        baseline = {**on_scale(spec, base.interval), "source": base.source}
        if isinstance(event, WindowClosed):
            self.sink.emit({"event": "window", "metric": metric, "window": event.window,
                            "positions": [event.first, event.last],
                            "alpha": event.interval.alpha,
                            **on_scale(spec, event.interval), "baseline": baseline},
                           key=f"window:{metric}:{event.window}", metric=metric)
        elif isinstance(event, Crossing):
            self.sink.emit(self._alarm(metric, event, baseline),
                           key=f"alarm:{metric}:{event.window}:{event.direction}",
                           metric=metric)
        elif isinstance(event, Recovery):
            self.sink.emit({"event": "recovery", "metric": metric, "window": event.window,
                            "direction": event.direction,
                            "current": on_scale(spec, event.interval), "baseline": baseline},
                           key=f"recovery:{metric}:{event.window}:{event.direction}",
                           metric=metric)

    def _alarm(self, metric: str, event: Crossing, baseline: dict[str, Any]
               ) -> dict[str, Any]:
        spec = self.specs[metric]
        ends = self.store.traces_at(self.run_id, [event.first, event.position])
        worst = self.store.worst_traces(self.run_id, metric, event.first, event.position,
                                        ascending=spec.higher_is_better)
        first, last = ends.get(event.first, ("", "")), ends.get(event.position, ("", ""))
        verb = "fell below" if event.direction == "lower" else "rose above"
        return {
            "event": "alarm", "metric": metric, "label": spec.display_label,
            "direction": event.direction,
            "message": f"{spec.display_label} {verb} its baseline: {_fmt(event.interval, spec)}"
                       f" over scored traces {event.first}-{event.position} vs "
                       f"{_fmt(event.baseline, spec)}",
            "baseline": baseline, "current": on_scale(spec, event.interval),
            "alpha": self.box.state.baselines[metric].alpha,
            "traces": {"positions": [event.first, event.position],
                       "count": event.position - event.first + 1,
                       "first_trace": first[0], "last_trace": last[0],
                       "from": first[1], "to": last[1]},
            "window": event.window,
            "worst": [{"trace_id": t, "position": p, "value": v} for t, p, v in worst],
        }

    def current(self) -> dict[str, dict[str, Any]]:
        """Each tested metric's newest window so far (metric scale)."""
        out = {}
        for metric, test in self.tests.items():
            now = test.current()
            if now is not None:
                out[metric] = on_scale(self.specs[metric], now)
        return out


def _fmt(interval: StreamInterval, spec: MetricSpec) -> str:
    s = on_scale(spec, interval)
    if s["mean"] is None:
        return "-"
    return f"{s['mean']:.3f} [{s['low']:.3f}, {s['high']:.3f}]"
