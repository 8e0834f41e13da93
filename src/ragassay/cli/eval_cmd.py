"""`ragassay eval`: a thin layer over the run session (`ragassay.runner`): the command line
becomes a `RunRequest`, the session checks it (`plan_run`: the dataset read in full before
any judge call is paid for, a resume against the run it continues) and runs it
(`execute`: the engine, then the end-of-run rules); this module prints the plan's notes,
the outcome's findings, the summary and the reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ragassay.cli.app import cli, write_report
from ragassay.cli.batch_cmd import BatchBar, BatchFlags, batch_options, batch_request, detached
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FailedRun,
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    by_option,
    check_spec,
    db_option,
    executed,
    export_otlp_option,
    export_scores,
    field_map,
    friendly,
    header_option,
    headers,
    label_rule_option,
    map_option,
    open_store,
    otlp_file,
    planned,
    ratings_option,
    refuse_overwrites,
    resumable,
    say,
    sigterm_interrupts,
    trace_map,
    trace_map_option,
)
from ragassay.cli.routing_opts import rerouting, routing_options, routing_plan
from ragassay.store import Store
from ragassay.types import LabelRule, Price, Ratings, ReadAs, RoutingPlan

if TYPE_CHECKING:
    from ragassay.report import Report
    from ragassay.runner import RunOutcome, RunPlan
    from ragassay.runner.request import RetryFailed


def report_unscored(report: Report) -> None:
    """Unscored values, the metrics they are of and their top reasons, on stderr even
    under -q (`report.no_reference.unscored_line`: those of a metric no sample could
    score for want of reference answers not among them; trial 78)."""
    from ragassay.report.no_reference import unscored_line

    line = unscored_line(report)
    if line:
        say(line, err=True)


def _given(name: str) -> bool:
    """Whether the option `name` was given on the command line (not its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _price(price_in: float | None, price_out: float | None) -> Price | None:
    """The judge's price from --price-in/--price-out (both or neither), else None."""
    try:
        return Price.given(price_in, price_out)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None


def _retry(given: str | None) -> RetryFailed | None:
    """--retry-failed: "transport" (the flag alone) or "all"; None when not given."""
    return None if given is None else "all" if given == "all" else "transport"


@cli.command("eval")
@click.argument("data", type=click.Path(path_type=Path))
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help=JUDGE_SPEC_HELP + ".")
@click.option("--base-url", "base_urls", multiple=True, metavar="URL",
              help="OpenAI-compatible endpoint for the judge; repeat it to spread calls over "
                   "several endpoints of the same model (one failing is left out). Stored and "
                   "shown without its query string and user name; credentials in it are "
                   "refused (use --header or OPENAI_API_KEY). With --resume, a different URL "
                   "is used and said so.")
@header_option
@click.option("--metrics", default="all", show_default=True,
              help="Comma-separated suites (judge,trace,ragas; all = every suite) or metrics "
                   "(ragas.faithfulness: that metric alone, and only the judge calls it "
                   "needs).")
@map_option
@trace_map_option
@click.option("--format", "read_as", type=click.Choice(["auto", "rows", "traces"]),
              default="auto", show_default=True,
              help="Read a .json/.jsonl/.parquet file as rows or as OpenTelemetry traces; "
                   "auto: by the keys of its first object (a row whose metadata carries "
                   "trace and span ids is a row).")
@export_otlp_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the JSON report here.")
@click.option("--results-parquet", type=click.Path(file_okay=False, path_type=Path),
              default=None, metavar="DIR",
              help="Also write the per-sample results as a Parquet dataset in DIR "
                   "(pandas, Spark, DuckDB read it).")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=8, show_default=True,
              help="Judge calls in flight; with --engine ray, across all workers.")
@click.option("--engine", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="local: this process (asyncio); ray: a pool of Ray "
              "workers, on a local Ray instance or the cluster at --ray-address.")
@click.option("--ray-address", default=None, metavar="ADDRESS",
              help="Join this Ray cluster (auto, HOST:PORT, ray://HOST:PORT) instead of "
                   "starting a local instance.")
@click.option("--ray-writes", type=click.Choice(["driver", "workers"]), default=None,
              help="With --engine ray, who saves the judgments: driver (default; any "
                   "store) or workers (a PostgreSQL --db only: each Ray worker writes its "
                   "own tasks over its own connection; see docs/scale.md).")
@click.option("--workers", type=click.IntRange(1, 4096), default=None,
              help="Worker processes: with the local engine, processes running the "
                   "offline judge (default: one per CPU, as memory allows; 1: this "
                   "process); with --engine ray, Ray workers (default: one per CPU of the "
                   "cluster).")
@db_option
@click.option("--resume", "resume", default=None, metavar="RUN",
              help="Continue an interrupted run without repeating finished judgments; "
                   "refused while another process is evaluating it.")
@click.option("--retry-failed", type=click.Choice(["transport", "all"]), is_flag=False,
              flag_value="transport", default=None,
              help="With --resume: judge again the judgments that failed for the endpoint's "
                   "sake (no connection, timeout, 429, 5xx; a resume of an unfinished run "
                   "does so anyway), also of a finished run; 'all': every failed judgment, "
                   "unusable replies too.")
@click.option("--skip-invalid", is_flag=True, help="Record bad rows as failed instead of "
              "stopping at the first one; their count and first reasons are printed.")
@click.option("--no-cache", is_flag=True, help="Do not read the judge-call cache.")
@click.option("--max-context-tokens", type=click.IntRange(100), default=6000, show_default=True,
              help="Contexts beyond this budget are truncated (the results name the "
                   "texts cut).")
@click.option("--timeout", "timeout_s", type=FiniteFloat(1), default=60, show_default=True,
              help="Seconds per judge call before it is retried.")
@ratings_option
@click.option("--price-in", type=FiniteFloat(0), default=None, metavar="USD",
              help="The judge model's price per 1M input tokens (with --price-out); default: "
                   "LiteLLM's price table when litellm is installed.")
@click.option("--price-out", type=FiniteFloat(0), default=None, metavar="USD",
              help="The judge model's price per 1M output tokens (with --price-in).")
@click.option("--dry-run", is_flag=True,
              help="Check the data and print the judge calls, tokens and cost the run would "
                   "take; sends nothing, needs no key, stores nothing.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar or summary (warnings still go to stderr).")
@click.option("--verbose", "-v", is_flag=True,
              help="The full summary (what `ragassay runs show RUN` prints): the headline's "
                   "cells in full, per-strategy tables, held-apart agreement, corrected "
                   "estimates, people's labels; default: one line per metric.")
@click.option("--judge-check", is_flag=True,
              help="A run whose only purpose is checking the judge against people's labels "
                   "in the data: the summary keeps the judge's agreement with people and "
                   "leaves out the warnings on the RAG system's own figures (`ragassay runs "
                   "show RUN` still lists them).")
@by_option
@label_rule_option
@batch_options
@routing_options
@friendly
def eval_cmd(data: Path, judge_spec: str, base_urls: tuple[str, ...],
             headers_given: tuple[str, ...], metrics: str, mapping_given: tuple[str, ...],
             trace_map_given: tuple[str, ...], read_as: ReadAs, export_otlp: str | None,
             out: Path | None,
             results_parquet: Path | None, concurrency: int, engine: str,
             ray_address: str | None, ray_writes: str | None, workers: int | None,
             db: StoreLocation, resume: str | None,
             retry_failed: str | None, skip_invalid: bool, no_cache: bool,
             max_context_tokens: int, timeout_s: float, ratings: Ratings,
             price_in: float | None, price_out: float | None, dry_run: bool,
             quiet: bool, verbose: bool, judge_check: bool, by: str | None,
             label_rule: LabelRule,
             batch_flags: BatchFlags, routing_given: dict[str, Any]) -> None:
    """Score a dataset of RAG interactions (JSONL, JSON, CSV or Parquet), or a file of
    OpenTelemetry traces (OTLP JSON, opentelemetry-sdk span JSON: one sample per trace).

    SIGTERM stops it like Ctrl-C: the run is marked interrupted, finished judgments
    are kept for --resume.
    """
    from ragassay.console import RichProgress
    from ragassay.runner import FileSource, RunRequest, engine_choice

    mapping, extra_headers = field_map(mapping_given), headers(headers_given)
    traces = trace_map(trace_map_given)
    try:
        chosen_engine = engine_choice(engine, ray_address, workers, ray_writes=ray_writes)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    price = _price(price_in, price_out)
    routing = _routing(judge_spec, resume, routing_given)
    if dry_run and resume:
        raise UsageProblem("--dry-run estimates a new run: leave out --resume")
    with sigterm_interrupts():
        refuse_overwrites([("--out", out), ("--export-otlp", otlp_file(export_otlp))],
                          folders=[("--results-parquet", results_parquet)], db=db,
                          inputs=[(f"the dataset ({data})", data)])
        # the store is opened once the checks pass (a dry run stores nothing)
        plan = planned(RunRequest(
            FileSource(data, field_map=mapping or None, trace_map=traces or None,
                       skip_invalid=skip_invalid,
                       read_as=read_as if _given("read_as") else None),
            (lambda: Store(":memory:")) if dry_run else (lambda: open_store(db)),
            metrics=metrics if _given("metrics") else None,
            judge=judge_spec if _given("judge_spec") else None,
            endpoints=tuple(u for u in base_urls if u), headers=extra_headers,
            timeout_s=timeout_s, price=price, concurrency=concurrency, ratings=ratings,
            use_cache=not no_cache, max_context_tokens=max_context_tokens,
            engine=chosen_engine, resume=resume, retry_failed=_retry(retry_failed),
            batch=batch_request(batch_flags, resume), routing=routing,
            rerouting=rerouting(**routing_given) if resume else None,
            judge_check=judge_check))  # kept with the run: `runs show`, a resume honour it
        for note in plan.notes:
            say(note.text, err=True)
        if dry_run:
            _dry_run(plan, metrics, judge_check)
            return
        try:
            outcome = executed(plan, RichProgress(enabled=not quiet), BatchBar(enabled=not quiet))
        except BaseException:  # stopped: say which run to resume (friendly prints it)
            resumable(plan.run_id)
            raise
    if outcome.waiting:
        detached(outcome, data, db)
        return
    _finish(plan.store, outcome, db, out, results_parquet, quiet, export_otlp, label_rule,
            by, verbose, judge_check)


def _routing(judge_spec: str, resume: str | None, given: dict[str, Any]) -> RoutingPlan | None:
    """A new run's routing plan from the options (None: one judge; a resume's is the
    stored run's, with `rerouting`'s new settings)."""
    return None if resume else routing_plan(judge_spec, _given("judge_spec"), check_spec,
                                            **given)


def _dry_run(plan: RunPlan, metrics: str, judge_check: bool = False) -> None:
    """Print what the run would take: calls, tokens, cost; nothing is sent or stored. A
    cascade: each LLM judge of the plan, as if it judged every sample. `judge_check`:
    then what the run would check the judge against (`judge_check_plan`)."""
    from ragassay.cli.common import console
    from ragassay.cli.cost_view import print_estimate
    from ragassay.runner import estimate
    from ragassay.types import is_offline

    out, routing = console(), plan.config.routing
    specs: list[str | None] = [None] if routing is None else [
        s for s in dict.fromkeys(routing.judges()) if not is_offline(s)] or [None]
    for spec in specs:
        if spec is not None:
            out.print(f"if {spec} judged every sample (a cascade sends it only what the "
                      "tiers below are not sure of, and the labelled samples):",
                      highlight=False)
        print_estimate(estimate(plan, spec), metrics, out, batch=plan.batch is not None)
    if judge_check:
        from ragassay.cli.brief_notes import judge_check_plan
        from ragassay.console import print_said

        print_said(out, judge_check_plan(plan.check, plan.config.metrics), dim=True)


def _finish(store: Store, outcome: RunOutcome, db: StoreLocation, out: Path | None,
            results_parquet: Path | None, quiet: bool, export_otlp: str | None,
            rule: LabelRule | None = None, by: str | None = None, verbose: bool = False,
            judge_check: bool = False) -> None:
    """After the run: its findings, reports, the summary (one line per metric; `verbose`:
    the full one; `judge_check`: without the warnings on the system's figures) and where
    things are; a --by key no sample has stops it last (the run is stored), with the
    command to show it."""
    from ragassay.cli.brief import print_brief
    from ragassay.cli.common import console as make_console
    from ragassay.cli.summary import print_summary
    from ragassay.report import UnknownGroupKey, build_report, group_key, iter_details
    from ragassay.report.no_reference import needs_reference

    run_id = outcome.run_id
    judge_check = judge_check or bool(store.get_run(run_id).meta.judge_check)  # a resume's
    for finding in outcome.of("judge-note"):
        say(finding.text, err=True)
    unknown = None
    try:
        if by is not None:
            group_key(store, run_id, by)
    except UnknownGroupKey as exc:
        unknown, by = exc, None
    # the summary needs no per-sample details; a report file gets them streamed in (and
    # the metadata keys read for them)
    report = build_report(store, run_id, include_details=False, rule=rule,
                          per_sample=out is not None or results_parquet is not None, by=by)
    if out is not None:
        write_report(report, out, details=iter_details(store, run_id, rule))
    if results_parquet is not None:
        write_report(report, results_parquet, "parquet", iter_details(store, run_id, rule))
    if not quiet:
        print_summary(report, judge_check=judge_check) if verbose else print_brief(
            report, make_console(), judge_check=judge_check)
    # (no references at all: the short summary says it in one line, trial 78)
    said = not (quiet or verbose) and needs_reference(report)
    plain = [] if said else outcome.of("no-references")
    for finding in outcome.of("lacking-inputs") + plain + outcome.of("suspicious-replies"):
        say(finding.text, err=True)
    report_unscored(report)
    for finding in outcome.of("all-calls-failed"):  # recorded `failed`: exit 1
        raise FailedRun(finding.text)
    for finding in outcome.of("transport-failures"):
        say(finding.text, err=True)
    if export_otlp:
        export_scores(store, run_id, export_otlp, quiet)
    if not quiet:
        if out is not None:
            say(f"report written to {out}", err=True)
        if results_parquet is not None:
            say(f"results written to {results_parquet}/ (Parquet)", err=True)
        say(f"run {run_id} stored in {db}", err=True)
    if unknown is not None:
        raise UsageProblem(f"{unknown} (the run is stored: ragassay runs show {run_id} --by "
                           "KEY)")
