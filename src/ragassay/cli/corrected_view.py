"""The console's view of corrected estimates: the headline (people's number first, for
every surface's opening: `report.headline`), one table of every estimate, and one line
per missing one."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ragassay.cli.common import console as make_console
from ragassay.cli.common import say
from ragassay.cli.fmt import ci_text, num
from ragassay.cli.ragas_note import ragas_lines
from ragassay.report import Report
from ragassay.report.disagreements import disagree_lines
from ragassay.report.headline import Headline, HeadlineRow
from ragassay.stats.baseline import SaidOnce
from ragassay.stats.corrected import Corrected, CorrectedEstimate
from ragassay.stats.corrected_text import EXACT_TITLE, exact_text, people_column, split_exact
from ragassay.stats.groups import link_name

JUDGE_COLUMN = "judge's own (its scale)"
# the headline's: an inverted 0-1 rate's cell is turned to the label's direction, each cell
# names its scale ("rate 0.608 [...] on 0-1", "mean 7.18 on 1-10"; trial 68)
HEADLINE_JUDGE_COLUMN = "judge's own"
AGREEMENT_COLUMN = "judge's agreement with people"
AT_LINE = " at its line"
LIKE_PEOPLE_NOTE = ("judge's own beside people's label: the judge's rate of that label, on "
                    "the same 0-1 scale; a score's (at its line) is the share it reads as that "
                    "label, its mean under the table")
"""Said under the narrow headline where a judge cell names people's label (trial 90:
people's rate beside a 1-10 mean marked `(inverted)`): `HeadlineRow.like_people`."""
WIDE_HEADLINE = 160
"""The console width from which the headline table holds every word of its rows; a
narrower one (a pipe's 100 columns, `console.PIPED_WIDTH`) gets the figures in the table
and the words under it (trial 65: at 100 columns a cell wrapped over 15 lines)."""
WHY = "what people would say, from human labels on a random sample plus every judge score"


def print_headline(report: Report, console: Console | None = None) -> None:
    """The run's opening: per linked metric people's corrected figure with its interval
    (when the run has enough labels) and the judge's agreement measured on this run's
    labels, else the judge's own mean with its held-apart agreement; a line per score
    whose values are another row's (`Report.note_lines`); then the one-line
    prompt to label samples, and the command listing the samples a verdict misses and
    flags (`disagree_lines`). Nothing when no metric of the run is linked to a label."""
    console = console or make_console()
    head = report.headline
    if not head.rows:
        return
    once = SaidOnce()  # what a reversed baseline is, in full once (trials 84, 89)
    if console.width < WIDE_HEADLINE:
        _print_narrow_headline(head, console, once)
    else:
        t = _headline_table(head)
        for c in ("metric", head.people_column, AGREEMENT_COLUMN, HEADLINE_JUDGE_COLUMN):
            t.add_column(c, justify="right" if c == HEADLINE_JUDGE_COLUMN else "left")
        for r in head.rows:
            t.add_row(_metric(r), _people(r, r.people_text),
                      escape(once(r.agreement_text)), escape(r.judge_text))
        console.print(t)
        for r in head.rows:  # its cell is the JSON's, which names no run
            if r.unchecked:
                console.print(escape(f"{r.metric}: {r.unchecked}"), highlight=False)
    notes = report.note_lines()  # two rows that are one reading; what ragas is (trial 84)
    for line in notes + ragas_lines(notes):
        console.print(f"[yellow]note[/yellow] {escape(once(line))}", highlight=False)
    if head.prompt:
        console.print(f"[yellow]next[/yellow] {escape(head.prompt)}", highlight=False)
    verdicts, _ = disagree_lines(report)  # the samples behind the misses and flags
    if verdicts:
        console.print(f"[yellow]see[/yellow] {escape(verdicts)}", highlight=False)


def _headline_table(head: Headline) -> Table:
    """The headline's table, with under it what each figure shown means, a figure a line
    (`Headline.note_lines`; trial 79: the caption was one long paragraph)."""
    from ragassay.report import HEADLINE_TITLE

    return Table(title=f"{HEADLINE_TITLE} (95% CI)", caption="\n".join(head.note_lines()),
                 caption_justify="left")


def _metric(row: HeadlineRow) -> str:
    """The metric's cell: its name, and under it the row it repeats (trial 71: five rows
    of one label read as five measurements): `trace.adherence (inverted)` over `(same
    verdicts as judge.hallucination)`."""
    mark = row.mark()
    return escape(row.metric_text(mark=False) + (f"\n({mark})" if mark else ""))


def _people(row: HeadlineRow, text: str) -> str:
    """People's cell: dim without an estimate (why there is none)."""
    return escape(text) if row.estimate is not None else f"[dim]{escape(text)}[/dim]"


def _print_narrow_headline(head: Headline, console: Console, once: SaidOnce) -> None:
    """The headline on a console narrower than `WIDE_HEADLINE`: the figures in the table,
    each on its line (people's under its label, the judge's own over the samples it rests
    on), and each row's words under it: a metric's name, then a figure a line (trial 78:
    a paragraph a metric took several reads), the judge's agreement with people (each
    ranking figure with what it means: `HeadlineRow.agreement_lines`) and, beside
    people's rate, its like-for-like comparison."""
    t = _headline_table(head)
    if any(r.like_people() for r in head.rows):
        t.caption = f"{t.caption}\n{LIKE_PEOPLE_NOTE}"
    for c in ("metric", head.people_column, HEADLINE_JUDGE_COLUMN):
        t.add_column(c, justify="right" if c == HEADLINE_JUDGE_COLUMN else "left")
    for r in head.rows:
        people = r.people_text
        if r.estimate is not None:  # "hallucinated" over "0.556 [0.474, 0.637]"
            people = people.replace(f"{r.estimate.label} ", f"{r.estimate.label}\n", 1)
        _, _, figure, _, on = r.judge_parts()
        figure = r.like_people() or figure  # (one line: a row a figure and its n)
        t.add_row(_metric(r), _people(r, people),
                  escape(f"{figure}\n({on})" if on else figure or "-"))
    console.print(t)
    for r in head.rows:
        lead, offset, figure, note, _ = r.judge_parts()
        own = figure if r.like_people().endswith(AT_LINE) else ""  # its mean, off the table
        console.print(escape(f"{link_name(r.metric_text(mark=False), r.label)}:"),
                      highlight=False)
        for line in [*r.agreement_lines(),
                     *(f"judge's own: {x}" for x in (lead, offset, own, note) if x)]:
            console.print(escape(f"  {once(line)}"), highlight=False)


def _print_exact(exact: list[CorrectedEstimate], console: Console) -> None:
    """People's figure of each label whose every sample is labelled, once per label (and
    strategy), under a title that says nothing is corrected (`exact_text`)."""
    t = Table(title=EXACT_TITLE, min_width=len(EXACT_TITLE) + 2)  # the title on one line
    per = any(e.strategy is not None for e in exact)
    for c in ("label", *(("strategy",) if per else ()), "people [95% CI]", "labels"):
        t.add_column(c, justify="left" if c in ("label", "strategy") else "right")
    for e in exact:
        t.add_row(escape(e.label), *((escape(e.strategy or "all"),) if per else ()),
                  f"{num(e.estimate)} {ci_text((e.ci_low, e.ci_high))}",
                  f"{e.n_labelled}/{e.n_total}")
    console.print(t)
    console.print(escape(exact_text(exact)), highlight=False)


def _gain(est: CorrectedEstimate) -> str:
    if est.gain is None:
        return "-"
    return f"x{est.gain:.2f} (= {est.effective_labels:.0f} labels)"


def print_corrected(corrected: Corrected, *, strategies: bool = True,
                    console: Console | None = None, run_id: str | None = None) -> None:
    """A table of the corrected estimates (whole run first, then per strategy when asked),
    the labels of every sample labelled apart, once per label (`split_exact`: nothing is
    corrected there), the strategy differences, and a line for each link without an
    estimate (with `run_id`, too few labels name the command that adds some). Its notes
    are printed through the console, wrapped at its width as the tables are."""
    console = console or make_console()

    def note(text: str) -> None:
        console.print(escape(text), highlight=False)

    shown = [e for e in corrected.estimates if strategies or e.strategy is None]
    exact, fixed = split_exact(shown)
    if fixed:
        t = Table(title=f"corrected estimates ({WHY})")
        for c in ("label", "via metric", "strategy", f"{people_column(fixed)} [95% CI]",
                  "labels only [95% CI]", JUDGE_COLUMN, "labels", "gain"):
            t.add_column(c, justify="left" if c in ("label", "via metric", "strategy")
                         else "right")
        for e in fixed:
            t.add_row(escape(e.label), escape(e.metric) + (" (inverted)" if e.inverted else ""),
                      escape(e.strategy or "all"),
                      f"{num(e.estimate)} {ci_text((e.ci_low, e.ci_high))}",
                      f"{num(e.labels_only.estimate)} "
                      f"{ci_text((e.labels_only.ci_low, e.labels_only.ci_high))}",
                      e.judge_text(), f"{e.n_labelled}/{e.n_total}", _gain(e))
        console.print(t)
    if exact:
        _print_exact(exact, console)
    for e in [*fixed, *exact]:
        if e.note:
            note(f"{e.subject()}{f' ({e.strategy})' if e.strategy else ''}: {e.note}")
        if e.strategy is None and (line := e.narrowing()) is not None:
            note(f"{e.subject()}: {line}")
    if (rule := corrected.rule_text()) is not None:
        note(rule)
    for d in corrected.differences if strategies else ():
        note(f"{d.label} via {d.metric}: {d.a} - {d.b} = {d.estimate:+.3f} "
             f"{ci_text((d.ci_low, d.ci_high))}" + (f" (paired, {d.n_pairs} questions "
                                                     "labelled under both)" if d.paired else
                                                     " (unpaired)"))
    seen: set[tuple[str, str]] = set()
    for s in corrected.skipped:
        if s.metric is None:  # a label linked to no metric: the command says it once
            continue
        if (s.label, s.reason) in seen or (not strategies and s.strategy is not None):
            continue
        seen.add((s.label, s.reason))
        where = f" ({s.strategy})" if s.strategy else ""
        small = s.too_small()
        hint = (f" ({small})" if small is not None
                else f" (label more: ragassay annotate {run_id})"
                if run_id and s.too_few_labels else "")
        say(f"no corrected estimate of {s.label}{where}: {s.reason}{hint}", err=True)
