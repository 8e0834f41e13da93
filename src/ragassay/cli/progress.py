"""A rich progress bar with ETA, judge calls, tokens and cache hits."""

from __future__ import annotations

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

from ragassay.cli.common import CleanConsole
from ragassay.types import Usage


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
