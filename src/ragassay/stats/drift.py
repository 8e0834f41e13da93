"""Drift of a stream of scores from a baseline, tested anytime-validly (`sequential`).

One `DriftTest` watches one metric, for a drop ("lower"), a rise ("higher") or both;
each side watched gets an equal share of the false-alarm budget alpha, half of it for
the baseline and half for the windows. The baseline (a fixed sample: another run's
values, or the stream's first scored traces) gets a fixed-size interval whose watched
end holds with probability 1 - alpha/(2 s) (s = 1 or 2 sides watched). The stream after
it is cut into windows of `window` positions (a position is a scored trace; a trace
whose metric is unscored advances the position without a value). Window k starts a
confidence sequence whose watched end holds at every time with probability
1 - alpha/(2 s) / (k (k + 1)); it follows the stream for `horizon` windows from its start
(so a drop that begins anywhere is followed by a sequence that sees only after-drop
values); an alarm is raised the moment one of them lies wholly beyond the baseline's
interval on a watched side.

The guarantee: if the stream's values keep (at least) the baseline's mean (independent
draws, or any stream whose conditional means do), the chance of any false alarm, over
the whole unending stream and every look, is at most alpha: per side watched, alpha/(2 s)
for the baseline's end missing its mean, and alpha/(2 s) * sum 1/(k (k + 1)) =
alpha/(2 s) for the windows' sequences (Ville's inequality, union bound). The price of
never stopping is a bound that slowly widens with k (log k). After an alarm the test
stays alarmed in that direction until a closed window's interval holds the baseline's
mean again (a `Recovery`). Values are on 0-1 (`MetricSpec.normalise`); positions come
in increasing order. Intervals are shown two-sided, each end at its side's level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ragassay.stats.result import Result
from ragassay.stats.sequential import (
    BettingCS,
    Side,
    StreamInterval,
    fixed_interval,
    spending,
)

Direction = Literal["lower", "higher"]
Watched = Literal["lower", "higher", "both"]


class WindowClosed(Result):
    """A window's interval when its last position has passed (the trend's point)."""

    window: int  # 1, 2, ...
    first: int  # its first position
    last: int  # its last position
    interval: StreamInterval


class Crossing(Result):
    """An alarm: the sequence started at window `window` lies wholly below (or above)
    the baseline's interval."""

    window: int
    first: int  # the sequence's first position
    position: int  # the position at which it crossed
    direction: Direction
    interval: StreamInterval
    baseline: StreamInterval


class Recovery(Result):
    """A closed window whose interval holds the baseline's mean again: re-armed."""

    window: int
    direction: Direction
    interval: StreamInterval


Event = WindowClosed | Crossing | Recovery
_SIDES: dict[Direction, Side] = {"lower": "below", "higher": "above"}


@dataclass
class DriftSettings:
    """How one metric is watched. `alpha` is this metric's false-alarm budget."""

    alpha: float = 0.01
    window: int = 200
    horizon: int = 10  # windows a sequence follows the stream from its start
    watched: Watched = "lower"

    @property
    def sides(self) -> int:
        return 2 if self.watched == "both" else 1

    def baseline_interval(self, values: Sequence[float] | np.ndarray) -> StreamInterval:
        """The baseline's interval: each end at level alpha / (2 sides), two-sided."""
        return fixed_interval(values, self.alpha / self.sides)

    def window_level(self, window: int) -> float:
        """The two-sided level of window `window`'s sequence (each end half of it)."""
        return self.alpha / self.sides * spending(window)


@dataclass
class _Tracker:
    window: int
    first: int
    end: int  # one past its last position
    cs: BettingCS
    closed: bool = False


@dataclass
class DriftTest:
    """The drift test of one metric (see the module). `start` is the first position
    after the baseline; `resume_window` starts the windows at that one (a restart
    replays the values from that window's first position on)."""

    baseline: StreamInterval
    settings: DriftSettings
    start: int = 0
    resume_window: int = 1
    alarmed: set[Direction] = field(default_factory=set)
    _trackers: list[_Tracker] = field(default_factory=list)
    _next: int | None = None  # the position expected next

    @classmethod
    def from_values(cls, baseline: Sequence[float] | np.ndarray, settings: DriftSettings,
                    start: int = 0, resume_window: int = 1) -> DriftTest:
        """The test with its baseline interval from the baseline's values (on 0-1)."""
        return cls(settings.baseline_interval(baseline), settings, start, resume_window)

    @property
    def next_position(self) -> int | None:
        """The position the test takes next (None before its first)."""
        return self._next

    def window_of(self, position: int) -> int:
        return (position - self.start) // self.settings.window + 1

    def window_first(self, window: int) -> int:
        return self.start + (window - 1) * self.settings.window

    def _edge(self, d: Direction) -> float | None:
        """The end of the baseline's interval a drop (or rise) must pass."""
        return self.baseline.low if d == "lower" else self.baseline.high

    def _directions(self) -> tuple[Direction, ...]:
        w = self.settings.watched
        return ("lower", "higher") if w == "both" else (w,)

    def _tracker(self, window: int) -> _Tracker:
        first = self.window_first(window)
        span = self.settings.horizon * self.settings.window
        level = self.settings.window_level(window)
        watch = tuple((edge, side) for d in self._directions()
                      if (edge := self._edge(d)) is not None
                      for side in (_SIDES[d],))
        return _Tracker(window, first, first + span,
                        BettingCS(level, horizon=span, watch=watch, limit=span))

    def add(self, position: int, value: float | None) -> list[Event]:
        """Take the value (None: unscored) at `position`; return what happened."""
        return self.add_many(position, [np.nan if value is None else value])

    def add_many(self, first: int, values: Sequence[float] | np.ndarray) -> list[Event]:
        """Take the values at positions first, first + 1, ... (NaN: unscored), in one go
        (what `add` does one at a time, with the same events at the same positions)."""
        if self._next is not None and first != self._next:
            raise ValueError(f"positions must follow on: {first}, expected {self._next}")
        if first < self.start:
            raise ValueError(f"position {first} is in the baseline (< {self.start})")
        x = np.asarray(values, dtype=np.float64).ravel()
        self._next = first + x.size
        events: list[Event] = []
        i = max(0, self.window_first(self.resume_window) - first)  # before it: replayed away
        while i < x.size:
            p = first + i
            window = self.window_of(p)
            events.extend(self._close_before(window))
            if not self._trackers or self._trackers[-1].window < window:
                self._trackers.append(self._tracker(window))
            self._trackers = [t for t in self._trackers if p < t.end]
            stop = min(self.window_first(window + 1), *(t.end for t in self._trackers))
            j = min(x.size, i + stop - p)
            events.extend(self._segment(p, x[i:j]))
            i = j
        return events

    def _segment(self, first: int, x: np.ndarray) -> list[Event]:
        """Values over which the live trackers do not change: each tracker takes them up
        to the first crossing among them, which is raised with its tracker's interval."""
        events: list[Event] = []
        positions = first + np.flatnonzero(~np.isnan(x))
        values = x[~np.isnan(x)]
        while values.size:
            steps = [t.cs.prepare(values) for t in self._trackers]
            cut, hit = values.size, None
            for t, step in zip(self._trackers, steps, strict=True):
                for d in self._directions():
                    k = self._crossed(t, step.capitals, d)
                    if k is not None and k < cut:
                        cut, hit = k, (t, d)
            for t, step in zip(self._trackers, steps, strict=True):
                t.cs.commit(step, cut + 1 if hit else None)
            if hit is None:
                break
            t, d = hit
            self.alarmed.add(d)
            events.append(Crossing(window=t.window, first=t.first,
                                   position=int(positions[cut]), direction=d,
                                   interval=t.cs.interval(), baseline=self.baseline))
            values, positions = values[cut + 1:], positions[cut + 1:]
        return events

    def _crossed(self, t: _Tracker, caps: np.ndarray, d: Direction) -> int | None:
        """The index of the first value at which tracker `t` excludes the baseline's
        interval in direction `d` (not already alarmed), or None."""
        if d in self.alarmed:
            return None
        edge = self._edge(d)
        if edge is None:
            return None
        row = caps[t.cs.watched.index((edge, _SIDES[d]))]
        over = np.flatnonzero(row >= t.cs.threshold)
        return int(over[0]) if over.size else None

    def _close_before(self, window: int) -> list[Event]:
        """WindowClosed (and a Recovery) for each tracked window that ended before
        `window` began."""
        out: list[Event] = []
        for t in self._trackers:
            if t.window < window and not t.closed:
                t.closed = True
                interval = t.cs.interval()
                out.append(WindowClosed(window=t.window, first=t.first,
                                        last=t.first + self.settings.window - 1,
                                        interval=interval))
                out.extend(self._recovery(t.window, interval))
        return out

    def _recovery(self, window: int, interval: StreamInterval) -> list[Event]:
        out: list[Event] = []
        mean = self.baseline.mean
        if mean is None or interval.low is None or interval.high is None:
            return out
        if interval.low <= mean <= interval.high:
            for d in sorted(self.alarmed):
                self.alarmed.discard(d)
                out.append(Recovery(window=window, direction=d, interval=interval))
        return out

    def current(self) -> StreamInterval | None:
        """The interval of the newest window so far (None before the first)."""
        return self._trackers[-1].cs.interval() if self._trackers else None


def simulate_false_alarms(streams: int, length: int, settings: DriftSettings,
                          baseline: int, seed: int, draw: str = "beta") -> float:
    """The share of `streams` unchanged streams (a baseline of `baseline` values, then
    `length` more from the same distribution) on which a DriftTest ever alarms: what the
    tests and the benchmark check against alpha. `draw`: "beta" (Beta(8, 2), mean 0.8)
    or "bernoulli" (p = 0.8)."""
    rng = np.random.default_rng(seed)
    alarms = 0
    for _ in range(streams):
        size = baseline + length
        values = (rng.beta(8, 2, size) if draw == "beta"
                  else (rng.random(size) < 0.8).astype(np.float64))
        test = DriftTest.from_values(values[:baseline], settings, start=baseline)
        events = test.add_many(baseline, values[baseline:])
        alarms += any(isinstance(e, Crossing) for e in events)
    return alarms / streams
