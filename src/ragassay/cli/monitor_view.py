"""`ragassay runs show RUN` for a monitor run: its traces, each watched metric's baseline,
last window and alarms, each baseline's size (values held of asked, smallest detectable
change, the console's warning), then the alarms themselves."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from ragassay.monitor.view import Band, MonitorView


def band_text(band: Band | None) -> str:
    if band is None or band.mean is None:
        return "-"
    if band.low is None or band.high is None:
        return f"{band.mean:.3f}"
    return f"{band.mean:.3f} [{band.low:.3f}, {band.high:.3f}] n={band.n}"


def print_monitor(view: MonitorView, console: Any) -> None:
    """The monitor's section of `runs show`."""
    t, s = view.traces, view.settings
    console.print(
        f"[bold]Monitor {escape(view.name)!r}[/bold] (run {view.run_id}, {view.status}): "
        f"{t['accepted']:,} traces accepted: {t['scored']:,} scored, {t['queued']:,} queued, "
        f"{t['open']:,} open, {t['unsampled']:,} unsampled, {t['invalid']:,} invalid")
    baseline = f"run {s.baseline_run}" if s.baseline_run else \
        f"the first {s.baseline_traces} scored traces"
    console.print(f"sample {s.sample:g} of traces (by trace id); alarms at alpha {s.alpha:g} "
                  f"(the chance of any false alarm, all metrics, the run's whole life); "
                  f"windows of {s.window} scored traces; baseline: {baseline}")
    for reason, n in view.invalid_reasons:
        console.print(f"  invalid ({n}): {escape(reason)}")
    table = Table(title="Drift tests (intervals: anytime-valid confidence sequences)")
    for col in ("metric", "baseline", "last window", "now", "windows", "alarms"):
        table.add_column(col)
    for m in view.metrics:
        last = m.windows[-1].band if m.windows else None
        table.add_row(escape(m.label), m.skipped and f"not tested: {escape(m.skipped)}"
                      or band_text(m.baseline), band_text(last), band_text(m.current),
                      str(len(m.windows)), str(len(m.alarms)))
    console.print(table)
    for m in view.metrics:
        if m.size_line:
            console.print(escape(m.size_line), style="yellow" if m.size_warns else None)
    for m in view.metrics:
        for w in m.windows:
            for c in w.corrected:
                console.print(f"  window {w.window} of {escape(m.label)}: people's "
                              f"{escape(c.label)} {c.estimate:.3f} [{c.ci_low:.3f}, "
                              f"{c.ci_high:.3f}] from {c.n_labelled} labels (corrected)")
    if not view.alarms:
        console.print("no alarm")
        return
    console.print(f"[bold]{len(view.alarms)} alarm{'s' if len(view.alarms) != 1 else ''}"
                  "[/bold] (newest first):")
    for a in view.alarms[:20]:
        traces = a.get("traces", {})
        console.print(f"  {a.get('time', '')[:19]} {escape(str(a.get('message', '')))}; "
                      f"traces {traces.get('first_trace', '')}..{traces.get('last_trace', '')}")
