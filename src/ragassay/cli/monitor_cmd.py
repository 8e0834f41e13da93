"""`ragassay monitor`: score live traces and raise drift alarms (`ragassay.monitor`).

Events go to stdout, one JSON object per line (`{"event": "alarm", "metric": ...}`);
what a person reads (where it listens, problems) goes to stderr. SIGTERM or Ctrl-C
drains: no new trace is taken (503), what was accepted is stored, queued traces are
scored for up to --drain-timeout seconds, and the run is left `interrupted`; starting
the same --name again resumes it.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import click

from ragassay.cli.app import cli
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FiniteFloat,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    check_metric_names,
    db_option,
    friendly,
    header_option,
    headers,
    open_store,
    say,
    trace_map,
    trace_map_option,
)

SETTING_PARAMS = {"sample": "sample", "metrics": "metrics", "judge_spec": "judge",
                  "alarm_metrics": "alarm_metrics", "baseline": "baseline_run",
                  "baseline_traces": "baseline_traces", "alpha": "alpha", "window": "window",
                  "horizon": "horizon", "watch": "watch", "trace_map_given": "trace_map"}
"""CLI parameter -> MonitorSettings field: given ones are checked against a resumed run."""


def parse_listen(text: str) -> tuple[str, int]:
    """`127.0.0.1:4318`, `[::1]:4318`, `:4318` (127.0.0.1) or `4318` -> (host, port)."""
    host, sep, port = text.strip().rpartition(":")
    if not sep:
        host, port = "", text.strip()
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise UsageProblem(f"--listen {text!r}: expected HOST:PORT, e.g. 127.0.0.1:4318")
    return host, int(port)


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _settings_given(ctx: click.Context, values: dict[str, Any]) -> dict[str, Any]:
    """The settings given on the command line (a resumed monitor keeps its others)."""
    from ragassay.metrics import all_specs, parse_metrics

    out: dict[str, Any] = {}
    for param, field in SETTING_PARAMS.items():
        if _given(ctx, param):
            out[field] = values[param]
    if "judge" in out:
        out["judge"] = check_judge_spec(out["judge"])
    if "metrics" in out:
        out["metrics"] = parse_metrics(out["metrics"])
    if "trace_map" in out:
        out["trace_map"] = trace_map(out["trace_map"])
    if "alarm_metrics" in out:
        names = [n.strip() for n in out["alarm_metrics"].split(",") if n.strip()]
        suites = out.get("metrics") or parse_metrics(values["metrics"])
        known = list(all_specs(suites))
        out["alarm_metrics"] = tuple(check_metric_names(names, known,
                                                        what="--alarm-metrics"))
    return out


@cli.command("monitor")
@click.option("--listen", default=None, metavar="HOST:PORT",
              help="Receive OTLP/HTTP traces here (POST /v1/traces, JSON or protobuf, gzip), "
                   "e.g. 127.0.0.1:4318; GET /health answers how it is doing.")
@click.option("--follow", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Read the OpenTelemetry collector's file exporter output as it grows (one "
                   "OTLP/JSON export per line); a restart goes on where it stopped.")
@db_option
@click.option("--name", default="monitor", show_default=True,
              help="The monitor's name: starting the same name again resumes its run.")
@click.option("--new", "new", is_flag=True,
              help="Start a new run even if a monitor of this name exists.")
@click.option("--sample", type=FiniteFloat(0.0001, 1.0), default=1.0, show_default=True,
              help="Share of complete traces scored, chosen by trace id (the same trace is "
                   "always chosen or not); the rest are counted.")
@click.option("--metrics", default="judge,trace", show_default=True,
              help="Suites scored (judge,trace,ragas) or metrics.")
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help=JUDGE_SPEC_HELP + ".")
@click.option("--base-url", "base_urls", multiple=True, metavar="URL",
              help="OpenAI-compatible endpoint for the judge (repeatable).")
@header_option
@click.option("--baseline", default=None, metavar="RUN",
              help="Compare with this run's scores (else the first --baseline-traces "
                   "scored traces).")
@click.option("--baseline-traces", type=click.IntRange(20), default=200, show_default=True,
              help="Scored traces that make the baseline when no --baseline run is given.")
@click.option("--alpha", type=FiniteFloat(1e-6, 0.5), default=0.01, show_default=True,
              help="The chance of any false alarm over the monitor's whole life, all metrics "
                   "together (split evenly among them).")
@click.option("--window", type=click.IntRange(10), default=200, show_default=True,
              help="Scored traces per window (a point of the trend; a new test starts each).")
@click.option("--horizon", type=click.IntRange(1, 100), default=10, show_default=True,
              help="Windows each test follows the stream for.")
@click.option("--alarm-metrics", default=None, metavar="METRICS",
              help="Comma-separated metrics that raise alarms (default: the headline metrics "
                   "of the suites scored).")
@click.option("--watch", type=click.Choice(["worse", "both"]), default="worse",
              show_default=True, help="Alarm when a metric gets worse, or on any change.")
@trace_map_option
@click.option("--webhook", default=None, metavar="URL",
              help="POST each alarm's JSON here (https, or http to this machine only).")
@click.option("--keep-days", type=FiniteFloat(0.001), default=None, metavar="DAYS",
              help="Delete traces, scores and windows older than this (alarms are kept).")
@click.option("--max-queue", type=click.IntRange(10), default=10_000, show_default=True,
              help="Traces held (open, or waiting to be scored) before requests get 429.")
@click.option("--max-body-mb", type=FiniteFloat(0.001, 1024), default=16, show_default=True,
              help="Largest request body, once inflated.")
@click.option("--settle", type=FiniteFloat(0), default=1.0, show_default=True,
              help="Seconds after a trace's root span that its late child spans may come.")
@click.option("--trace-timeout", type=FiniteFloat(0.1), default=60.0, show_default=True,
              help="Seconds after which a trace whose root span never came is taken as is.")
@click.option("--drain-timeout", type=FiniteFloat(0), default=30.0, show_default=True,
              help="On SIGTERM, seconds during which queued traces are still scored.")
@click.option("--stats-every", type=FiniteFloat(0), default=30.0, show_default=True,
              help="Seconds between stats events (0: none).")
@click.pass_context
@friendly
def monitor_cmd(ctx: click.Context, **values: Any) -> None:
    """Score live traces (OpenTelemetry) continuously and raise an alarm, a JSON line on
    stdout, when a metric drifts from its baseline; the chance of any false alarm is at
    most --alpha (anytime-valid confidence sequences). docs/monitoring.md."""
    from ragassay.monitor import Monitor, MonitorOptions, MonitorProblem, resolve_settings
    from ragassay.monitor.events import shown_url, webhook_problem

    listen = parse_listen(values["listen"]) if values["listen"] else None
    if listen is None and values["follow"] is None:
        raise UsageProblem("give --listen HOST:PORT (an OTLP/HTTP receiver) or --follow FILE "
                           "(a collector's file exporter output), or both")
    if values["webhook"]:
        problem = webhook_problem(values["webhook"])
        if problem:
            raise UsageProblem(problem)
    urls = tuple(u for u in (check_base_url(u) for u in values["base_urls"]) if u)
    given = _settings_given(ctx, values)
    store = open_store(values["db"])
    if given.get("baseline_run"):
        given["baseline_run"] = store.get_run(given["baseline_run"]).id
    try:
        settings, resume = resolve_settings(store, values["name"], given, values["new"])
    except MonitorProblem as exc:
        raise UsageProblem(str(exc)) from None
    options = MonitorOptions(
        listen=listen, follow=values["follow"], db=values["db"], webhook=values["webhook"],
        keep_days=values["keep_days"], max_queue=values["max_queue"],
        max_body=int(values["max_body_mb"] * (1 << 20)), settle_s=values["settle"],
        trace_timeout_s=values["trace_timeout"], drain_s=values["drain_timeout"],
        stats_s=values["stats_every"], headers=tuple(headers(values["headers_given"]).items()),
        base_urls=urls)
    monitor = Monitor(store, settings, options, resume)
    try:
        asyncio.run(_serve(monitor, values["webhook"] and shown_url(values["webhook"])))
    except OSError as exc:  # the address is taken, or not ours
        why = (exc.strerror or str(exc)).rpartition("): ")[2]
        raise UsageProblem(f"--listen {values['listen']}: cannot listen there ({why}); "
                           "no run was started") from None


async def _serve(monitor: Any, webhook: str | None) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await monitor.bind()  # a taken port stops here, before a run is created
    monitor.open()
    task = asyncio.create_task(monitor.run(stop))
    where = []
    if monitor.bound is not None:
        where.append(f"listening on http://{_host(monitor.bound[0])}:{monitor.bound[1]}"
                     "/v1/traces")
    if monitor.options.follow is not None:
        where.append(f"following {monitor.options.follow}")
    verb = "resumed" if monitor.resume_id else "started"
    say(f"monitor {monitor.settings.name!r} {verb} (run {monitor.run_id}): "
        f"{' and '.join(where)}; events on stdout (JSON lines)"
        f"{'; alarms to ' + webhook if webhook else ''}; SIGTERM or Ctrl-C stops it",
        err=True)
    await task


def _host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
