"""What the command line and the Python API draw on a terminal: a rich console whose
every string passes the terminal sanitiser, and the progress bar of a run (ETA, judge
calls, tokens, cache hits). Below both, so that the API draws its bar without
importing the command line."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ragassay.terminal import clean
from ragassay.types import Usage


class CleanConsole(Console):
    """A rich console whose every rendered string goes through the terminal sanitiser.

    Table cells, titles and printed strings all pass through `render_str`, so a
    strategy name holding `\\x1b]0;owned\\x07` is shown as text and never reaches the
    terminal as an escape sequence. Rich markup in user text is escaped by callers.
    """

    def render_str(self, text: str, **kwargs: Any) -> Any:
        return super().render_str(clean(text), **kwargs)


def console(stderr: bool = False) -> Any:
    """A clean console that doesn't squeeze tables to 80 columns when output is piped."""
    c = CleanConsole(stderr=stderr)
    return c if c.is_terminal else CleanConsole(stderr=stderr, width=150)


class RichProgress:
    """Implements ragassay.runner.Progress on stderr."""

    def __init__(self, description: str = "evaluating", *, console: Console | None = None,
                 enabled: bool = True) -> None:
        self.enabled = enabled
        self._bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[usage]}"),
            console=console or CleanConsole(stderr=True),
            disable=not enabled,
            transient=False,
        )
        self._description = description
        self._task: TaskID | None = None

    def start(self, total: int | None) -> None:
        for task in list(self._bar.task_ids):  # started again (a batch run's next pass)
            self._bar.remove_task(task)
        self._bar.start()
        self._task = self._bar.add_task(self._description, total=total, usage="")

    def advance(self, samples: int, usage: Usage) -> None:
        if self._task is None:
            return
        text = (f"calls {usage.calls}  tokens {usage.input_tokens + usage.output_tokens}"
                f"  cache hits {usage.cache_hits}")
        self._bar.update(self._task, advance=samples, usage=text)

    def finish(self) -> None:
        self._bar.stop()
