"""Terminal rendering of a report: the per-strategy summary and aggregate tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.cli.fmt import NO_INTERVAL, ci_text

if TYPE_CHECKING:
    from ragassay.report import Report, StrategyEntry
    from ragassay.report.model import HopsSection
    from ragassay.types import MetricSpec, RunReliability


def composite_columns(specs: Mapping[str, MetricSpec]
                      ) -> list[tuple[str, list[tuple[str, str]]]]:
    """Per composite metric in the report's specs (e.g. the judge suite's overall): its
    name and the strategy figures that show it, as (report field, column title)."""
    from ragassay.stats import guide_fields

    out = []
    for name, spec in specs.items():
        if spec.composite is None:
            continue
        cols = [(field, field.removeprefix("avg_").replace("_", " "))
                for field in guide_fields(spec)]
        out.append((name, [*cols, (spec.short, spec.short)]))
    return out


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | float):
        return f"{v:.{digits}f}"
    return str(v)


def _value(strategy: StrategyEntry, key: str) -> str:
    """A strategy figure with its interval, e.g. `7.41 [6.90, 7.88]`."""
    v, ci = strategy.figure(key), strategy.interval(key)
    if isinstance(v, int | float) and ci and ci[0] is not None:
        if strategy.total_questions == 1:
            return f"{v:.2f} ({NO_INTERVAL})"
        return f"{v:.2f} {ci_text(ci, digits=2)}"
    return _fmt(v)


def _print_reliability(reliability: RunReliability | None, metrics: list[str],
                       console: Console) -> None:
    """One line per metric with a measured agreement with people; the rest in one line."""
    if reliability is None:
        return
    lines, measured = reliability.lines, reliability.metrics
    for name in metrics:
        if name in measured and name in lines:
            console.print(f"[dim]{escape(lines[name])}[/dim]", highlight=False)
    unmeasured = [m for m in metrics if m in lines and m not in measured]
    if unmeasured:
        console.print(f"[dim]{escape(reliability.judge)} judge: no measured "
                      f"agreement with people for {escape(', '.join(unmeasured))}[/dim]",
                      highlight=False)


def print_summary(report: Report, console: Console | None = None) -> None:
    """The run's headline tables on the terminal, with its figures as published."""
    from ragassay.report import published

    if console is None:
        from ragassay.cli.common import console as make_console

        console = make_console()
    report = published(report)
    meta = report.run
    console.print(f"[bold]run {meta.run_id}[/bold]  dataset {escape(meta.dataset)}  "
                  f"judge {escape(meta.judge)}  samples {meta.total_samples}",
                  highlight=False)
    strategies = report.strategies
    for name, columns in composite_columns(report.metric_specs):
        if not strategies or not any(s.composite(name) for s in strategies.values()):
            continue
        t = Table(title=f"{name.split('.', 1)[0]} suite per strategy (95% CI)")
        t.add_column("strategy")
        for _, title in columns:
            t.add_column(title, justify="right")
        t.add_column("n", justify="right")
        t.add_column("failed", justify="right")
        for sname, s in strategies.items():
            t.add_row(escape(sname), *[_value(s, k) for k, _ in columns],
                      _fmt(s.total_questions, 0), _fmt(s.figure("failed_questions"), 0))
        console.print(t)
    metrics = report.aggregate_metrics.metrics
    if metrics:
        t = Table(title="aggregate metrics (mean, 95% CI)")
        for col in ("metric", "mean", "95% CI", "scored", "unscored"):
            t.add_column(col, justify="left" if col == "metric" else "right")
        for name, m in metrics.items():
            t.add_row(name, _fmt(m.mean, 3), m.text(), _fmt(m.count, 0), _fmt(m.unscored, 0))
        console.print(t)
    _print_reliability(meta.judge_reliability, list(metrics), console)
    if report.corrected is not None:
        from ragassay.cli.corrected_view import print_corrected

        print_corrected(report.corrected, strategies=False, console=console,
                        run_id=meta.run_id)
    usage = report.usage
    console.print(f"judge calls {usage.calls}, tokens in {usage.input_tokens}"
                  f" / out {usage.output_tokens}, cache hits {usage.cache_hits}",
                  highlight=False)
    for flag in report.interpretation[:8]:
        if flag.level == "warning" and flag.scope == "overall":
            console.print(f"[yellow]warning[/yellow] {escape(flag.message)}", highlight=False)
    if report.hops is not None:
        print_hops(report.hops, console)


def print_hops(hops: HopsSection, console: Console) -> None:
    """The hops of a run read from traces: by position, and what later hops lost."""
    t = Table(title=f"retrieval hops of {hops.traces} traces (relevance to the question; "
                    "share of documents the answer used)")
    for col in ("hop", "kinds", "n", "relevance", "utilization"):
        t.add_column(col, justify="left" if col in ("hop", "kinds") else "right")
    for p in hops.by_position:
        kinds = ", ".join(f"{k} {n}" for k, n in p.kinds.items())
        t.add_row(str(p.position), kinds, str(p.hops), _fmt(p.mean_relevance, 3),
                  _fmt(p.mean_utilization, 3))
    console.print(t)
    if hops.samples_with_lost:
        first = hops.lost[0]
        noun = "trace" if hops.samples_with_lost == 1 else "traces"
        console.print(f"[yellow]warning[/yellow] a later hop lost what an earlier hop found "
                      f"in {hops.samples_with_lost} {noun}: e.g. trace {first.trace_id} hop "
                      f"{first.hop} found {escape(first.document)} (relevance "
                      f"{first.relevance:.2f}), missing from the final contexts "
                      "(report: hops.lost)", highlight=False)
