"""The `ragassay` command line."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

import click

from ragassay import __version__
from ragassay.cli.common import (
    UsageProblem,
    console,
    db_option,
    friendly,
    open_store,
    ratings_option,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ragassay")
def cli() -> None:
    """Evaluate retrieval-augmented generation: judge, trace and ragas metrics."""


def _count_and_check(path: Path, skip_invalid: bool) -> tuple[int, int]:
    """A first pass over the file: validates every row (one-line error) and counts them."""
    from ragassay.dataset import iter_samples
    from ragassay.types import InvalidRow

    total = invalid = 0
    for item in iter_samples(path, skip_invalid=skip_invalid):
        total += 1
        invalid += isinstance(item, InvalidRow)
    return total, invalid


@cli.command("eval")
@click.argument("data", type=click.Path(path_type=Path))
@click.option("--judge", "judge_spec", default="offline", show_default=True,
              help="offline, or BACKEND:MODEL such as openai:gpt-4o-mini")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint for the judge.")
@click.option("--metrics", default="all", show_default=True,
              help="Comma-separated suites: judge,trace,ragas (all = every suite).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the JSON report here.")
@click.option("--concurrency", type=click.IntRange(1, 1024), default=8, show_default=True)
@db_option
@click.option("--resume", "resume", default=None, metavar="RUN",
              help="Continue an interrupted run without repeating finished judgments.")
@click.option("--skip-invalid", is_flag=True, help="Record bad rows as failed instead of "
              "stopping at the first one.")
@click.option("--no-cache", is_flag=True, help="Do not read the judge-call cache.")
@click.option("--max-context-tokens", type=click.IntRange(100), default=6000, show_default=True,
              help="Contexts beyond this budget are truncated (flagged in the details).")
@click.option("--timeout", "timeout_s", type=click.FloatRange(1), default=60, show_default=True,
              help="Seconds per judge call before it is retried.")
@ratings_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
@friendly
def eval_cmd(data: Path, judge_spec: str, base_url: str | None, metrics: str, out: Path | None,
             concurrency: int, db: Path, resume: str | None, skip_invalid: bool,
             no_cache: bool, max_context_tokens: int, timeout_s: float, ratings: str,
             quiet: bool) -> None:
    """Score a dataset of RAG interactions (JSONL, JSON, CSV or Parquet)."""
    from ragassay.cli.progress import RichProgress
    from ragassay.cli.summary import print_summary
    from ragassay.dataset import dataset_fingerprint, iter_samples
    from ragassay.metrics import parse_metrics
    from ragassay.report import build_report, iter_details
    from ragassay.runner import evaluate
    from ragassay.types import RunConfig

    total, invalid = _count_and_check(data, skip_invalid)
    store = open_store(db)
    if resume:
        run = store.get_run(resume)
        config = run.config
        if Path(config.dataset).resolve() != data.resolve():
            raise UsageProblem(f"run {run.id} evaluated {config.dataset}, not {data}")
    else:
        config = RunConfig(dataset=str(data), judge=judge_spec, base_url=base_url,
                           metrics=parse_metrics(metrics), concurrency=concurrency,
                           use_cache=not no_cache, skip_invalid=skip_invalid,
                           max_context_tokens=max_context_tokens,
                           extra={"backend": {"timeout_s": timeout_s},
                                  "judge": {"ratings": ratings}})
    progress = RichProgress(enabled=not quiet)
    stats = evaluate(iter_samples(data, skip_invalid=skip_invalid), config, store=store,
                     resume=resume, progress=progress, total=total,
                     dataset_hash=dataset_fingerprint(data))
    # the summary needs no per-sample details; a report file gets them streamed in
    report = build_report(store, stats.run_id, include_details=False)
    if out is not None:
        write_json(report, out, details=iter_details(store, stats.run_id))
    if not quiet:
        print_summary(report)
        if out is not None:
            click.echo(f"report written to {out}", err=True)
        click.echo(f"run {stats.run_id} stored in {db}", err=True)


def write_json(report: dict[str, Any], out: Path,
               details: Iterable[dict[str, Any]] | None = None) -> None:
    """Write a report as JSON, atomically (see `write_text`); `details` (per-sample
    entries) are streamed into it, so a large run's report is never whole in memory."""
    from ragassay.report import dump_json

    write_text(out, lambda fh: dump_json(report, fh, details), what="report ")


def write_text(out: Path, text: str | Callable[[IO[str]], None], *, what: str = "") -> None:
    """Write atomically: a partial file is never left under the final name. `text` is
    the content, or a function that writes it to the open file."""
    tmp = out.with_name(out.name + ".part")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("w", encoding="utf-8") as fh:
            if callable(text):
                text(fh)
            else:
                fh.write(text)
        tmp.replace(out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise UsageProblem(f"cannot write {what}{out}: {exc.strerror or exc}") from None


@cli.group()
def runs() -> None:
    """List and inspect runs in the store."""


@runs.command("list")
@db_option
@click.option("--dataset", default=None, help="Only runs of this dataset.")
@friendly
def runs_list(db: Path, dataset: str | None) -> None:
    """Every run, newest first."""
    from rich.markup import escape
    from rich.table import Table

    store = open_store(db, readonly=True)
    t = Table()
    for col in ("run", "created", "status", "dataset", "judge", "metrics", "samples"):
        t.add_column(col)
    for r in store.list_runs(dataset=dataset):
        t.add_row(r.id, r.created.strftime("%Y-%m-%d %H:%M"), r.status, escape(r.dataset),
                  escape(r.config.judge),
                  ",".join(r.config.metrics), str(store.count_samples(r.id)))
    console().print(t)


@runs.command("show")
@click.argument("run_id", metavar="RUN")
@db_option
@friendly
def runs_show(run_id: str, db: Path) -> None:
    """The summary of one run."""
    from ragassay.cli.summary import print_summary
    from ragassay.report import build_report

    store = open_store(db, readonly=True)
    print_summary(build_report(store, run_id, include_details=False))



@cli.command("ui")
@db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to bind (127.0.0.1 keeps the dashboard local).")
def ui_cmd(db: Path, port: int, host: str) -> None:
    """Open the dashboard over the run store."""
    from ragassay.ui import launch

    raise SystemExit(launch(db, port, host))


def main() -> None:
    cli(prog_name="ragassay")
