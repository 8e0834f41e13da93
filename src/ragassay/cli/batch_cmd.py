"""Provider batch APIs on the command line: `eval --batch` and its options (added to
`eval` by `batch_options`), the line that shows the batches' counts while a run waits,
and `ragassay batches status|cancel RUN`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from ragassay.cli.app import cli
from ragassay.cli.common import (
    FiniteFloat,
    StoreLocation,
    UsageProblem,
    check_base_url,
    console,
    db_option,
    friendly,
    header_option,
    headers,
    open_store,
    say,
)

if TYPE_CHECKING:
    from ragassay.runner import BatchOptions, RunOutcome

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class BatchFlags:
    """The batch options as given on the command line (None: not given)."""

    batch: bool = False
    fallback: str | None = None
    max_requests: int | None = None
    poll_s: float | None = None
    detach: bool = False

    def given(self) -> list[str]:
        """The --batch-* options given (they need --batch, or a batch run to resume)."""
        return [name for name, value in (
            ("--batch-fallback", self.fallback), ("--batch-max-requests", self.max_requests),
            ("--batch-poll", self.poll_s), ("--detach", self.detach or None))
            if value is not None]


def batch_options(func: F) -> F:
    """Add `--batch` and its options to a command; it receives them as `batch_flags`."""
    options = [
        click.option("--batch", "batch", is_flag=True,
                     help="Send the judge calls through the provider's batch API (OpenAI's: "
                          "half the price, results within 24 h): the calls the run needs "
                          "after the cache are submitted in batches, stored with the run "
                          "before it waits, polled, and scored as they come back; --resume "
                          "RUN picks the same batches up. docs/scale.md."),
        click.option("--batch-fallback", "batch_fallback", type=click.Choice(["none", "direct"]),
                     default=None, help="Calls whose batch failed twice (expired, failed "
                     "lines): direct = send them as direct calls at the direct price; "
                     "none (default) = record them failed."),
        click.option("--batch-max-requests", "batch_max_requests",
                     type=click.IntRange(1), default=None, metavar="N",
                     help="At most N requests per batch (default: the provider's limit, "
                          "50,000 for OpenAI; a batch file is also cut at 200 MB)."),
        click.option("--batch-poll", "batch_poll", type=FiniteFloat(0.01), default=None,
                     metavar="SECONDS", help="The longest wait between two polls of a "
                     "batch's status (default 60; polls start at 2 s and back off)."),
        click.option("--detach", "batch_detach", is_flag=True,
                     help="With --batch: submit the batches, then exit; later "
                          "`ragassay eval DATA --resume RUN` waits for them and scores."),
    ]

    @functools.wraps(func)
    def wrapper(*args: Any, batch: bool, batch_fallback: str | None,
                batch_max_requests: int | None, batch_poll: float | None,
                batch_detach: bool, **kwargs: Any) -> Any:
        flags = BatchFlags(batch, batch_fallback, batch_max_requests, batch_poll, batch_detach)
        return func(*args, batch_flags=flags, **kwargs)

    out: Any = wrapper
    for option in reversed(options):
        out = option(out)
    return out


def batch_request(flags: BatchFlags, resume: str | None) -> BatchOptions | None:
    """The batch options given (None: none): `--batch` with its options; on a resume, the
    options alone, put over those the batch run stored (`runner.plan_run` does)."""
    from ragassay.runner import BatchOptions

    given = flags.given()
    if not flags.batch and not given:
        return None
    if not flags.batch and not resume:
        verb = "needs" if len(given) == 1 else "need"
        raise UsageProblem(f"{', '.join(given)} {verb} --batch")
    now: dict[str, Any] = {"fallback": flags.fallback, "max_requests": flags.max_requests,
                           "poll_s": flags.poll_s}
    return BatchOptions.model_validate({**{k: v for k, v in now.items() if v is not None},
                                        "detach": flags.detach})


class BatchBar:
    """The batches' counts on stderr while a run waits (nothing under --quiet)."""

    def __init__(self, enabled: bool = True) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        from ragassay.console import CleanConsole

        self.enabled = enabled
        self._bar = Progress(TextColumn("[bold]waiting for batches"), BarColumn(),
                             MofNCompleteColumn(), TimeElapsedColumn(),
                             TextColumn("{task.fields[text]}"),
                             console=CleanConsole(stderr=True), disable=not enabled)
        self._task: Any = None

    def submitted(self, requests: int, batches: int) -> None:
        if self.enabled:
            noun = "batch" if batches == 1 else "batches"
            say(f"submitted {requests:,} judge requests in {batches} {noun}", err=True)

    def waiting(self, counts: Any) -> None:
        if self._task is None:
            self._bar.start()
            self._task = self._bar.add_task("batches", total=counts.total, text="")
        self._bar.update(self._task, total=counts.total,
                         completed=counts.completed + counts.failed, text=counts.describe())

    def done(self) -> None:
        if self._task is not None:
            self._bar.stop()
            self._task = None


def detached(outcome: RunOutcome, data: Path, db: StoreLocation) -> None:
    """What `--detach` left: the batches to wait for and how to go on."""
    noun = "batch" if outcome.waiting == 1 else "batches"
    run_id = outcome.run_id
    say(f"run {run_id} waits for {outcome.waiting} {noun} at the provider; see them "
        f"with `ragassay batches status {run_id} --db {db}`, score them with "
        f"`ragassay eval {data} --resume {run_id} --db {db}`", err=True)


@cli.group("batches")
def batches_group() -> None:
    """The provider batches of a run made with `eval --batch`."""


def _manage(run_id: str, db: StoreLocation, action: str, base_url: str | None,
            headers_given: tuple[str, ...]) -> list[Any]:
    from ragassay.runner.batch_engine import BatchSetupError, manage_batches

    store = open_store(db)
    try:
        return manage_batches(store, store.get_run(run_id).id, action,  # type: ignore[arg-type]
                              headers=headers(headers_given), base_url=check_base_url(base_url))
    except BatchSetupError as exc:
        raise UsageProblem(str(exc)) from None


def _table(found: list[Any]) -> None:
    from rich.table import Table

    t = Table()
    for col in ("batch", "provider id", "status", "requests", "completed", "failed", "note"):
        t.add_column(col)
    for b in found:
        note = b.error or ("read" if b.done else "")
        t.add_row(str(b.id), b.batch_id or "-", b.status, f"{b.requests:,}",
                  f"{b.completed:,}", f"{b.failed:,}", note)
    console().print(t)


base_url_option = click.option("--base-url", default=None, metavar="URL",
                               help="The batch endpoint, when not the run's own.")


@batches_group.command("status")
@click.argument("run_id", metavar="RUN")
@db_option
@base_url_option
@header_option
@friendly
def batches_status(run_id: str, db: StoreLocation, base_url: str | None,
                   headers_given: tuple[str, ...]) -> None:
    """The run's batches, as the provider reports them now (as last stored, with a note,
    when the provider cannot be asked)."""
    try:
        found = _manage(run_id, db, "status", base_url, headers_given)
    except UsageProblem as exc:
        store = open_store(db, readonly=True)
        found = store.batches(store.get_run(run_id).id)
        if not found:
            raise
        say(f"note: {exc.message}; the batches as last stored:", err=True)
    _table(found)
    if any(not b.done and b.status in ("completed", "expired", "failed", "cancelled")
           for b in found):
        say(f"ended batches are read and scored by `ragassay eval DATA --resume {run_id}`",
            err=True)


@batches_group.command("cancel")
@click.argument("run_id", metavar="RUN")
@db_option
@base_url_option
@header_option
@friendly
def batches_cancel(run_id: str, db: StoreLocation, base_url: str | None,
                   headers_given: tuple[str, ...]) -> None:
    """Ask the provider to cancel the run's live batches. What they answered before is
    kept; `eval --resume RUN` submits the calls they left unanswered again."""
    found = _manage(run_id, db, "cancel", base_url, headers_given)
    _table(found)
