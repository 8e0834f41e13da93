"""A monitor run made in-process (no receiver): spans accepted, traces completed and
scored at once (`Monitor.flush`). For tests that need a monitor run in a store."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path

from ragassay.dataset.traces.otlp import spans_from_json
from ragassay.monitor import Monitor, MonitorOptions, MonitorSettings
from ragassay.store import Store
from tests.support.monitor_traces import export, rag_trace, trace_ids


def monitor_run(db: Path, good: int, bad: int, seed: int = 0, **settings: object) -> str:
    """A monitor run of `good` traces then `bad` ones; its run id."""
    rng = random.Random(seed)
    ids = trace_ids(seed, good + bad)

    async def go() -> str:
        with Store(db) as store:
            monitor = Monitor(store, MonitorSettings(**settings),  # type: ignore[arg-type]
                              MonitorOptions(stats_s=0), out=io.StringIO())
            monitor.open()
            monitor.drift.resume()
            for lo in range(0, good + bad, 20):
                chunk = ids[lo:lo + 20]
                traces = [rag_trace(t, rng, bad=lo + i >= good) for i, t in enumerate(chunk)]
                monitor.accept(spans_from_json(json.dumps(export(traces))))
                await monitor.flush()
            monitor.stats_event()
            await monitor.feed.close("interrupted")
            return monitor.run_id

    return asyncio.run(go())
