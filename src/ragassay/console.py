"""What the command line and the Python API draw on a terminal: a rich console whose
every string passes the terminal sanitiser, and the progress bar of a run (ETA, judge
calls, tokens, cache hits). Below both, so that the API draws its bar without
importing the command line."""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable
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
from rich.text import Text

from ragassay.terminal import clean
from ragassay.types import Usage


class CleanConsole(Console):
    """A rich console whose every rendered string goes through the terminal sanitiser,
    and whose tables fold a cell too wide for its column instead of cutting it.

    Table cells, titles and printed strings all pass through `render_str`, so a
    strategy name holding `\\x1b]0;owned\\x07` is shown as text and never reaches the
    terminal as an escape sequence. Rich markup in user text is escaped by callers.
    A table on a narrow console (COLUMNS=80) wraps its cells at spaces and folds a
    longer word onto the next line, so that no figure is shown cut (`0.05…`). On a
    console that does not wrap lines of text (`soft_wrap`: a pipe, `console`), a table
    keeps the layout it has on a terminal as wide: its title centred, its caption wrapped.
    """

    def render_str(self, text: str, **kwargs: Any) -> Any:
        return super().render_str(clean(text), **kwargs)

    def render(self, renderable: RenderableType,
               options: ConsoleOptions | None = None) -> Iterable[Segment]:
        if isinstance(renderable, Table):
            for column in renderable.columns:
                if column.overflow == "ellipsis":  # rich's default: cuts a narrowed cell
                    column.overflow = "fold"
            if options is not None and options.overflow == "ignore":  # soft_wrap's
                options = options.update(overflow="fold", no_wrap=False)
        return super().render(renderable, options)


FIGURE = re.compile(r"(?:-?\d+(?:\.\d+)? )?\[[^\]\n]*\]")
"""A figure with its interval, `7.46 [7.07, 7.83]`, or the interval alone: what a
figure column's cell must not split (`unsplit_width`)."""


def _unsplit(c: Console, table: Table, whole: Collection[int]) -> list[int]:
    """Each column's width for no cell to split a word (`unsplit_width`), no padding."""
    from rich.measure import Measurement

    options = c.options.update_width(10_000)
    widths = []
    for i, column in enumerate(table.columns):
        widest = 0
        for j, cell in enumerate([column.header, *column.cells]):
            shown = c.render_str(cell) if isinstance(cell, str) else cell
            low, high = Measurement.get(c, options, shown)
            if j and i in whole and isinstance(shown, Text):
                low = max([low, *(len(f) for f in FIGURE.findall(shown.plain))])
            widest = max(widest, high if column.no_wrap else low)
        widths.append(widest)
    return widths


def unsplit_width(c: Console, table: Table, whole: Collection[int] = ()) -> int:
    """The width `table` needs for no cell to split a word (in a `no_wrap` column, a
    line; in a column of `whole`, by index, a `FIGURE` either, while its header and its
    other words may wrap: `0.56 [0.47, 0.64]` stays on a line, `14 abstained; 2 scored:
    1.97` may not): each column as wide as that, with its padding (less the outer padding
    where the table has no `pad_edge`), and its box's rules between columns and at its
    edges (none without a box, none at the edges without `show_edge`). A table wider than
    its console has its cells folded (`CleanConsole.render`), a number too: a command
    whose table may not fit prints it another way (`compare`: two tables; `fitted`)."""
    _, right, _, left = table.padding
    n = len(table.columns)
    rules = (n - 1 + (2 if table.show_edge else 0)) if table.box else 0
    return (sum(_unsplit(c, table, whole)) + n * (left + right) + rules
            - (0 if table.pad_edge else left + right))


def room(c: Console, table: Table, column: int) -> int:
    """The width left to `column` (by index) of `table` on the console where every other
    column is as wide as no word of it splits (`unsplit_width`'s), with their padding and
    borders (so a little less than rich gives it): what a cell broken at its phrases
    (`phrase_lines`) is laid out to."""
    return c.width - unsplit_width(c, table) + _unsplit(c, table, ())[column]


ASIDE = re.compile(r" (?=\([^)]* [^)]*\)(?:$|[;,:] ))")
"""Before an aside in parentheses that holds words and ends a phrase (` (its reading,
not people's)`), never before a figure's `(93%)`."""


def phrases(text: str) -> list[str]:
    """`text`'s phrases, in order: split after `; `, `, ` and `: ` outside parentheses,
    and before an aside (`ASIDE`); joined by spaces they are `text`."""
    out, start, depth = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if (not depth and ch in ";,:" and text[i + 1:i + 2] == " ") or (
                ch == " " and not depth and ASIDE.match(text, i)):
            end = i + 1 if ch != " " else i
            out.append(text[start:end])
            start = end + 1
    return [p for p in [*out, text[start:]] if p]


def phrase_lines(text: str, width: int) -> str:
    """`text` on lines no wider than `width`, broken only between its phrases (`phrases`;
    a phrase wider alone has a line of its own): a table cell that would wrap in the
    middle of a phrase (trial 81: `--by kind`'s decline row, `5 of` over `them where
    ...` at 100 columns) breaks where its words allow a pause instead."""
    if len(text) <= width:
        return text
    return "\n".join(packed([[p] for p in phrases(text)], width, indent=""))


def fitted(c: Console, layouts: Iterable[tuple[Table, Collection[int]]]) -> Table:
    """The first of `layouts` (a table, and its figure columns: `unsplit_width`'s
    `whole`) that fits the console with no figure split across lines, else the last:
    a table read at 100 columns (a pipe, a narrow terminal) whose figures would wrap
    (trial 65: `7.46 [7.07,` over `7.83]`) is printed another way (its intervals under
    their figures, or metrics as rows). Where the table that fits would still wrap some
    cell, its figure columns are as wide as their widest figure: rich narrows the widest
    columns first, which are the figures' (a row's `(n=130)` after one)."""
    from rich.measure import Measurement

    fit, tried = _first_fit(c, layouts)
    if fit is None:
        assert tried, "no layout"
        return tried[-1]
    table, whole = fit
    if Measurement.get(c, c.options.update_width(10_000), table).maximum > c.width:
        _pin(c, table, whole)
    return table


def _first_fit(c: Console, layouts: Iterable[tuple[Table, Collection[int]]]
               ) -> tuple[tuple[Table, Collection[int]] | None, list[Table]]:
    """The first of `layouts` whose figures all fit the console whole (`unsplit_width`),
    or None, and the tables tried up to it (`fitted`, `print_whole`)."""
    tried: list[Table] = []
    for table, whole in layouts:
        tried.append(table)
        if unsplit_width(c, table, whole) <= c.width:
            return (table, whole), tried
    return None, tried


def _pin(c: Console, table: Table, whole: Collection[int], held: bool = False) -> None:
    """`table`'s figure columns (`whole`) as wide as their widest figure or word, so that
    rich, narrowing the widest columns first, splits none; with `held`, their plain cells
    broken between words to that width beforehand (`_held`)."""
    for i, width in enumerate(_unsplit(c, table, whole)):
        if i in whole:
            table.columns[i].width = width
            if held:
                table.columns[i]._cells = [_held(c, x, width) for x in table.columns[i]._cells]


NUMBER = re.compile(r"[(\[]?[-+$]?\d|(?:[<>]=?|=|!=|≤|≥)$")
"""A word that is a number, or opens with one (`0.333`, `18`, `(100%)`, `$0.02`), or a
comparison (`<=`, `>`, `=`; session 25: `(target` over `<= 0.1)`): what `figure_lines`
with `numbers` holds to the word before it, so `(target <= 0.1)` stays whole."""


def figure_lines(text: str, width: int, indent: str = "    ",
                 numbers: bool = False) -> list[str]:
    """`text` on lines no wider than `width` (where a word or figure alone is), broken
    between words but never inside a figure with its interval (`FIGURE`): a table row
    said as lines (`print_whole`) keeps `0.600 [0.470, 0.730]` on one line. With
    `numbers`, a number never starts a line either: it stays with the word before it
    (`rate 0.333`, `of 18 (100%)`), so a line said in words (a warning, `next`) reads
    on at a break the way it would unbroken."""
    held = FIGURE.sub(lambda m: m.group().replace(" ", "\0"), text)
    tokens = [t.replace("\0", " ") for t in held.split()]
    if numbers:
        tokens = _held_numbers(tokens)
    return packed([tokens], width, indent) if tokens else []


def _held_numbers(tokens: list[str]) -> list[str]:
    """`tokens` with each that opens with a number or is a comparison (`NUMBER`) joined
    to the one before."""
    out: list[str] = []
    for t in tokens:
        if out and NUMBER.match(t):
            out[-1] = f"{out[-1]} {t}"
        else:
            out.append(t)
    return out


def figure_wrapped(c: Console, text: str, numbers: bool = False) -> str:
    """`text` broken to `c`'s line width between words, never inside a figure
    (`figure_lines`; with `numbers`, never before a number either), its leading spaces
    kept and its later lines indented two more; as it is where `c` does not wrap (a
    pipe): a line said on a narrow terminal that would otherwise wrap it anywhere, `1.0`
    over `00`."""
    lead = text[:len(text) - len(text.lstrip())]
    width = line_width(c)
    if len(text) <= width:
        return text
    return "\n".join(lead + x for x in figure_lines(text.strip(), width - len(lead), "  ",
                                                    numbers))


def print_said(c: Console, text: str, head: str = "", dim: bool = False) -> None:
    """Print a line of words (`text`, plain: escaped here) after `head` in yellow
    (`warning`, `next`, `note`), or all of it dim, broken to `c`'s width only between
    words: never inside a figure with its interval, a metric's name or any other word,
    and never before a number (`figure_wrapped` with `numbers`; new users at 60
    columns: rich broke `[0.071,` over `0.485]`). A pipe's line stays whole."""
    from rich.markup import escape

    said = figure_wrapped(c, f"{head} {text}" if head else text, numbers=True)
    body = escape(said[len(head):])
    if head:
        body = f"[yellow]{escape(head)}[/yellow]{body}"
    c.print(f"[dim]{body}[/dim]" if dim else body, highlight=False)


def records(c: Console, table: Table, keys: int = 1) -> list[str]:
    """`table` as lines, a row a block: its first `keys` cells as its head, then a line
    per other column with a value, `header: cell`, each no wider than the console
    (`figure_lines`): what a table too wide for its figures to stay whole becomes."""
    width = line_width(c)
    def plain(x: Any) -> str:
        return (c.render_str(x).plain if isinstance(x, str) else str(x)).replace("\n", " ")

    cells = [[plain(x) for x in col._cells] for col in table.columns]
    heads = [plain(col.header) for col in table.columns]
    out: list[str] = []
    for i in range(table.row_count):
        out += figure_lines(" ".join(col[i] for col in cells[:keys]), width, "  ")
        for head, col in zip(heads[keys:], cells[keys:], strict=True):
            if col[i].strip() not in ("", "-"):
                out += [f"  {x}" for x in figure_lines(f"{head}: {col[i]}", width - 2)]
    return out


def _held(c: Console, cell: Any, width: int) -> Any:
    """A plain text cell wider than `width` broken onto lines between its words, never
    inside a figure (`figure_lines`): rich would wrap `1.00 [1.00, 1.00]` at its comma."""
    if not isinstance(cell, str) or len(cell) <= width or c.render_str(cell).plain != cell:
        return cell
    return "\n".join(figure_lines(cell, width, indent=""))


def print_whole(c: Console, layouts: Iterable[tuple[Table, Collection[int]]],
                keys: int = 1) -> Table | None:
    """Print the first of `layouts` (a table and its figure columns' indices) whose
    figures all fit the console whole (`unsplit_width`), its figure columns no narrower
    than their widest figure; else the first as lines (`records`, `keys` cells its
    head: nothing left out). Returns the table printed, or None for lines (trial 84: at
    80 columns and in a pipe the calibrate and meta-eval tables cut or split figures)."""
    from rich.markup import escape

    fit, tried = _first_fit(c, layouts)
    if fit is not None:
        table, whole = fit
        _pin(c, table, whole, held=True)
        c.print(table)
        return table
    assert tried, "no layout"
    for line in records(c, tried[0], keys):
        c.print(escape(line), highlight=False, soft_wrap=True)
    return None


def packed(lists: Iterable[Iterable[str]], width: int, indent: str = "  ") -> list[str]:
    """Lines no wider than `width` (where no item alone is) holding `lists`' items in
    order, each list's items on one line where they fit (a new line before a list that
    fits a line of its own but not the rest of this one), else broken between items; no
    item split (trial 74: the eval summary's scale line wrapped in the middle of a
    metric's name at 100 columns); lines after the first indented."""
    lines: list[str] = []
    line = ""
    for items in map(list, lists):
        whole = " ".join(items)
        if line and len(line) + 1 + len(whole) > width >= len(indent + whole):
            lines.append(line)
            line = indent + whole
            continue
        for item in items:
            if line.strip() and len(line) + 1 + len(item) > width:
                lines.append(line)
                line = indent
            line = f"{line} {item}" if line.strip() else f"{line}{item}"
    return [*lines, line] if line else lines


PIPED_WIDTH = 100
"""The width a table is laid out in when output is not a terminal and COLUMNS is unset
(a file, a pipe to `head`): a table wider than this wraps its cells, never cuts a number.
The lines of text around it are not wrapped (`console`)."""

UNWRAPPED = 10_000
"""What `line_width` gives for a console that does not wrap its lines of text."""


def console(stderr: bool = False, piped_width: int = PIPED_WIDTH) -> Any:
    """A clean console as wide as COLUMNS says (rich reads it, for a terminal or a pipe),
    else a terminal's width; else (a pipe without COLUMNS) one whose tables are laid out
    in `piped_width` columns (a table that needs more, the bench's leaderboard, asks for
    it) and whose printed lines of text are not wrapped (rich's `soft_wrap`; trial 76: the
    headline's sentence broke mid-sentence at 100 columns, awkward to grep or copy)."""
    c = CleanConsole(stderr=stderr)
    if c.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return c
    return CleanConsole(stderr=stderr, width=piped_width, soft_wrap=True)


def line_width(c: Console) -> int:
    """How wide a line of text `c` prints may be, for text broken by hand (`packed`): its
    width, or `UNWRAPPED` where it does not wrap its lines (a pipe without COLUMNS)."""
    return UNWRAPPED if c.soft_wrap else c.width


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
