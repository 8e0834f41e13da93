"""What `ragassay runs show` prints of a monitor run: counts, each metric's baseline and
last window, alarms, and the corrected estimate of a window people labelled."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ragassay.cli import cli
from ragassay.monitor.view import monitor_view
from ragassay.store import Store
from ragassay.types import HumanLabel
from tests.support.monitor_inproc import monitor_run


def test_runs_show_reads_a_monitor_run(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    run_id = monitor_run(db, good=100, bad=40, baseline_traces=40, window=30)
    with Store(db) as store:
        samples = list(store.iter_samples(run_id))[40:70]  # window 1: positions 40..69
        store.set_labels([HumanLabel(content_key=s.content_key, name="hallucinated",
                                     value=i % 4 == 0, source="test")  # type: ignore[union-attr]
                          for i, s in enumerate(samples)])
        view = monitor_view(store, run_id)
    assert view is not None and view.traces["accepted"] == 140
    faith = next(m for m in view.metrics if m.metric == "judge.faithfulness")
    assert faith.baseline is not None and faith.baseline.n == 40
    assert [w.window for w in faith.windows] == [1, 2, 3]
    assert faith.alarms and faith.alarms[0]["traces"]["positions"][1] >= 100
    (people,) = [c for c in faith.windows[0].corrected if c.label == "hallucinated"]
    assert people.n_labelled == 30 and people.n_total == 30
    shown = CliRunner().invoke(cli, ["runs", "show", run_id, "--db", str(db)],
                               terminal_width=220)
    assert shown.exit_code == 0, shown.output
    assert f"Monitor 'monitor' (run {run_id}, interrupted): 140 traces accepted: 140 " \
           "scored" in shown.output
    assert "window 1 of Faithfulness (judge): people's hallucinated" in shown.output
    assert "Faithfulness (judge) fell below its baseline" in shown.output


def test_runs_show_states_each_baselines_size_as_the_console_does(tmp_path: Path) -> None:
    """Trial 69: the baseline's values held (of asked) and its smallest detectable change
    were in the event stream only; `runs show` now says them with the console's warning."""
    db = tmp_path / "m.db"
    run_id = monitor_run(db, good=60, bad=0, baseline_traces=40, window=30)
    with Store(db) as store:
        view = monitor_view(store, run_id, corrected=False)
    assert view is not None
    hall = next(m for m in view.metrics if m.metric == "judge.hallucination")
    assert hall.asked == 40 and hall.detectable is not None and hall.detectable > 0.2
    assert hall.size_warns
    said = [e["message"] for _, kind, m, _, e in Store(db).monitor_events(run_id, "note")
            if m == "judge.hallucination"]
    assert said == [hall.size_line]  # the very line the console said
    shown = CliRunner().invoke(cli, ["runs", "show", run_id, "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())  # lines wrapped at the console's width, joined
    assert "judge.hallucination baseline (first 40 scored traces): 40 values; smallest " \
           "detectable change 0.209; warning: wider than 0.2, so smaller drifts cannot " \
           "alarm: raise --baseline-traces" in text
    relevance = next(m for m in view.metrics if m.metric == "trace.context_relevance")
    assert not relevance.size_warns and relevance.size_line in text
