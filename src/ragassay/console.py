"""What the command line and the Python API draw on a terminal: a rich console whose
every string passes the terminal sanitiser, and the progress bar of a run (ETA, judge
calls, tokens, cache hits). Below both, so that the API draws its bar without
importing the command line."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.segment import Segment
from rich.table import Table

from ragassay.terminal import clean
from ragassay.types import Usage


class CleanConsole(Console):
    """A rich console whose every rendered string goes through the terminal sanitiser,
    and whose tables fold a cell too wide for its column instead of cutting it.

    Table cells, titles and printed strings all pass through `render_str`, so a
    strategy name holding `\\x1b]0;owned\\x07` is shown as text and never reaches the
    terminal as an escape sequence. Rich markup in user text is escaped by callers.
    A table on a narrow console (COLUMNS=80) wraps its cells at spaces and folds a
    longer word onto the next line, so that no figure is shown cut (`0.05…`).
    """

    def render_str(self, text: str, **kwargs: Any) -> Any:
        return super().render_str(clean(text), **kwargs)

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        if isinstance(renderable, Table):
            for column in renderable.columns:
                if column.overflow == "ellipsis":  # rich's default: cuts a narrowed cell
                    column.overflow = "fold"
        return super().render(renderable, options)


def unsplit_width(c: Console, table: Table) -> int:
    """The width `table` needs for no cell to split a word (in a `no_wrap` column, a
    line): each column as wide as its longest word, with its padding, and a border
    beside each (an upper bound: a table without edges needs a little less). A table
    wider than its console has its cells folded (`CleanConsole.render`), a number too:
    a command whose table may not fit prints it another way (`compare`: two tables)."""
    from rich.measure import Measurement

    options = c.options.update_width(10_000)
    _, right, _, left = table.padding
    total = len(table.columns) + 1
    for column in table.columns:
        widest = 0
        for cell in [column.header, *column.cells]:
            low, high = Measurement.get(c, options, c.render_str(cell)
                                        if isinstance(cell, str) else cell)
            widest = max(widest, high if column.no_wrap else low)
        total += widest + left + right
    return total


PIPED_WIDTH = 100
"""The console's width when output is not a terminal and COLUMNS is unset (a file, a
pipe to `head`): a table wider than this wraps its cells, never cuts a number."""


def console(stderr: bool = False, piped_width: int = PIPED_WIDTH) -> Any:
    """A clean console as wide as COLUMNS says (rich reads it, for a terminal or a pipe),
    else a terminal's width, else `piped_width` (a table that needs more, the bench's
    leaderboard, asks for it)."""
    c = CleanConsole(stderr=stderr)
    if c.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return c
    return CleanConsole(stderr=stderr, width=piped_width)


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
