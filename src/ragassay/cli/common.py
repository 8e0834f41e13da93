"""Shared CLI plumbing: one-line errors with exit code 2, store opening."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ragassay.store import DEFAULT_DB_PATH, Store, StoreError

F = TypeVar("F", bound=Callable[..., Any])

db_option = click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path),
                         default=Path(DEFAULT_DB_PATH), show_default=True,
                         help="SQLite run store.")

ratings_option = click.option(
    "--ratings", type=click.Choice(["expected", "greedy"]), default="expected",
    show_default=True,
    help="How an LLM judge's ratings and yes/no verdicts are read: the probability-weighted "
         "value from the token probabilities (when the backend gives them), or the stated one.")


class UsageProblem(click.ClickException):
    """A user error: printed as one line, exit code 2."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message}", err=True)


def friendly(func: F) -> F:
    """Turn expected failures into one-line errors (exit 2) instead of tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ragassay.dataset import DatasetError
        from ragassay.judge import JudgeAborted, PromptError
        from ragassay.llm import BackendError
        from ragassay.metrics import UnknownSuiteError

        try:
            return func(*args, **kwargs)
        except (DatasetError, StoreError, PromptError, UnknownSuiteError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UsageProblem(first) from None
        except BackendError as exc:
            raise UsageProblem(exc.reason) from None
        except JudgeAborted as exc:
            raise UsageProblem(f"{exc.reason}; finished judgments are saved: fix the cause "
                               "and continue with --resume RUN") from None
        except KeyboardInterrupt:
            click.echo("interrupted: finished judgments are saved; continue with --resume",
                       err=True)
            sys.exit(130)

    return wrapper  # type: ignore[return-value]


def open_store(db: Path, *, readonly: bool = False) -> Store:
    if readonly and not db.exists():
        raise UsageProblem(f"no run store at {db} (run `ragassay eval` first, or pass --db)")
    return Store(db, readonly=readonly)


def console(stderr: bool = False) -> Any:
    """A rich console that doesn't squeeze tables to 80 columns when output is piped."""
    from rich.console import Console

    c = Console(stderr=stderr)
    return c if c.is_terminal else Console(stderr=stderr, width=150)
