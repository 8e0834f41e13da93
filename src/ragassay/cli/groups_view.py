"""The console's view of a run by a metadata key (`--by KEY`, `report.groups_for`): the
judge's agreement with people per group (a link with no figure in any group said in one
line under it, not a column), which the full summary prints after its headline; per
suite a table of each group's means (a yes/no verdict's rate) with their intervals, as
the per-strategy tables are laid out, after those; and the short summary's one table of
the headline's figures per group."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.console import fitted, phrase_lines, print_said, room, unsplit_width
from ragassay.report.groups import AGREEMENT_NOTE, FIGURES_NOTE
from ragassay.stats.groups import GroupAgreement, Groups, group_cell, link_name
from ragassay.stats.verdicts import declines_split, marked, right_on

Columns = list[tuple[str, list[tuple[str, str]], str | None]]
"""Per suite, its metrics as (metric, column title), and a note (`summary.strategy_columns`)."""


def _table(groups: Groups, title: str, shown: list[tuple[str, str]], sep: str
           ) -> tuple[Table, range]:
    """A suite's table by group, and the columns no word or figure of may split: the
    group's name and each figure; `sep` between a figure and its interval ("\\n" where
    the table would not fit with both on a line: trial 65)."""
    t = Table(title=title)
    t.add_column(escape(groups.key))
    t.add_column("n", justify="right")
    for m, name in shown:
        t.add_column(f"{name} ({groups.scales[m].short()})", justify="right")
    for g in groups.groups:
        t.add_row(escape(g.value), str(g.n),
                  *[g.metrics[m].value_text(sep=sep) if m in g.metrics else "-"
                    for m, _ in shown])
    return t, range(0, len(shown) + 2)


def _suite_tables(console: Console, groups: Groups, suite: str,
                  shown: list[tuple[str, str]]) -> list[Table]:
    """A suite's table by group: one where it fits the console with no group's name and
    no figure split (its intervals beside their figures, else under them), else its
    metrics over the fewest tables that fit, each with the groups' names and n (trial
    71: `unrelated_neg` over `ation` at 100 columns)."""
    title = f"{suite} suite by {escape(groups.key)} (95% CI)"
    for sep in (" ", "\n"):
        t, whole = _table(groups, title, shown, sep)
        if unsplit_width(console, t, whole) <= console.width:
            return [fitted(console, [(t, whole)])]
    return [fitted(console, [table]) for table in
            _split(console, shown, lambda i, part: _table(
                groups, title if not i else f"{title}, continued", part, "\n"))]


_C = TypeVar("_C")


def _split(console: Console, columns: list[_C],
           build: Callable[[int, list[_C]], tuple[Table, range]]
           ) -> list[tuple[Table, range]]:
    """`columns` over the fewest tables (`build(i, part)`) whose words and figures fit
    the console whole, in their order; a column too wide alone gets a table of its own."""
    parts: list[list[_C]] = [[]]
    for column in columns:
        if parts[-1] and unsplit_width(console, *build(0, [*parts[-1], column])) > console.width:
            parts.append([])
        parts[-1].append(column)
    return [build(i, part) for i, part in enumerate(parts)]


def _agreement_table(groups: Groups, title: str, links: list[tuple[str, str]]
                     ) -> tuple[Table, range]:
    """The judge's agreement with people per group, a column per link; the groups' names
    not split (`fitted`'s whole columns)."""
    t = Table(title=title, caption=AGREEMENT_NOTE, caption_justify="left")
    t.add_column(escape(groups.key))
    for label, metric in links:
        t.add_column(escape(link_name(metric, label)))
    for g in groups.groups:
        cells = [group_cell(a) if (a := g.agreement_of(label, metric)) is not None else "-"
                 for label, metric in links]
        t.add_row(escape(g.value), *map(escape, cells))
    return t, range(0, 1)


def _short_links(groups: Groups) -> list[tuple[str, str]]:
    """The links the short table shows: those giving a yes/no verdict in some group (the
    headline's `right on`), else the others some group gives a figure for."""
    kept, _ = groups.agreement_columns()
    verdicts = [(label, metric) for label, metric in kept
                if any((a := g.agreement_of(label, metric)) is not None
                       and a.verdicts is not None for g in groups.groups)]
    return verdicts or kept


def _short_table(groups: Groups, title: str, links: list[tuple[str, str]],
                 shown: list[tuple[str, str]], console: Console | None = None
                 ) -> tuple[Table, range]:
    """A row per group: its n, per link the judge's agreement said short (a verdict's
    `right on`, with its abstentions counted where some abstained: `verdicts.right_on`;
    else its `group_cell`), else per metric of `shown` its figure. On `console`, an
    agreement cell too wide for the room its column has is broken between its phrases
    (`phrase_lines`, trial 81: the decline row wrapped mid-phrase), never inside one."""
    rows = [[_short_cell(a) if (a := g.agreement_of(*link)) is not None
             else "-" for link in links]
            + [g.metrics[m].value_text() if m in g.metrics else "-" for m, _ in shown]
            for g in groups.groups]
    t = _short_laid(groups, title, links, shown, rows)
    if console is not None and links:
        widths = [room(console, t, i + 2) for i in range(len(links))]
        rows = [[phrase_lines(c, w) for c, w in zip(r[:len(links)], widths, strict=True)]
                + r[len(links):] for r in rows]
        t = _short_laid(groups, title, links, shown, rows)
    return t, range(0, 2)


def _short_cell(a: GroupAgreement) -> str:
    """A group's agreement said short: a verdict's `right on`, then how its wrong ones
    split (session 25: `runs show --by` said it, the short table did not): `right on 9
    of 10 (90%); misses 1 of 6, flags 0 of 4`, a part with nothing to count left out
    (`SPLIT_NOTE` says which is which); else its `group_cell`."""
    lead, v = right_on(a), a.verdicts
    if not lead or v is None or v.same_as or a.positives is None:
        return lead or group_cell(a)
    if plain := declines_split(a, a.label):  # in plain words (trial 89)
        lead = f"{right_on(a, abstentions=False)}: {plain}"
    problems = a.positives if v.problem else a.n - a.positives
    # (a part with nothing to count is left out: a kind people marked all one way has
    # only misses, or only flags, to say)
    split = [f"{word} {k} of {n}" for word, k, n in (("misses", v.missed, problems),
                                                     ("flags", v.flagged, a.n - problems))
             if n]
    return f"{lead}; {', '.join(split)}" if split else lead


def split_note(groups: Groups, links: list[tuple[str, str]]) -> str | None:
    """What the short table's `misses` and `flags` are, from each label's problem side
    (`verdicts.marked`), short enough for one line at 80 columns: `misses: people marked
    hallucination, the judge did not; flags: the reverse`; None where no cell says
    them."""
    said: dict[str, str] = {}
    for label, metric in links:
        for g in groups.groups:
            a = g.agreement_of(label, metric)
            if a is not None and right_on(a) and a.verdicts is not None \
                    and not a.verdicts.same_as:
                said.setdefault(label, marked(label, a.verdicts.problem))
    if not said:
        return None
    return "; ".join(f"misses: people marked {p}, the judge did not; flags: the reverse"
                     + (f" ({label} labels)" if len(said) > 1 else "")
                     for label, p in said.items())


def _short_laid(groups: Groups, title: str, links: list[tuple[str, str]],
                shown: list[tuple[str, str]], rows: list[list[str]]) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    t.add_column(escape(groups.key))
    t.add_column("n", justify="right")
    for label, metric in links:
        t.add_column(escape(link_name(metric, label)))
    for m, name in shown:
        t.add_column(f"{escape(name)} ({groups.scales[m].short()})", justify="right")
    for g, cells in zip(groups.groups, rows, strict=True):
        t.add_row(escape(g.value), str(g.n), *map(escape, cells))
    return t


def print_groups_short(groups: Groups, headline: list[tuple[str, str]], console: Console,
                       run_id: str) -> None:
    """`eval --by KEY`'s short summary (trial 74: it printed nothing of the groups): a
    row per group, per yes/no verdict linked to a label the judge's agreement with
    people's labels as the headline says it (`right on 14 of 16`, abstentions counted
    too), else per other link its figure; a run without labels shows the `headline`
    metrics' figures, as (metric, title). `eval`'s last line names the command printing
    the full tables (`groups_pointer`)."""
    links = _short_links(groups)
    shown = [] if links else [(m, t) for m, t in headline if any(
        m in g.metrics and g.metrics[m].mean is not None for g in groups.groups)]
    key = escape(groups.key)
    if links or shown:
        title = f"judge vs people by {key}" if links else f"by {key}"
        for laid in _split(console, links or shown, lambda i, part: _short_table(
                groups, title if not i else f"{title}, continued",
                part if links else [], [] if links else part, console)):
            console.print(fitted(console, [laid]))
    if links and (note := split_note(groups, links)) is not None:
        print_said(console, note, dim=True)


def groups_pointer(groups: Groups) -> str:
    """What `runs show RUN --by KEY` adds, for `eval`'s last line (trial 87: a line of its
    own under the table repeated that line's command): `by kind, every figure and
    agreement`."""
    said = " and agreement" if _short_links(groups) else ""
    return f"by {groups.key}, every figure{said}"


def print_group_figures(groups: Groups, columns_of: Columns, console: Console) -> None:
    """Per suite with a value in some group (`columns_of`: the per-strategy tables'
    columns): a row per group (n, then each metric's figure, its column saying mean or
    rate and the range); the note on pooled groups."""
    printed = False
    for suite, columns, _ in columns_of:
        shown = [(m, title) for m, title in columns
                 if any(g.metrics[m].mean is not None for g in groups.groups if m in g.metrics)]
        if not shown:
            continue
        for table in _suite_tables(console, groups, suite, shown):
            console.print(table)
        printed = True
    if printed:
        console.print(f"[dim]{escape(FIGURES_NOTE)}[/dim]", highlight=False)
    if groups.note:
        console.print(f"[yellow]note[/yellow] {escape(groups.note)}", highlight=False)
    if groups.one_label():  # what `print_group_agreement` said in one line, in full
        for line in groups.agreement_columns(twins=False)[1]:
            print_said(console, line, dim=True)


def print_group_agreement(groups: Groups, console: Console, twins: bool = True) -> None:
    """When the samples carry linked labels, the judge's agreement with people per group
    (`Groups.agreement_columns`), and a line per set of links no group gives a figure
    for: what `--by KEY` is asked for, so the full summary prints it first, before the
    headline (trial 74: it came ~190 lines down, after every per-metric table; trial 88:
    after the headline's block it still came late). `twins=False` (the summary's, whose
    headline says them): no line for a link that repeats another's, and where every group
    holds one label (`Groups.one_label`) one short line for those links, their lines in
    full after the per-group tables (`print_group_figures`)."""
    links, said_once = groups.agreement_columns(twins)
    if not twins and groups.one_label():
        said_once = [groups.one_label_line(bool(links))]
    title = f"judge vs people by {escape(groups.key)}"
    if links:
        for laid in _split(console, links, lambda i, part: _agreement_table(
                groups, title if not i else f"{title}, continued", part)):
            console.print(fitted(console, [laid]))
    elif said_once:
        console.print(title, highlight=False)
    for line in said_once:  # a column with no figure in any group: said once, not per row
        print_said(console, line)
