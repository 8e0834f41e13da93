"""Terminal rendering of a report: the per-strategy summary and aggregate tables."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.cli.brief_notes import judge_check_lines, overall_warnings
from ragassay.cli.cost_view import cost_text
from ragassay.cli.fmt import NO_INTERVAL, ci_text, penalty_note
from ragassay.console import fitted, print_said
from ragassay.metrics.citations.formulas import LISTED_NOTE
from ragassay.stats.describe import FEWER_NOTE
from ragassay.stats.interpret import wrong_side_text

if TYPE_CHECKING:
    from ragassay.report import Report, StrategyEntry
    from ragassay.report.model import HopsSection
    from ragassay.types import MetricSpec


MAX_WARNINGS = 10  # metrics on the wrong side of their warning line printed one per line
OVERALL_NOTE = ("{short}: the mean of the samples' own {metric} scores, as in the aggregate "
                "table and the leaderboard")
"""Said under a strategy table: which overall it shows (the report's JSON also has the
formula applied to the averages, `overall_of_averages`; docs/metrics.md)."""


def strategy_columns(specs: Mapping[str, MetricSpec]
                     ) -> list[tuple[str, list[tuple[str, str]], str | None]]:
    """Per suite of the report's specs, in their order: the suite, the metrics its strategy
    table shows as (metric, column title), and the note said under it. A suite with a
    composite metric (the judge suite's overall) shows each part's mean (a flag's as its
    rate) and then the composite's own mean over the samples, the one overall figure of a
    strategy, with a note saying so; any other suite shows each of its metrics (the
    citations suite with the note that a trailing sources list is no citation)."""
    from ragassay.stats import guide_fields

    suites: dict[str, list[MetricSpec]] = {}
    for spec in specs.values():
        suites.setdefault(spec.suite, []).append(spec)
    out: list[tuple[str, list[tuple[str, str]], str | None]] = []
    for suite, members in suites.items():
        cols = [(s.name, s.short.replace("_", " ")) for s in members]
        note = None
        for spec in members:
            if spec.composite is None:
                continue
            parts = [(metric, field.removeprefix("avg_").replace("_", " "))
                     for field, metric in guide_fields(spec).items()]
            shown = {m for m, _ in parts} | {spec.name}
            cols = [*parts, *[c for c in cols if c[0] not in shown], (spec.name, spec.short)]
            note = OVERALL_NOTE.format(short=spec.short, metric=spec.name)
            if (penalty := penalty_note(spec)) is not None:  # trial 83
                note = f"{note}; {penalty}"
        if suite == "citations":  # trial 58: an answer + Sources list read as uncited
            note = f"citations: {LISTED_NOTE}"
        out.append((suite, cols, note))
    return out


def _fmt(v: Any, digits: int = 2) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | float):
        return f"{v:.{digits}f}"
    return str(v)


def _value(strategy: StrategyEntry, metric: str, apart: bool = False) -> str:
    """A strategy's mean of a metric with its interval, e.g. `7.41 [6.90, 7.88]`, and the
    samples it rests on when fewer than the strategy's n: `0.56 [0.47, 0.64] (n=131)`;
    `apart`: that count on a line of its own, so that the figure is the cell's widest
    line."""
    entry = strategy.metrics.get(metric)
    if entry is None or entry.mean is None:
        return "-"
    n = entry.rests_on(strategy.total_questions)
    n = f"\n{n.strip()}" if apart and n else n
    if entry.ci_low is None or entry.ci_high is None:
        return f"{entry.mean:.2f}" + (f" ({NO_INTERVAL})" if entry.count == 1 else n)
    return f"{entry.mean:.2f} {ci_text((entry.ci_low, entry.ci_high), digits=2)}{n}"


def _strategy_tables(title: str, strategies: Mapping[str, StrategyEntry],
                     columns: list[tuple[str, str]], suite: str
                     ) -> Iterator[tuple[Table, range]]:
    """A suite's per-strategy table, a row per strategy; then, for a console it does not
    fit (`console.fitted`), a row per metric and a column per strategy (trial 65: at 100
    columns each figure wrapped over two or three lines)."""
    t = Table(title=title)
    t.add_column("strategy")
    for _, name in columns:
        t.add_column(name, justify="right")
    t.add_column("n", justify="right")
    t.add_column(UNSCORED_HEADER, justify="right")
    for sname, s in strategies.items():
        t.add_row(escape(sname), *[_value(s, k) for k, _ in columns],
                  _fmt(s.total_questions, 0), _fmt(s.failed.get(suite), 0))
    yield t, range(1, len(columns) + 1)
    t = Table(title=title, min_width=len(title) + 2)  # the title on one line
    t.add_column("metric")
    for sname in strategies:
        t.add_column(escape(sname), justify="right")
    for k, name in columns:
        t.add_row(name, *[_value(s, k, apart=True) for s in strategies.values()])
    t.add_row("n", *[_fmt(s.total_questions, 0) for s in strategies.values()])
    t.add_row(UNSCORED_HEADER, *[_fmt(s.failed.get(suite), 0) for s in strategies.values()])
    yield t, range(1, len(strategies) + 1)


def _print_reliability(report: Report, metrics: list[str], console: Console) -> None:
    """The judge's held-apart agreement with people (`report.reliability_lines`)."""
    from ragassay.report import reliability_lines

    for line in reliability_lines(report, metrics, after_headline=True):
        console.print(f"[dim]{escape(line)}[/dim]", highlight=False)


def _print_abstentions(report: Report, console: Console) -> None:
    """Per strategy: how often the answers declined, and declined where the judge read the
    contexts as answering (95% CI), that reading's basis under the table; the command
    that lists those counted false."""
    if not report.abstentions:
        return
    from ragassay.report.disagreements import (
        abstention_columns,
        abstentions_said,
        disagree_lines,
        false_said,
    )

    t = Table(title="abstentions per strategy (rate, 95% CI)")
    # (each rate and its interval one cell, under a title that wraps at its words: as two
    # columns, "false_abstention_rate" and its "95% CI" made the table 124 wide, trial 65)
    yes, no = abstention_columns(report)
    for col in ("strategy", "abstention rate", "false abstention rate", "abstained",
                no, yes, "n"):
        # (a rate and its interval never split: the long words of the count heads wrap)
        t.add_column(col, justify="left" if col == "strategy" else "right",
                     no_wrap=col.endswith("rate"))
    for name, a in report.abstentions.items():
        t.add_row(escape(name), f"{_fmt(a.abstention_rate.mean, 3)} {a.abstention_rate.text()}",
                  f"{_fmt(a.false_abstention_rate.mean, 3)} {a.false_abstention_rate.text()}",
                  _fmt(a.abstained, 0), _fmt(a.correct, 0), _fmt(a.false, 0),
                  _fmt(a.samples, 0))
    console.print(t)
    console.print(f"[dim]false: a decline where {escape(false_said(report))}: the judge's "
                  "reading, not people's; another judge may count otherwise[/dim]",
                  highlight=False)
    print_said(console, abstentions_said(report))  # in full here, `eval` says it short
    _, false = disagree_lines(report)  # which samples (trial 66: the console named none)
    if false:
        console.print(f"[yellow]see[/yellow] {escape(false)}", highlight=False)


UNSCORED_HEADER = "unscored"
UNSCORED_NOTE = ("unscored (last column): the questions on which some {suite} metric has no "
                 "value for a reason other than a missing input (a failed judge call, or a "
                 "value the metric cannot give on that question); missing references and "
                 "declines are not counted (reasons: the unscored lines below; report: "
                 "strategies.*.failed)")
"""What the per-suite tables' last column counts, said under a table where it is not 0
or where a metric of the table has fewer values than its row's samples (a `-` for
answer similarity with no reference beside an unscored 0: trial 62)."""


def _unscored_told(strategies: Mapping[str, StrategyEntry], suite: str,
                   columns: list[tuple[str, str]]) -> bool:
    """Whether a suite table needs UNSCORED_NOTE: its unscored column is not 0, or it
    leaves out samples some column's metric has no value on (a missing input, a decline)."""
    return any(s.failed.get(suite) or any(
        k not in s.metrics or s.metrics[k].count < s.total_questions for k, _ in columns)
        for s in strategies.values())


def _print_strategies(report: Report, console: Console) -> None:
    """Per suite, each strategy's means with their intervals; each group's when built
    `--by` a metadata key (its agreement with people is printed after the headline)."""
    strategies = report.strategies
    for suite, columns, note in strategy_columns(report.metric_specs):
        if not strategies or not any(_value(s, k) != "-" for s in strategies.values()
                                     for k, _ in columns):
            continue
        title = f"{suite} suite per strategy: means of the samples' scores (95% CI)"
        console.print(fitted(console, _strategy_tables(title, strategies, columns, suite)))
        if note:
            console.print(f"[dim]{escape(note)}[/dim]", highlight=False)
        if any(s.metrics[k].rests_on(s.total_questions) for s in strategies.values()
               for k, _ in columns if k in s.metrics):
            console.print(f"[dim]{escape(FEWER_NOTE)}[/dim]", highlight=False)
        if _unscored_told(strategies, suite, columns):
            console.print(f"[dim]{UNSCORED_NOTE.format(suite=suite)}[/dim]", highlight=False)
    if (constant := report.constant_note()) is not None:
        console.print(f"[yellow]note[/yellow] {escape(constant)}", highlight=False)
    if report.groups is not None:  # built --by KEY: each group's figures
        from ragassay.cli.groups_view import print_group_figures

        print_group_figures(report.groups, strategy_columns(report.metric_specs), console)


def print_summary(report: Report, console: Console | None = None,
                  judge_check: bool = False) -> None:
    """The run's headline tables on the terminal, with its figures as published;
    `judge_check` (`eval --judge-check --verbose`): its warnings on the system's figures
    left out, counted on one line (`brief_notes.judge_check_lines`)."""
    from ragassay.report import published

    if console is None:
        from ragassay.cli.common import console as make_console

        console = make_console()
    report = published(report)
    meta = report.run
    console.print(f"[bold]run {meta.run_id}[/bold]  dataset {escape(meta.dataset)}  "
                  f"judge {escape(meta.judge)}  samples {meta.total_samples}",
                  highlight=False)
    from ragassay.cli.corrected_view import print_headline

    if report.groups is not None:  # built --by KEY: what it is asked for, first (trial 88)
        from ragassay.cli.groups_view import print_group_agreement

        print_group_agreement(report.groups, console, twins=False)  # the headline's
    print_headline(report, console)
    _print_strategies(report, console)
    metrics = report.aggregate_metrics.metrics
    if metrics:
        t = Table(title="aggregate metrics (mean, 95% CI)")
        abst = report.abstentions is not None
        for col in ("metric", "mean", "95% CI", "scored", "unscored",
                    *(("abstained",) if abst else ())):
            t.add_column(col, justify="left" if col == "metric" else "right")
        for name, m in metrics.items():
            t.add_row(name, _fmt(m.mean, 3), m.text(), _fmt(m.count, 0), _fmt(m.unscored, 0),
                      *((_fmt(m.abstained or 0, 0),) if abst else ()))
        console.print(t)
    _print_abstentions(report, console)
    _print_reliability(report, list(metrics), console)
    if report.corrected is not None:
        from ragassay.cli.corrected_view import print_corrected

        print_corrected(report.corrected, strategies=False, console=console,
                        run_id=meta.run_id)
    if report.annotators is not None:
        from ragassay.cli.people_view import print_people

        print_people(report.annotators, console)
    usage = report.usage
    console.print(f"judge calls {usage.calls}, tokens in {usage.input_tokens}"
                  f" / out {usage.output_tokens}, cache hits {usage.cache_hits}, "
                  f"{escape(cost_text(report))}", highlight=False)
    if usage.batch is not None:
        console.print(escape(usage.batch.describe()), highlight=False)
    warnings = [] if judge_check else overall_warnings(report)
    for line in judge_check_lines(report) if judge_check else []:
        print_said(console, line, dim=True)
    head = report.headline if warnings else None
    for flag in warnings[:MAX_WARNINGS]:  # people's figure beside the judge's, where it has one
        said = head.flag_text(flag) if head is not None else flag.message
        print_said(console, said, head="warning")  # never split inside a figure
    if len(warnings) > MAX_WARNINGS:
        more = wrong_side_text(len(warnings) - MAX_WARNINGS, more=True)
        console.print(f"[yellow]warning[/yellow] ... and {more} (the JSON or HTML report "
                      "lists them)", highlight=False)
    if report.hops is not None:
        print_hops(report.hops, console)
    if report.routing is not None:
        from ragassay.cli.routing_view import print_routing

        print_routing(report.routing, console)


def print_hops(hops: HopsSection, console: Console) -> None:
    """The hops of a run read from traces: by position, and what later hops lost."""
    from ragassay.dataset.traces import (
        DOCUMENT_RELEVANCE,
        HOP_RELEVANCE,
        HOP_UTILIZATION,
        HOPS_NOTE,
    )

    t = Table(title=f"retrieval hops of {hops.traces} traces")
    for col in ("hop", "kinds", "n", HOP_RELEVANCE, HOP_UTILIZATION):
        t.add_column(col, justify="left" if col in ("hop", "kinds") else "right")
    for p in hops.by_position:
        kinds = ", ".join(f"{k} {n}" for k, n in p.kinds.items())
        t.add_row(str(p.position), kinds, str(p.hops), _fmt(p.mean_relevance, 3),
                  _fmt(p.mean_utilization, 3))
    console.print(t)
    console.print(HOPS_NOTE, highlight=False)
    if hops.samples_with_lost:
        first = hops.lost[0]
        noun = "trace" if hops.samples_with_lost == 1 else "traces"
        console.print(f"[yellow]warning[/yellow] a later hop lost what an earlier hop found "
                      f"in {hops.samples_with_lost} {noun}: e.g. trace {first.trace_id} hop "
                      f"{first.hop} found {escape(first.document)} ({DOCUMENT_RELEVANCE} "
                      f"{first.relevance:.2f}), missing from the final contexts "
                      "(report: hops.lost)", highlight=False)
