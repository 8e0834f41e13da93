"""Production monitoring: `ragassay monitor` scores live traces as they arrive and raises
an alarm when a quality figure drifts from its baseline, with a known false-alarm rate.

Traces come in over OTLP/HTTP (`receiver.py` on `http.py`: JSON or protobuf, gzip or
deflate, back-pressure with 429/503 and Retry-After, a health endpoint) or from a
collector's file exporter (`follow.py`); spans are stored before they are acknowledged
(`store/monitor.py`), gathered by trace (`assembly.py`), and a deterministic share of the
complete traces (by trace id, `settings.sampled`) is scored in the background through
the run session (`runner.open_feed`) into one long-lived monitor run. Each watched metric's
stream is tested against its baseline by anytime-valid confidence sequences
(`drift.py` over `stats.drift`); windows, alarms and recoveries go to stdout as JSON
lines, into the store and (alarms) to a webhook (`events.py`). `service.py` ties it
together; `view.py` is what `runs show` and the dashboard read.
"""

from ragassay.monitor.service import Monitor, MonitorProblem, monitor_plan, resolve_settings
from ragassay.monitor.settings import MonitorOptions, MonitorSettings, MonitorState, sampled

__all__ = ["Monitor", "MonitorOptions", "MonitorProblem", "MonitorSettings", "MonitorState",
           "monitor_plan", "resolve_settings", "sampled"]
