"""The `ragassay` command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from ragassay.cli.common import (
    StoreLocation,
    UsageProblem,
    by_option,
    console,
    db_option,
    friendly,
    label_rule_option,
    open_store,
    say,
)
from ragassay.terminal import counted
from ragassay.version import __version__

if TYPE_CHECKING:
    from ragassay.report import Entry, Format, Report
    from ragassay.store import RunRecord, Store
    from ragassay.types import LabelRule


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ragassay")
def cli() -> None:
    """Evaluate retrieval-augmented generation: judge, trace and ragas metrics."""


def write_report(report: Report, out: Path, format: Format = "json",
                 details: Iterable[Entry] | None = None) -> None:
    """Write a report (`ragassay.report.export`), atomically; `details` (per-sample
    entries) are streamed into it, so a large run's report is never whole in memory.
    Parquet is a folder of part files (each written atomically)."""
    from ragassay.report import export

    if format == "parquet":
        try:
            export(report, format, out, details)
        except OSError as exc:
            raise UsageProblem(f"cannot write results to {out}: {exc.strerror or exc}"
                               ) from None
        metadata_note(report, format)
        return
    def write(fh: IO[str]) -> None:
        export(report, format, fh, details)

    write_text(out, write, what="report ")
    metadata_note(report, format)


def metadata_note(report: Report, format: Format) -> None:
    """Say on stderr, once per table written, that the CSV or Parquet has one `metadata`
    column of JSON text (more than METADATA_KEYS_MAX keys) instead of one per key."""
    from ragassay.report import METADATA_JSON_NOTE

    if format in ("csv", "parquet") and report.metadata_json:
        say(f"note: {METADATA_JSON_NOTE}", err=True)


def write_data(data: Any, out: Path) -> None:
    """Write JSON data (not a report: e.g. meta-eval's figures) as indented JSON."""
    write_text(out, json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False),
               what="report ")


def write_text(out: Path, text: str | Callable[[IO[str]], None], *, what: str = "") -> None:
    """Write atomically through `ragassay.files.atomic_write` (a fresh temporary file,
    never a planted link; nothing partial under the final name). `text` is the
    content, or a function that writes it to the open file."""
    from ragassay.files import atomic_write

    try:
        with atomic_write(out) as fh:
            if callable(text):
                text(fh)
            else:
                fh.write(text)
    except OSError as exc:
        raise UsageProblem(f"cannot write {what}{out}: {exc.strerror or exc}") from None


@cli.group()
def runs() -> None:
    """List and inspect runs in the store."""


def _status(r: RunRecord, waiting: set[str]) -> str:
    """A run's status as listed: "waiting for batch" for an unfinished run whose provider
    batches are still live (`eval --batch`), else its stored status."""
    return "waiting for batch" if r.id in waiting and r.status != "complete" else r.status


def _run_entry(store: Store, r: RunRecord, waiting: set[str]) -> dict[str, Any]:
    """One run as `runs list --format json` prints it; an eval run's strategies are those
    its samples name (a bench run's config lists the strategies it compared)."""
    strategies = list(r.config.strategies) or store.sample_strategies(r.id)
    return {"id": r.id, "created": r.created.isoformat(timespec="seconds"),
            "finished": r.finished.isoformat(timespec="seconds") if r.finished else None,
            "status": _status(r, waiting), "kind": r.config.kind, "dataset": r.dataset,
            "judge": r.config.judge, "judge_model": r.judge_model,
            "metrics": list(r.config.metrics), "strategies": strategies,
            "samples": store.count_samples(r.id), "package_version": r.package_version,
            **({"failure": r.failure} if r.failure else {})}


@runs.command("list")
@db_option
@click.option("--dataset", default=None, help="Only runs of this dataset.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="json: one object per run, for scripts.")
@friendly
def runs_list(db: StoreLocation, dataset: str | None, fmt: str) -> None:
    """Every run, newest first; bench runs are marked in the kind column, runs whose
    provider batches are still out say "waiting for batch"."""

    store = open_store(db, readonly=True)
    found = store.list_runs(dataset=dataset)
    waiting = store.runs_waiting_for_batch()
    if fmt == "json":
        click.echo(json.dumps([_run_entry(store, r, waiting) for r in found], indent=2,
                              ensure_ascii=False))
        return
    console().print(_runs_table(store, found, waiting))
    if len(found) > HEADLINE_RUNS:
        newest = counted(HEADLINE_RUNS, "run")
        say(f"headline: figures of the newest {newest} (each is its report's, built for "
            "the list); another run's: ragassay runs show RUN")
    for r in found:  # why each failed run failed (a bad endpoint, every call failed, ...)
        if r.failure:
            say(f"{r.id} failed: {r.failure}")


HEADLINE_RUNS = 10
"""How many of the newest runs `runs list` gives a headline figure: each is built from the
run's report (about 2 s of CPU for 1,000 samples), so a long list stays quick."""


def _runs_table(store: Store, found: list[RunRecord], waiting: set[str]) -> Any:
    """`runs list`'s table: no cell wraps (trial 82: at 80 columns every cell broke over
    three lines, the dataset path mid-word): the run id, which begins with the time it was
    created (`--format json` gives it in full, and the metrics), never cut; the dataset by
    its file name (`runs show` gives the path); long cells cut with an ellipsis, the
    headline wrapped between words; a kind column where some run is not an eval; and
    each run's first headline figure (`report.headline_figure`), so two runs of one file
    differ by more than their time."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from ragassay.report.headline_figure import NO_FIGURE, headline_figure

    kinds = any(r.config.kind != "eval" for r in found)  # a kind column where it tells
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0))
    t.add_column("run", no_wrap=True, min_width=20)  # an id is copied: never split (trial 61)
    for col in ("status", *(("kind",) if kinds else ()), "dataset", "judge"):
        t.add_column(col, no_wrap=True, overflow="ellipsis", min_width=6)
    t.add_column("n", no_wrap=True, justify="right")  # samples
    t.add_column("headline", min_width=13)  # wraps between words, never in one
    for i, r in enumerate(found):
        kind = f"[bold]{r.config.kind}[/bold]" if r.config.kind == "bench" else r.config.kind
        figure = headline_figure(store, r) if i < HEADLINE_RUNS else NO_FIGURE
        status = _status(r, waiting)
        t.add_row(r.id, "[red]failed[/red]" if status == "failed" else status,
                  *((kind,) if kinds else ()),
                  escape(Path(r.dataset).name or r.dataset), escape(r.config.judge),
                  str(store.count_samples(r.id)), escape(figure))
    return t


@runs.command("show")
@click.argument("run_id", metavar="[RUN]", required=False)
@by_option
@click.option("--disagree", is_flag=True,
              help="Instead of the summary, list the samples where a yes/no verdict and "
              "people's label disagree (missed, flagged), with the judge's value and "
              "reasoning, and the abstentions counted false; each with its --by KEY "
              "value (sorted by it), else an excerpt of its question.")
@click.option("--json", "as_json", is_flag=True, help="With --disagree: as JSON, for scripts.")
@click.option("--warnings", "all_warnings", is_flag=True,
              help="Of a run made with `eval --judge-check`: its warnings on the RAG "
                   "system's own figures too (its summary counts them on one line).")
@label_rule_option
@db_option
@friendly
def runs_show(run_id: str | None, by: str | None, disagree: bool, as_json: bool,
              all_warnings: bool, label_rule: LabelRule, db: StoreLocation) -> None:
    """The summary of one run (RUN: default the store's latest run); with --by KEY, the
    run by a metadata key of its samples too; with --disagree, the samples behind the
    headline's misses and flags and the false abstentions instead. A run made with
    `eval --judge-check` is shown as that made it: its warnings on the system's figures
    counted on one line (--warnings: said in full)."""
    from ragassay.cli.common import run_or_latest
    from ragassay.cli.summary import print_summary
    from ragassay.report import build_report

    if as_json and not disagree:
        raise UsageProblem("--json goes with --disagree (the run's figures as JSON: "
                           "ragassay report RUN)")
    store = open_store(db, readonly=True)
    run = store.get_run(run_or_latest(store, run_id))
    report = build_report(store, run.id, include_details=False, rule=label_rule,
                          per_sample=False, by=None if disagree else by)
    if disagree:
        _print_disagree(store, report, as_json, by, label_rule)
        return
    print_summary(report, judge_check=bool(run.meta.judge_check) and not all_warnings)
    if run.failure:
        say(f"run {run.id} failed: {run.failure}")
    if report.leaderboard:  # a bench run: its stored leaderboard
        from ragassay.bench.leaderboard import LEADERBOARD_WIDTH, leaderboard_table

        console(piped_width=LEADERBOARD_WIDTH).print(leaderboard_table(report.leaderboard))
    if store.get_monitor(report.evaluation_metadata.run_id) is not None:
        from ragassay.cli.monitor_view import print_monitor
        from ragassay.monitor.view import monitor_view

        view = monitor_view(store, report.evaluation_metadata.run_id)
        if view is not None:
            print_monitor(view, console())



def _print_disagree(store: Store, report: Report, as_json: bool, by: str | None,
                    rule: LabelRule | None = None) -> None:
    """`runs show --disagree`: the report's disagreements with the judge's reasoning,
    each sample with its `--by KEY` value, else an excerpt of its question
    (`disagree_view.About`); then every answer the judge read as a decline
    (`disagree_view.declines_of`, trial 87)."""
    from ragassay.cli.disagree_view import (
        About,
        declines_of,
        disagreements_json,
        listed_ids,
        print_disagreements,
    )
    from ragassay.report import group_key, run_table
    from ragassay.report.disagreements import with_reasons
    from ragassay.stats.groups import group_name
    from ragassay.types import Sample

    run_id = report.run.run_id
    found = report.disagreements
    by = group_key(store, run_id, by) if by is not None else None
    if found is not None:
        found = with_reasons(store, run_id, found)
    rows = [r for r in run_table(store, run_id, rule=rule).table.rows
            if r.abstention is not None]
    ids = list(dict.fromkeys((listed_ids(found) if found is not None else [])
                             + [r.id for r in rows]))
    samples = {i: s for i in ids if isinstance(s := store.get_sample(run_id, i), Sample)}
    about = About({i: group_name(s.metadata.get(by)) if by is not None else s.question
                   for i, s in samples.items()}, by)
    declines = declines_of(rows, {i: s.answer or "" for i, s in samples.items()})
    if as_json:
        click.echo(disagreements_json(report, found, about, declines))
    else:
        print_disagreements(report, found, console(), about, declines)


@runs.command("delete")
@click.argument("run_ids", metavar="RUN...", nargs=-1, required=True)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@db_option
@friendly
def runs_delete(run_ids: tuple[str, ...], yes: bool, db: StoreLocation) -> None:
    """Delete runs with their samples, scores, judge calls and annotation plans (the
    judge cache and human labels are kept). Asks first unless --yes; refused while
    another process evaluates the run."""
    store = open_store(db)
    runs = list(dict.fromkeys(store.get_run(r).id for r in run_ids))  # all known first
    for run_id in runs:
        run = store.get_run(run_id)
        say(f"run {run.id}: {run.status}, {run.config.kind} of {run.dataset}, "
            f"{counted(store.count_samples(run.id), 'sample')}, "
            f"{run.created:%Y-%m-%d %H:%M}",
            err=True)
    if not yes:
        if not sys.stdin.isatty():
            raise UsageProblem("not deleting without confirmation: add --yes (stdin is not "
                               "a terminal)")
        noun = "this run" if len(runs) == 1 else f"these {len(runs)} runs"
        if not click.confirm(f"Delete {noun}?", default=False, err=True):
            raise UsageProblem("nothing deleted")
    for run_id in runs:
        store.delete_run(run_id)
        say(f"deleted run {run_id}")


@cli.command("ui")
@db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to bind (127.0.0.1 keeps the dashboard local).")
def ui_cmd(db: StoreLocation, port: int, host: str) -> None:
    """Open the dashboard over the run store (SIGTERM or Ctrl-C stops it and its server)."""
    from ragassay.ui import launch

    raise SystemExit(launch(db, port, host))


def main() -> None:
    cli(prog_name="ragassay")
