"""The drift test: its false-alarm rate over an unchanged stream stays within alpha
(simulation, fixed seed), where testing each window at alpha does not; a planted drop
alarms after the change and never before; batches, restarts and recoveries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ragassay.stats.drift import (
    Crossing,
    DriftSettings,
    DriftTest,
    Recovery,
    WindowClosed,
    simulate_false_alarms,
)

SETTINGS = DriftSettings(alpha=0.05, window=100, horizon=10)


def _same(events: list[object]) -> list[object]:
    """Events compared to 9 digits (sums taken in other batches differ in the last bit)."""

    def rounded(value: object) -> object:
        if isinstance(value, float):
            return round(value, 9)
        if isinstance(value, dict):
            return {k: rounded(v) for k, v in value.items()}
        return value

    return [(type(e).__name__, rounded(e.model_dump())) for e in events]  # type: ignore[attr-defined]


def _naive_rate(streams: int, length: int, baseline: int, seed: int, alpha: float) -> float:
    """Each window of 100 compared with the baseline by a two-sample z-test at `alpha`,
    alarm at the first rejection: what watching a classical test does."""
    rng = np.random.default_rng(seed)
    z = {0.05: 1.645, 0.01: 2.326}[alpha]
    alarms = 0
    for _ in range(streams):
        x = rng.beta(8, 2, baseline + length)
        base = x[:baseline]
        for start in range(baseline, baseline + length, 100):
            w = x[start:start + 100]
            se = math.sqrt(base.var(ddof=1) / base.size + w.var(ddof=1) / w.size)
            if (base.mean() - w.mean()) / se > z:
                alarms += 1
                break
    return alarms / streams


@pytest.mark.parametrize("draw", ["beta", "bernoulli"])
def test_false_alarms_over_a_long_unchanged_stream_stay_within_alpha(draw: str) -> None:
    streams, length = 200, 2000
    rate = simulate_false_alarms(streams, length, SETTINGS, baseline=200, seed=11, draw=draw)
    assert rate <= SETTINGS.alpha + 3 * math.sqrt(SETTINGS.alpha * 0.95 / streams)
    if draw == "beta":  # the same streams, each window tested at alpha: far past it
        assert _naive_rate(streams, length, 200, 11, SETTINGS.alpha) > 3 * SETTINGS.alpha


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_planted_drop_alarms_after_the_change_and_never_before(seed: int) -> None:
    rng = np.random.default_rng(seed)
    good = rng.beta(8, 2, 1200)  # 200 baseline + 1000 good
    bad = np.clip(rng.beta(8, 2, 1000) - 0.15, 0, 1)
    test = DriftTest.from_values(good[:200], DriftSettings(alpha=0.01), start=200)
    events = test.add_many(200, np.concatenate([good[200:], bad]))
    alarms = [e for e in events if isinstance(e, Crossing)]
    assert alarms, "the drop was not seen"
    assert all(a.position >= 1200 for a in alarms)
    first = alarms[0]
    assert first.direction == "lower" and first.position < 1200 + 400
    assert first.interval.high is not None and first.baseline.low is not None
    assert first.interval.high < first.baseline.low  # wholly below the baseline's interval


def test_batches_give_the_same_events_as_one_value_at_a_time() -> None:
    rng = np.random.default_rng(9)
    values = np.concatenate([rng.beta(8, 2, 700), rng.beta(3, 3, 500)])
    values[rng.random(values.size) < 0.05] = np.nan  # unscored: positions without a value
    base = rng.beta(8, 2, 200)
    settings = DriftSettings(alpha=0.01, window=50, horizon=4, watched="both")
    one = DriftTest.from_values(base, settings, start=200)
    singles = [e for i, v in enumerate(values)
               for e in one.add(200 + i, None if np.isnan(v) else float(v))]
    many = DriftTest.from_values(base, settings, start=200)
    batched = [e for lo in range(0, values.size, 37)
               for e in many.add_many(200 + lo, values[lo:lo + 37])]
    assert _same(singles) == _same(batched)
    assert any(isinstance(e, Crossing) for e in singles)
    with pytest.raises(ValueError, match="follow on"):
        many.add(5000, 0.5)


def test_a_restart_replaying_its_live_windows_continues_as_if_never_stopped() -> None:
    rng = np.random.default_rng(4)
    values = np.concatenate([rng.beta(8, 2, 1500), rng.beta(5, 3, 1000)])
    base = rng.beta(8, 2, 200)
    settings = DriftSettings(alpha=0.01, window=100, horizon=3)
    whole = DriftTest.from_values(base, settings, start=200)
    events = whole.add_many(200, values)
    stop = 200 + 1330  # the process stopped here
    again = DriftTest.from_values(base, settings, start=200)
    again.resume_window = again.window_of(stop - 1) - settings.horizon + 1
    first = again.window_first(again.resume_window)
    replayed = again.add_many(first, values[first - 200:stop - 200])
    after = again.add_many(stop, values[stop - 200:])

    def at_or_after(e: object) -> bool:
        if isinstance(e, Crossing):
            return e.position >= stop
        assert isinstance(e, WindowClosed | Recovery)
        return e.window > again.window_of(stop - 1) - 1

    later = [e for e in events if at_or_after(e)]
    assert any(isinstance(e, Crossing) for e in later) and len(later) > 5
    assert _same(later) == _same(
        [e for e in replayed + after if at_or_after(e)])


def test_an_alarm_is_raised_once_until_a_window_recovers() -> None:
    rng = np.random.default_rng(8)
    base = rng.beta(8, 2, 300)
    test = DriftTest.from_values(base, DriftSettings(alpha=0.01, window=100, horizon=2),
                                 start=300)
    drop = test.add_many(300, np.clip(rng.beta(8, 2, 600) - 0.3, 0, 1))
    assert sum(isinstance(e, Crossing) for e in drop) == 1
    assert test.alarmed == {"lower"}
    back = test.add_many(900, rng.beta(8, 2, 600))
    recovered = [e for e in back if isinstance(e, Recovery)]
    assert recovered and recovered[0].direction == "lower" and not test.alarmed
    again = test.add_many(1500, np.clip(rng.beta(8, 2, 600) - 0.3, 0, 1))
    assert sum(isinstance(e, Crossing) for e in again) == 1  # re-armed: the next drop
