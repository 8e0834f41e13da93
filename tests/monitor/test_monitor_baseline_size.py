"""Trial 69 (finding 3): a 30-trace baseline whose declines were not scored held 23
hallucination values, its interval 0 to 0.62, too wide for a jump from 0.22 to 0.8 to
alarm, and nothing said so. The baseline now states how many values it holds (of how
many asked) and the smallest change it can detect, and warns in one line how to fix it."""

from __future__ import annotations

from typing import Any

from ragassay.metrics import all_specs
from ragassay.monitor.drift import DriftWatch
from ragassay.monitor.settings import MonitorSettings, MonitorState, StateBox


class Sink:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def emit(self, event: dict[str, Any], **_: Any) -> bool:
        self.events.append(event)
        return True


def watch(values: list[float], asked: int) -> tuple[Sink, list[str]]:
    metric = "judge.hallucination"
    settings = MonitorSettings(alarm_metrics=(metric,), baseline_traces=asked)
    sink, said = Sink(), []
    box = StateBox(MonitorState(), lambda _: None)
    dw = DriftWatch(None, "run", settings, all_specs([metric]), box, sink,  # type: ignore[arg-type]
                    said.append)
    dw.establish({metric: values}, f"first {asked} scored traces", {metric: asked})
    return sink, said


def test_a_small_baseline_missing_values_says_its_size_and_detectable_change() -> None:
    values = [1.0] * 5 + [0.0] * 18  # 23 of 30 scored, rate 0.22
    sink, said = watch(values, 30)
    base = next(e for e in sink.events if e["event"] == "baseline")
    assert base["n"] == 23 and base["asked"] == 30
    assert base["detectable"] > 0.2  # the interval's high end minus the mean
    assert abs(base["detectable"] - (base["high"] - base["mean"])) < 1e-9
    notes = [e["message"] for e in sink.events if e["event"] == "note"]
    assert len(notes) == 1 and "7 baseline values were unscored or abstained" in notes[0]
    assert "--baseline-traces" in notes[0] and "wider than 0.2" in notes[0]
    assert len(said) == 1 and "23 values of the 30 asked" in said[0]
    assert "warning" in said[0]


def test_a_large_full_baseline_is_stated_without_a_warning() -> None:
    values = ([1.0] * 22 + [0.0] * 78) * 10  # 1,000 values, rate 0.22
    sink, said = watch(values, 1000)
    base = next(e for e in sink.events if e["event"] == "baseline")
    assert base["n"] == 1000 and base["asked"] == 1000 and base["detectable"] < 0.2
    assert not [e for e in sink.events if e["event"] == "note"]
    assert len(said) == 1 and "warning" not in said[0] and "1000 values" in said[0]
