"""Terminal rendering of a report: the per-strategy summary and aggregate tables."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.cli.fmt import NO_INTERVAL, ci_text


def composite_columns(specs: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Per composite metric in the report's specs (e.g. the judge suite's overall): its
    name and the strategy figures that show it, as (report key, column title)."""
    out = []
    for name, spec in specs.items():
        comp = spec.get("composite") if isinstance(spec, dict) else None
        if not comp:
            continue
        cols = [("avg_" + part.split(".", 1)[-1], part.split(".", 1)[-1].replace("_", " "))
                for part in comp.get("weights", {})]
        if comp.get("penalty"):
            short = comp["penalty"].split(".", 1)[-1]
            cols.append((short + "_rate", short + " rate"))
        short = name.split(".", 1)[-1]
        out.append((name, [*cols, (short, short)]))
    return out


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | float):
        return f"{v:.{digits}f}"
    return str(v)


def _value(strategy: dict[str, Any], key: str) -> str:
    """A strategy figure with its interval, e.g. `7.41 [6.90, 7.88]`."""
    v = strategy.get(key)
    ci = strategy.get("intervals", {}).get(key)
    if isinstance(v, int | float) and ci and ci[0] is not None:
        if strategy.get("total_questions") == 1:
            return f"{v:.2f} ({NO_INTERVAL})"
        return f"{v:.2f} {ci_text(ci, digits=2)}"
    return _fmt(v)


def _print_reliability(reliability: dict[str, Any], metrics: list[str],
                       console: Console) -> None:
    """One line per metric with a measured agreement with people; the rest in one line."""
    lines, measured = reliability.get("lines") or {}, reliability.get("metrics") or {}
    for name in metrics:
        if name in measured and name in lines:
            console.print(f"[dim]{escape(str(lines[name]))}[/dim]", highlight=False)
    unmeasured = [m for m in metrics if m in lines and m not in measured]
    if unmeasured:
        console.print(f"[dim]{escape(str(reliability.get('judge', 'the')))} judge: no measured "
                      f"agreement with people for {escape(', '.join(unmeasured))}[/dim]",
                      highlight=False)


def print_summary(report: dict[str, Any], console: Console | None = None) -> None:
    if console is None:
        from ragassay.cli.common import console as make_console

        console = make_console()
    meta = report["evaluation_metadata"]
    console.print(f"[bold]run {meta['run_id']}[/bold]  dataset {escape(str(meta['dataset']))}  "
                  f"judge {escape(str(meta['judge']))}  samples {meta['total_samples']}",
                  highlight=False)
    strategies: dict[str, Any] = report.get("strategies", {})
    for name, columns in composite_columns(report.get("metric_specs", {})):
        key = columns[-1][0]
        if not strategies or not any(key in s for s in strategies.values()):
            continue
        t = Table(title=f"{name.split('.', 1)[0]} suite per strategy (95% CI)")
        t.add_column("strategy")
        for _, title in columns:
            t.add_column(title, justify="right")
        t.add_column("n", justify="right")
        t.add_column("failed", justify="right")
        for sname, s in strategies.items():
            t.add_row(escape(sname), *[_value(s, k) for k, _ in columns],
                      _fmt(s.get("total_questions"), 0), _fmt(s.get("failed_questions"), 0))
        console.print(t)
    metrics: dict[str, Any] = report.get("aggregate_metrics", {}).get("metrics", {})
    if metrics:
        t = Table(title="aggregate metrics (mean, 95% CI)")
        for col in ("metric", "mean", "95% CI", "scored", "unscored"):
            t.add_column(col, justify="left" if col == "metric" else "right")
        for name, m in metrics.items():
            ci = ci_text((m.get("ci_low"), m.get("ci_high")), m.get("count"))
            t.add_row(name, _fmt(m.get("mean"), 3), ci, _fmt(m.get("count"), 0),
                      _fmt(m.get("unscored"), 0))
        console.print(t)
    _print_reliability(meta.get("judge_reliability") or {}, list(metrics), console)
    usage = report.get("usage", {})
    console.print(f"judge calls {usage.get('calls', 0)}, tokens in {usage.get('input_tokens', 0)}"
                  f" / out {usage.get('output_tokens', 0)}, cache hits "
                  f"{usage.get('cache_hits', 0)}", highlight=False)
    for flag in report.get("interpretation", [])[:8]:
        if flag.get("level") == "warning" and flag.get("scope") == "overall":
            console.print(f"[yellow]warning[/yellow] {escape(str(flag.get('message')))}",
                          highlight=False)
