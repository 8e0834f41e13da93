"""`ragassay db copy SOURCE DEST`: runs, labels and plans from one store into another
(a SQLite file into a team's PostgreSQL server, or back); `store.copy` does the work."""

from __future__ import annotations

import click

from ragassay.cli.app import cli
from ragassay.cli.common import StoreLocation, StoreLocationType, friendly, open_store, say
from ragassay.terminal import counted


@cli.group("db")
def db_group() -> None:
    """The run store itself: copy its runs, labels and plans into another store."""


@db_group.command("copy")
@click.argument("source", type=StoreLocationType())
@click.argument("dest", type=StoreLocationType())
@click.option("--run", "runs", multiple=True, metavar="RUN",
              help="Copy only this run (an id or a unique prefix; repeatable). "
                   "Default: every run.")
@click.option("--cache/--no-cache", default=False, show_default=True,
              help="Also copy the judge-call cache (replies to reuse).")
@friendly
def copy_cmd(source: StoreLocation, dest: StoreLocation, runs: tuple[str, ...],
             cache: bool) -> None:
    """Copy SOURCE's runs (with their samples, results, calls and annotation plans) and
    human labels into DEST. Each is a SQLite file or a PostgreSQL URL
    (postgresql://user@host:5432/name; the password from the URL, PGPASSWORD or
    ~/.pgpass, never shown). A run DEST already has is left alone, so an interrupted copy
    is run again; labels DEST already has are kept."""
    from ragassay.store.copy import copy_store

    if str(source) == str(dest):
        raise click.UsageError("SOURCE and DEST are the same store")
    src = open_store(source, readonly=True)
    dst = open_store(dest)
    try:
        counts = copy_store(src, dst, runs=runs or None, cache=cache,
                            progress=lambda run_id: say(f"copied run {run_id}", err=True))
    finally:
        src.close()
        dst.close()
    rows = ", ".join(f"{table} {n}" for table, n in counts.rows.items())
    skipped = (f"; {len(counts.skipped_runs)} already in {dest}: "
               f"{', '.join(counts.skipped_runs)}" if counts.skipped_runs else "")
    say(f"{counted(counts.runs, 'run')} copied from {source} to {dest} (rows offered: "
        f"{rows or 'none'}){skipped}")
