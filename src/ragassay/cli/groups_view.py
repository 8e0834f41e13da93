"""The console's view of a run by a metadata key (`--by KEY`, `report.groups_for`): per
suite a table of each group's means (a yes/no verdict's rate) with their intervals, as
the per-strategy tables are laid out, then the judge's agreement with people per group
(a link with no figure in any group said in one line under it, not a column)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.console import fitted
from ragassay.report.groups import AGREEMENT_NOTE, FIGURES_NOTE
from ragassay.stats.groups import Groups, group_cell

Columns = list[tuple[str, list[tuple[str, str]], str | None]]
"""Per suite, its metrics as (metric, column title), and a note (`summary.strategy_columns`)."""


def _table(groups: Groups, suite: str, shown: list[tuple[str, str]], sep: str
           ) -> tuple[Table, range]:
    """A suite's table by group, and its figure columns; `sep` between a figure and its
    interval ("\\n" where the table would not fit with both on a line: trial 65)."""
    t = Table(title=f"{suite} suite by {escape(groups.key)} (95% CI)")
    t.add_column(escape(groups.key))
    t.add_column("n", justify="right")
    for m, title in shown:
        t.add_column(f"{title} ({groups.scales[m].short()})", justify="right")
    for g in groups.groups:
        t.add_row(escape(g.value), str(g.n),
                  *[g.metrics[m].value_text(sep=sep) if m in g.metrics else "-"
                    for m, _ in shown])
    return t, range(2, len(shown) + 2)


def print_groups(groups: Groups, columns_of: Columns, console: Console) -> None:
    """Per suite with a value in some group (`columns_of`: the per-strategy tables'
    columns): a row per group (n, then each metric's figure, its column saying mean or
    rate and the range); then, when the samples carry linked labels, the agreement
    table (`Groups.agreement_columns`) and a line per set of links no group gives a
    figure for; the note on pooled groups."""
    key, printed = escape(groups.key), False
    for suite, columns, _ in columns_of:
        shown = [(m, title) for m, title in columns
                 if any(g.metrics[m].mean is not None for g in groups.groups if m in g.metrics)]
        if not shown:
            continue
        console.print(fitted(console, (_table(groups, suite, shown, sep)
                                       for sep in (" ", "\n"))))
        printed = True
    if printed:
        console.print(f"[dim]{escape(FIGURES_NOTE)}[/dim]", highlight=False)
    links, said_once = groups.agreement_columns()
    if links:
        t = Table(title=f"judge vs people by {key}", caption=AGREEMENT_NOTE)
        t.add_column(key)
        for label, metric in links:
            t.add_column(f"{escape(metric)} ~ {escape(label)}")
        for g in groups.groups:
            cells = [group_cell(a) if (a := g.agreement_of(label, metric)) is not None else "-"
                     for label, metric in links]
            t.add_row(escape(g.value), *map(escape, cells))
        console.print(t)
    elif said_once:
        console.print(f"judge vs people by {key}", highlight=False)
    for line in said_once:  # a column with no figure in any group: said once, not per row
        console.print(escape(line), highlight=False)
    if groups.note:
        console.print(f"[yellow]note[/yellow] {escape(groups.note)}", highlight=False)
